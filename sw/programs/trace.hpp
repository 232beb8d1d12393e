// `trace`: replays per-warp memory instructions given in the testbench (program.warps) or in a
// CSV file (params.file). Memory starts as m[i] = i (params.init: address) or zero.
#pragma once

#include "sw/program/program_info.hpp"

namespace mmsim {

ProgramInfo trace_program();

}  // namespace mmsim
