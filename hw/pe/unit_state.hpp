// The state of a dispatch unit, as the dispatcher and the waveforms show it.
#pragma once

#include <cstdint>
#include <string_view>

namespace mmsim {

enum class UnitState : std::uint8_t {
  idle = 0,     // not started yet, or let through a barrier and not yet run again
  ready = 1,    // holds a memory instruction, waits for the dispatcher
  waiting = 2,  // its request is in the MMU (or it computes before its next instruction)
  barrier = 3,  // every unfinished warp of the unit waits at the barrier
  done = 4,     // every warp of the unit has finished its program
};

constexpr std::string_view to_string(UnitState state) {
  switch (state) {
    case UnitState::idle:
      return "idle";
    case UnitState::ready:
      return "ready";
    case UnitState::waiting:
      return "waiting";
    case UnitState::barrier:
      return "barrier";
    case UnitState::done:
      return "done";
  }
  return "?";
}

}  // namespace mmsim
