// What the PE array executes: one program, started once per warp (SIMT style).
#pragma once

#include "hw/pe/task.hpp"
#include "hw/pe/warp.hpp"

namespace mmsim {

class Kernel {
 public:
  virtual ~Kernel() = default;
  // The program of one warp; it runs until it returns, suspending at every instruction.
  virtual Task run(Warp& warp) = 0;
};

}  // namespace mmsim
