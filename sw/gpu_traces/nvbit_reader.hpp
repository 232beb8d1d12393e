// NVBit's mem_trace output (docs/gpu_traces.md, "NVBit"): one line per warp memory instruction,
// "MEMTRACE: CTX 0x... - grid_launch_id G - CTA x,y,z - warp W - OPCODE - " and 32 lane
// addresses ("0x0000000000000000" for a lane that does not take part), with a LAUNCH line per
// kernel ("MEMTRACE: CTX 0x... - LAUNCH - Kernel pc 0x... - Kernel name NAME - grid launch id G
// - grid size x,y,z - block size x,y,z - ..."); every other line (the program's own output) is
// skipped. Warps are told apart by (launch, CTA, warp) — W is a hardware slot, unique only among
// the warps on one SM at a time — and CTAs are numbered in the order they first appear.
//
// The lines of all warps come interleaved in the order the GPU ran them. They are regrouped per
// (CTA, warp) with bounded memory: records are gathered in memory up to run_bytes, regrouped by
// (kernel, CTA, warp) with a counting sort (each warp keeps its order) and written out as a run;
// the runs are then merged into the WarpStore, read back through a buffer per run (merge_bytes
// in all), one warp's records of one run in memory at a time. Memory: run_bytes (records of about
// 14 bytes, twice: as read and regrouped), and about 60 bytes per CTA of the selected kernels
// (their recorded order).
//
// Reading goes in two stages: the lines are read, decompressed and parsed each on its own
// (nvbit_lines.hpp), beside the stage that records them where the process may use two
// processors (read_ahead.hpp); the merge follows once every line is recorded.
#pragma once

#include <cstddef>
#include <filesystem>

#include "sw/gpu_traces/recorded_trace.hpp"

namespace mmsim {

// The memory regrouping takes: the records gathered before a run is written out, and the
// buffers through which the merge reads the runs back (all of them: 256 bytes to 1 MiB each).
// With the lines read ahead and the process's own, reading stays under 64 MiB.
struct NvbitRegrouping {
  std::size_t run_bytes = std::size_t{48} << 20;
  std::size_t merge_bytes = std::size_t{16} << 20;
};

void read_nvbit_trace(const std::filesystem::path& file, const KernelSelection& selection,
                      RecordedTrace& trace, NvbitRegrouping regrouping = {});

}  // namespace mmsim
