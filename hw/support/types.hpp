// Basic vocabulary of the memory machines: addresses, words, cycles, identifiers.
#pragma once

#include <cstdint>
#include <limits>

namespace mmsim {

using Address = std::uint64_t;  // word address in one memory
using Word = std::int64_t;      // one memory cell / one register
using Cycle = std::uint64_t;    // machine time unit (one clock period)
using UnitId = std::uint32_t;   // dispatch unit: a warp, or a super warp
using WarpId = std::uint32_t;
using MemoryId = std::uint32_t;

// An inactive lane sends no request.
inline constexpr Address kInactive = std::numeric_limits<Address>::max();
inline constexpr Cycle kNever = std::numeric_limits<Cycle>::max();
inline constexpr UnitId kNoUnit = std::numeric_limits<UnitId>::max();

// Addresses are kept below 2^32 words so that bank and row arithmetic stays 32-bit fast.
inline constexpr std::uint64_t kMaxMemoryWords = std::uint64_t{1} << 32;

enum class AccessKind : std::uint8_t { read, write };

}  // namespace mmsim
