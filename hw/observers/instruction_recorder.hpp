// What a profile or a timeline sees of a run: every dispatch as the MMU accepts it, and every
// warp let through a barrier. The dispatcher calls its recorders only when it has some, so a run
// without them pays one test per dispatch and per barrier release.
#pragma once

#include "hw/observers/stage_groups.hpp"
#include "hw/pe/warp_unit.hpp"
#include "hw/support/types.hpp"

namespace mmsim {

// One dispatch, as a recorder sees it (read-only).
struct DispatchRecord {
  // The warps taking part are those with unit.in_flight(j); each waited t - unit.ready_since()
  // for its turn.
  const WarpUnit& unit;
  MemoryId memory;
  unsigned stages;    // k
  unsigned requests;  // active lanes
  Cycle t;            // when the MMU accepted it
  Cycle completion;   // when its last group completes
  // Where its lanes went: placed once by the dispatcher when a recorder needs them
  // (InstructionRecorder::needs_stage_groups), for every recorder.
  const StageGroups& groups;
};

class InstructionRecorder {
 public:
  virtual ~InstructionRecorder() = default;
  // Whether dispatched() reads each lane's stage group (DispatchRecord::groups): the dispatcher
  // places the lanes only when some recorder does.
  virtual bool needs_stage_groups() const { return false; }
  virtual void dispatched(const DispatchRecord& dispatch) = 0;
  // The warp in slot j of `unit`, at the barrier its instruction() names since `arrived`, is let
  // through at `release`.
  virtual void released(const WarpUnit& unit, std::size_t j, Cycle arrived, Cycle release) = 0;
};

}  // namespace mmsim
