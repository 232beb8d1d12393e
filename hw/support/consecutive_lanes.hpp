// Whether lanes form a run (hw/pe/lane_run.hpp): the MMU asks it of a dispatch's addresses, the
// Python adapter of a program's rows of addresses, so that a run is taken whole.
#pragma once

#include <cstddef>
#include <cstring>
#include <span>

#include "hw/support/four_lanes.hpp"
#include "hw/support/types.hpp"
#include "hw/support/vector_isa.hpp"

namespace mmsim {

// Whether lane i of `addresses` (at least one) is addresses[0] + i, every lane, none of them
// kInactive: the run must end below kInactive (the largest address) without wrapping around.
// Compared sixteen lanes at a time (four vectors of four, the x86-64-v3 registers), stopping at
// the first sixteen that break the run.
inline bool consecutive_lanes(std::span<const Address> addresses) {
  // Most lanes that are not a run show it at their last lane: no vector pass for them.
  const Address first = addresses.front();
  const std::size_t n = addresses.size();
  const Address last = first + (n - 1);
  if (addresses.back() != last || last < first || last == kInactive) return false;
  return with_vector_isa([addresses, first, n] {
    FourAddresses expected = FourAddresses{0, 1, 2, 3} + first;
    std::size_t i = 0;
    for (; i + 16 <= n; i += 16) {
      FourAddresses breaks = {};
      for (std::size_t j = i; j < i + 16; j += 4) {
        FourAddresses lanes;
        std::memcpy(&lanes, addresses.data() + j, sizeof lanes);
        breaks |= lanes ^ expected;
        expected += 4;
      }
      if ((breaks[0] | breaks[1] | breaks[2] | breaks[3]) != 0) return false;
    }
    Address breaks = 0;
    for (; i < n; ++i) breaks |= addresses[i] ^ (first + i);
    return breaks == 0;
  });
}

}  // namespace mmsim
