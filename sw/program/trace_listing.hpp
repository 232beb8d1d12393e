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

// A CSV trace implies every warp below the highest it names (p/w of them), so a warp number is
// checked before it sizes anything: a million warps of 4 lanes took 1.8 GB; 2^16 take about
// 120 MB.
inline constexpr std::uint32_t kMaxTraceWarps = 1u << 16;

// Reads the CSV form: one instruction per line, "warp,op[,space][,lane...]" where op is read,
// write, sync or grid_sync, space is global (the default) or shared, and each lane is an
// address, "-" (inactive) or, for writes, "address=value". Blank lines and lines starting with
// '#' are skipped. Throws InputError at the offending field.
TraceListing read_trace_csv(const std::filesystem::path& file);

// At most the bytes read_trace_csv(file) allocates, found from the file's size and lines without
// reading it as a trace: a lane takes at least 2 bytes of text ("0," or "-,") and at most 16 bytes
// (an address and a value), an instruction a line. 0 when the file cannot be read
// (read_trace_csv says why).
std::uint64_t trace_csv_bytes(const std::filesystem::path& file);

// The bytes a listing holds.
std::uint64_t listing_bytes(const TraceListing& listing);

}  // namespace mmsim
