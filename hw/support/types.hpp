// Basic vocabulary of the memory machines: addresses, words, cycles, identifiers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

namespace mmsim {

using Address = std::uint64_t;  // word address in one memory
using Word = std::int64_t;      // one memory cell / one register
using Cycle = std::uint64_t;    // machine time unit (one clock period)
using UnitId = std::uint32_t;   // dispatch unit: a warp, or a super warp
using WarpId = std::uint32_t;
using MemoryId = std::uint32_t;

// An inactive lane sends no request.
inline constexpr Address kInactive = std::numeric_limits<Address>::max();
// The inactive lanes of a dispatch: one loop that vectorises where it is inlined (call it
// inside with_vector_isa).
inline std::uint64_t inactive_lanes(std::span<const Address> lanes) {
  std::uint64_t inactive = 0;
  for (const Address a : lanes) inactive += a == kInactive;
  return inactive;
}
// The active lanes of a dispatch of at most 64 lanes, as a mask (bit i: lane i), so that a loop
// can visit those lanes alone, without a branch per lane that no predictor learns (the scans of
// sorting). One loop that vectorises where it is inlined (call it inside with_vector_isa).
inline std::uint64_t active_lane_mask(std::span<const Address> lanes) {
  std::uint64_t on = 0;
  for (std::size_t i = 0; i < lanes.size(); ++i) on |= std::uint64_t{lanes[i] != kInactive} << i;
  return on;
}
inline constexpr Cycle kNever = std::numeric_limits<Cycle>::max();
inline constexpr UnitId kNoUnit = std::numeric_limits<UnitId>::max();

// Addresses are kept below 2^32 words so that bank and row arithmetic stays 32-bit fast.
inline constexpr std::uint64_t kMaxMemoryWords = std::uint64_t{1} << 32;

enum class AccessKind : std::uint8_t { read, write };

// The memory a memory instruction goes to. Flat machines have global memory only; on the
// hierarchical machine each streaming multiprocessor has a shared memory of its own.
enum class Space : std::uint8_t { global, shared };

// Which warps a barrier waits for: those of the warp's block (syncthreads, on the warp's
// streaming multiprocessor; a flat machine is one block), or every warp (grid_sync, a kernel
// boundary).
enum class BarrierScope : std::uint8_t { block, grid };

inline constexpr MemoryId kNoMemory = std::numeric_limits<MemoryId>::max();

}  // namespace mmsim
