// What one memory counted over a run: the statistics per memory, and summed over the memories
// the run's totals.
#pragma once

#include <algorithm>
#include <cstdint>

#include "hw/support/types.hpp"

namespace mmsim {

struct MemoryCounters {
  std::uint64_t dispatches = 0;
  std::uint64_t stages = 0;    // total congestion: stage groups over all dispatches
  std::uint64_t requests = 0;  // thread requests sent (active lanes)
  std::uint64_t max_stages = 0;
  Cycle busy = 0;  // time units in which the pipeline held at least one stage group
  bool any_completion = false;
  Cycle last_completion = 0;

  // Running time: 1 + the time of the last completion (0 if nothing was sent).
  Cycle cycles() const { return any_completion ? last_completion + 1 : 0; }

  // A dispatch of k stage groups (with `requests` active lanes) whose groups are in the
  // pipeline from `entry` to `completion`. Dispatches come in entry order, and each completes
  // after the one before.
  void count(unsigned k, unsigned lanes, Cycle entry, Cycle completion) {
    ++dispatches;
    stages += k;
    requests += lanes;
    max_stages = std::max<std::uint64_t>(max_stages, k);
    const Cycle busy_from = any_completion ? std::max(entry, last_completion + 1) : entry;
    busy += completion + 1 - busy_from;
    last_completion = completion;
    any_completion = true;
  }

  // Totals over several memories (busy is summed: pipeline time units).
  MemoryCounters& operator+=(const MemoryCounters& other) {
    dispatches += other.dispatches;
    stages += other.stages;
    requests += other.requests;
    max_stages = std::max(max_stages, other.max_stages);
    busy += other.busy;
    if (other.any_completion)
      last_completion =
          any_completion ? std::max(last_completion, other.last_completion) : other.last_completion;
    any_completion |= other.any_completion;
    return *this;
  }
};

}  // namespace mmsim
