// What a run counted (the statistics of DESIGN.md section 4 come from here).
#pragma once

#include <cstdint>

#include "hw/support/types.hpp"

namespace mmsim {

struct RunCounters {
  std::uint64_t dispatches = 0;
  std::uint64_t stages = 0;    // total congestion: stage groups over all dispatches
  std::uint64_t requests = 0;  // thread requests sent (active lanes)
  std::uint64_t max_stages = 0;
  bool any_completion = false;
  Cycle last_completion = 0;

  // Running time: 1 + the time of the last completion (0 if nothing was sent).
  Cycle cycles() const { return any_completion ? last_completion + 1 : 0; }
};

}  // namespace mmsim
