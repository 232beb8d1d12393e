// What one memory counted over a run: the statistics per memory, and summed over the memories
// the run's totals.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "hw/support/types.hpp"

namespace mmsim {

// Adds `from` to `to` element by element, `to` growing to the longer length.
inline void add_elementwise(std::vector<std::uint64_t>& to,
                            const std::vector<std::uint64_t>& from) {
  if (to.size() < from.size()) to.resize(from.size(), 0);
  for (std::size_t i = 0; i < from.size(); ++i) to[i] += from[i];
}

struct MemoryCounters {
  std::uint64_t dispatches = 0;
  std::uint64_t stages = 0;    // total congestion: stage groups over all dispatches
  std::uint64_t requests = 0;  // thread requests sent (active lanes)
  std::uint64_t max_stages = 0;
  Cycle busy = 0;  // time units in which the pipeline held at least one stage group
  bool any_completion = false;
  Cycle last_completion = 0;
  // stage_histogram[k]: the dispatches that occupied k stage groups ([0] is always 0).
  std::vector<std::uint64_t> stage_histogram;
  // Time units the warps dispatched here spent, summed over the warps (each warp of a super
  // warp counts): waiting for their turn (from ready to dispatched), and for their request
  // (from dispatched to its completion, inclusive: k + l - 1 per dispatch).
  Cycle turn_wait = 0;
  Cycle memory_wait = 0;

  // Running time: 1 + the time of the last completion (0 if nothing was sent).
  Cycle cycles() const { return any_completion ? last_completion + 1 : 0; }

  // A dispatch of k stage groups (with `lanes` active lanes, from `warps` warps that waited
  // `waited` time units for it) whose groups are in the pipeline from `entry` to `completion`.
  // Dispatches come in entry order, and each completes after the one before.
  void count(unsigned k, unsigned lanes, Cycle entry, Cycle completion, unsigned warps,
             Cycle waited) {
    ++dispatches;
    stages += k;
    requests += lanes;
    max_stages = std::max<std::uint64_t>(max_stages, k);
    if (k >= stage_histogram.size()) stage_histogram.resize(k + 1, 0);
    ++stage_histogram[k];
    const Cycle busy_from = any_completion ? std::max(entry, last_completion + 1) : entry;
    busy += completion + 1 - busy_from;
    last_completion = completion;
    any_completion = true;
    turn_wait += warps * waited;
    memory_wait += warps * (completion + 1 - entry);
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
    add_elementwise(stage_histogram, other.stage_histogram);
    turn_wait += other.turn_wait;
    memory_wait += other.memory_wait;
    return *this;
  }
};

// Where a memory's thread requests went, as its splitter counted them (each active lane counts,
// before requests to one address merge).
struct RequestSpread {
  // Banked memories (the request packing unit): the thread requests per bank.
  std::vector<std::uint64_t> banks = {};
  // Coalescing memories (UMM, the hmm's global memory): groups[j] = the address groups that a
  // dispatch touched with j thread requests (one per stage group on banks of one port: sum over
  // j of groups[j] is the stages, of j * groups[j] the requests).
  std::vector<std::uint64_t> groups = {};

  RequestSpread& operator+=(const RequestSpread& other) {
    add_elementwise(banks, other.banks);
    add_elementwise(groups, other.groups);
    return *this;
  }
};

}  // namespace mmsim
