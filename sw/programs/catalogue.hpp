// The built-in programs, by name: the catalogue lives with the programs it lists.
#pragma once

#include <string_view>
#include <vector>

#include "sw/program/program_info.hpp"

namespace mmsim {

// Every built-in program, in the order `mmsim list` shows them.
const std::vector<ProgramInfo>& programs();
// nullptr for an unknown name.
const ProgramInfo* find_program(std::string_view name);

}  // namespace mmsim
