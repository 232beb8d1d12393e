// A memory trace: per warp, its instructions in order (the `trace` program replays it).
#pragma once

#include <filesystem>
#include <vector>

#include "hw/support/types.hpp"
#include "sw/program/input_error.hpp"

namespace mmsim {

struct TraceInstruction {
  enum class Kind { read, write, sync, grid_sync };
  Kind kind = Kind::read;
  std::vector<Address> addresses;  // one per lane, kInactive = inactive lane
  std::vector<Word> values;        // writes: one per lane; empty = the lanes' registers
  Space space = Space::global;
  SourceLocation where;
};

struct TraceListing {
  std::vector<std::vector<TraceInstruction>> warps;
  SourceLocation where;  // of the listing as a whole (for a wrong warp count)
};

// Reads the CSV form: one instruction per line, "warp,op[,space][,lane...]" where op is read,
// write, sync or grid_sync, space is global (the default) or shared, and each lane is an
// address, "-" (inactive) or, for writes, "address=value". Blank lines and lines starting with
// '#' are skipped. Throws InputError at the offending field.
TraceListing read_trace_csv(const std::filesystem::path& file);

}  // namespace mmsim
