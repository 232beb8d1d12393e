// Which lanes of a dispatch are active, as a mask (bit i: lane i), so that a loop can visit those
// lanes alone, without a branch per lane that no predictor learns (as the scans of sorting stop,
// their lanes drop out at no pattern).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "hw/support/types.hpp"

namespace mmsim {

// The active lanes of a dispatch, as the MMU finds them once for the units that follow it (the
// splitter, the reads and writes): how many, and which when the dispatch has at most 64 lanes.
struct ActiveLanes {
  unsigned count;
  std::uint64_t mask;  // bit i: lane i (read only where the dispatch has at most 64 lanes)
};

// The active lanes (those whose address or cell is not kInactive) of at most 64 lanes. Compiled
// for each vector instruction set and chosen like with_vector_isa: the compiler builds masks of
// per-lane shifts and ORs, while a vector compare and one move of its lanes' top bits
// (movmskpd) give four lanes' bits at once.
std::uint64_t active_lane_mask(std::span<const Address> lanes);
// The same with their count (counted by the variant's popcnt where it has one).
ActiveLanes active_lanes(std::span<const Address> lanes);
// The lanes, of at most 64, whose address is at or beyond `words` (at least 1; the inactive lanes
// among them, kInactive lying beyond every memory): a memory's range check.
std::uint64_t lanes_at_or_beyond(std::span<const Address> lanes, Address words);

// The mask of lanes 0 .. n - 1 (n at most 64).
constexpr std::uint64_t first_lanes(std::size_t n) {
  return n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
}

}  // namespace mmsim
