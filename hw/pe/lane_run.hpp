// The addresses of a coalesced access, as a run: lane i addresses first + i (mod 2^64), every
// lane. A warp's read or write of a run is the same instruction as one of the span of those w
// addresses, but nothing is written out per lane: an MMU takes a run whole, from its first
// address (Warp::read and Warp::write take either).
#pragma once

#include <cstddef>

#include "hw/support/types.hpp"

namespace mmsim {

struct LaneRun {
  Address first = 0;
  // Lane i's address, as a span of addresses is indexed.
  Address operator[](std::size_t lane) const { return first + lane; }
};

}  // namespace mmsim
