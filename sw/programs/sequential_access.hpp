// Nakano 2012, section III: p threads each access s = n/p cells of an array of n words in s rounds.
// contiguous_access: in round t thread i accesses m[t*p + i] (warps touch w consecutive cells);
// stride_access:     in round t thread i accesses m[i*s + t] (a warp's cells lie s apart).
#pragma once

#include "sw/program/program_info.hpp"

namespace mmsim {

ProgramInfo contiguous_access_program();
ProgramInfo stride_access_program();

}  // namespace mmsim
