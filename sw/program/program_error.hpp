// A program's own code failed (a Python program's exception, an instruction it got wrong): the
// run failed because of the program, not of the input or the machine; `mmsim run` exits with 1.
#pragma once

#include "hw/support/errors.hpp"

namespace mmsim {

class ProgramError : public SimulationError {
 public:
  using SimulationError::SimulationError;
};

}  // namespace mmsim
