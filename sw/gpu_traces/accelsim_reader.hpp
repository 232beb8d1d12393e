// Accel-Sim's traces (docs/gpu_traces.md, "Accel-Sim"): a kernel-N.traceg file, as its tracer
// and post-processing write it (plain, or compressed), or a kernelslist.g naming such files. A
// .traceg is a header ("-kernel name = ...", "-grid dim = (x,y,z)", "-block dim = (x,y,z)",
// "-accelsim tracer version = V", "-enable lineinfo = 0|1", ...), then per thread block
// "#BEGIN_TB", "thread block = x,y,z", per warp "warp = q", "insts = n" and n instruction lines
// "[source_line] PC mask dest_num dests opcode src_num srcs mem_width [format addresses]
// [immediate]", then "#END_TB". Thread blocks are read one at a time, their warps' records
// written to the WarpStore as they come. Past the header, a .traceg is read in two stages: its
// lines read, decompressed and parsed each on its own (accelsim_lines.hpp), beside the stage
// that records them where the process may use two processors (read_ahead.hpp).
#pragma once

#include <filesystem>

#include "sw/gpu_traces/recorded_trace.hpp"

namespace mmsim {

void read_accelsim_trace(const std::filesystem::path& file, const KernelSelection& selection,
                         RecordedTrace& trace);

}  // namespace mmsim
