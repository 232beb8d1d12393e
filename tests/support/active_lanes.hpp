// The active lanes of a dispatch by their definition, lane by lane: what the MMU hands the
// splitters (hw/support/lane_mask.hpp) when tests drive a splitter alone.
#pragma once

#include <span>

#include "hw/support/lane_mask.hpp"

namespace mmsim::test {

inline ActiveLanes active_lanes_of(std::span<const Address> cells) {
  ActiveLanes active{0, 0};
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (cells[i] == kInactive) continue;
    ++active.count;
    if (i < 64) active.mask |= std::uint64_t{1} << i;
  }
  return active;
}

}  // namespace mmsim::test
