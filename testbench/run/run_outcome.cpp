#include "testbench/run/run_outcome.hpp"

namespace mmsim {

double measured(const RunOutcome& o, const Bound& bound) {
  switch (bound.measure) {
    case Bound::Measure::cycles:
      return static_cast<double>(o.result.cycles());
    case Bound::Measure::stages:
      return static_cast<double>(o.result.counters.stages);
    case Bound::Measure::syncthreads:
      return static_cast<double>(o.result.syncthreads);
    case Bound::Measure::global_stages:  // memory 0; none yet in a preview
      return o.result.memories.empty()
                 ? 0.0
                 : static_cast<double>(o.result.memories.front().counters.stages);
    case Bound::Measure::shared_stages: {
      std::uint64_t stages = 0;
      for (const MemoryResult& memory : o.result.memories)
        if (memory.block != kNoBlock) stages += memory.counters.stages;
      return static_cast<double>(stages);
    }
    case Bound::Measure::grid_syncs:
      return static_cast<double>(o.result.grid_syncs);
  }
  return 0;
}

}  // namespace mmsim
