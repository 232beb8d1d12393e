#include "hw/observers/time_series.hpp"

#include <algorithm>

namespace mmsim {
namespace {

// Keeps the elements at odd positions (the samples at multiples of twice the interval).
template <class T>
void keep_odd(std::vector<T>& values) {
  std::size_t kept = 0;
  for (std::size_t i = 1; i < values.size(); i += 2) values[kept++] = values[i];
  values.resize(kept);
}

}  // namespace

TimeSeriesSampler::TimeSeriesSampler(Cycle interval) {
  series_.interval = interval;
  if (interval > 0) next_ = interval;
}

void TimeSeriesSampler::sample_until(Cycle t, const std::vector<const Mmu*>& memories,
                                     const BarrierUnit& barrier) {
  while (next_ <= t) {
    record(next_, memories, barrier);
    if (series_.cycle.size() == TimeSeries::kMaxSamples) thin();
    next_ = series_.cycle.back() + series_.interval;
  }
}

void TimeSeriesSampler::finish(Cycle end, const std::vector<const Mmu*>& memories,
                               const BarrierUnit& barrier) {
  if (series_.empty()) return;
  sample_until(end, memories, barrier);
  if (series_.cycle.empty() || series_.cycle.back() != end) record(end, memories, barrier);
  next_ = kNever;
}

void TimeSeriesSampler::record(Cycle c, const std::vector<const Mmu*>& memories,
                               const BarrierUnit& barrier) {
  series_.cycle.push_back(c);
  series_.memories.resize(memories.size());
  for (std::size_t m = 0; m < memories.size(); ++m) {
    const MemoryCounters& counters = memories[m]->counters();
    TimeSeries::Memory& out = series_.memories[m];
    out.dispatches.push_back(counters.dispatches);
    out.stages.push_back(counters.stages);
    out.requests.push_back(counters.requests);
    out.turn_wait.push_back(counters.turn_wait);
    out.memory_wait.push_back(counters.memory_wait);
  }
  std::uint64_t syncthreads = 0;
  for (unsigned b = 0; b < barrier.blocks(); ++b)
    syncthreads = std::max(syncthreads, barrier.steps(b));
  series_.syncthreads.push_back(syncthreads);
  series_.grid_syncs.push_back(barrier.grid_steps());
  series_.finished_warps.push_back(barrier.finished());
}

void TimeSeriesSampler::thin() {
  keep_odd(series_.cycle);
  for (TimeSeries::Memory& m : series_.memories) {
    keep_odd(m.dispatches);
    keep_odd(m.stages);
    keep_odd(m.requests);
    keep_odd(m.turn_wait);
    keep_odd(m.memory_wait);
  }
  keep_odd(series_.syncthreads);
  keep_odd(series_.grid_syncs);
  keep_odd(series_.finished_warps);
  series_.interval *= 2;
}

}  // namespace mmsim
