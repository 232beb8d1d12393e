// The counters over time (--stats-interval N): the dispatcher samples the cumulative counters
// of every memory and of the barriers every N time units. Sample i holds the counts of the
// events before time cycle[i] (a dispatch counts when it is made, its wait for memory with it);
// the last sample is the end of the run, with the final counts. At most kMaxSamples are kept:
// when a run outgrows them the interval doubles and every other sample goes.
#pragma once

#include <cstdint>
#include <vector>

#include "hw/mmu/mmu.hpp"
#include "hw/pe/barrier_unit.hpp"
#include "hw/support/types.hpp"

namespace mmsim {

struct TimeSeries {
  static constexpr std::size_t kMaxSamples = 4096;

  struct Memory {
    std::vector<std::uint64_t> dispatches;
    std::vector<std::uint64_t> stages;
    std::vector<std::uint64_t> requests;
    std::vector<Cycle> turn_wait;
    std::vector<Cycle> memory_wait;
  };

  Cycle interval = 0;  // 0: not sampled
  std::vector<Cycle> cycle;
  std::vector<Memory> memories;               // in memory-id order
  std::vector<std::uint64_t> syncthreads;     // the most barrier steps of one block
  std::vector<std::uint64_t> grid_syncs;      // grid_sync steps
  std::vector<std::uint64_t> finished_warps;  // warps whose program has ended

  bool empty() const { return interval == 0; }
};

class TimeSeriesSampler {
 public:
  // `interval` 0: no sampling (next() is never due).
  explicit TimeSeriesSampler(Cycle interval);

  // The time of the next sample (kNever when not sampling).
  Cycle next() const { return next_; }
  // Records the samples due at or before t from the counters as they are (the events before t).
  void sample_until(Cycle t, const std::vector<const Mmu*>& memories, const BarrierUnit& barrier);
  // The last sample, at `end` (the running time), with the final counters.
  void finish(Cycle end, const std::vector<const Mmu*>& memories, const BarrierUnit& barrier);
  const TimeSeries& series() const { return series_; }

 private:
  void record(Cycle c, const std::vector<const Mmu*>& memories, const BarrierUnit& barrier);
  // Keeps every other sample (those at multiples of twice the interval) and doubles it.
  void thin();

  TimeSeries series_;
  Cycle next_ = kNever;
};

}  // namespace mmsim
