// What a profile or a timeline sees of a run: every dispatch as the MMU accepts it, and every
// warp let through a barrier. The dispatcher calls its recorders only when it has some, so a run
// without them pays one test per dispatch and per barrier release.
#pragma once

#include "hw/mmu/stage_splitter.hpp"
#include "hw/pe/warp_unit.hpp"
#include "hw/support/types.hpp"

namespace mmsim {

class InstructionRecorder {
 public:
  virtual ~InstructionRecorder() = default;
  // Memory `memory` accepted the unit's dispatch at t: `stages` stage groups, `requests` active
  // lanes, completing at `completion`. The warps taking part are those with unit.in_flight(j);
  // each waited t - unit.ready_since() for its turn. `splitter`, the memory's, places the
  // dispatch's cells (unit.dispatch_cells()) in their stage groups and banks.
  virtual void dispatched(const WarpUnit& unit, MemoryId memory, StageSplitter& splitter,
                          unsigned stages, unsigned requests, Cycle t, Cycle completion) = 0;
  // The warp in slot j of `unit`, at the barrier its instruction() names since `arrived`, is let
  // through at `release`.
  virtual void released(const WarpUnit& unit, std::size_t j, Cycle arrived, Cycle release) = 0;
};

}  // namespace mmsim
