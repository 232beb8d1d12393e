// Nakano 2012, Lemma 3: transpose a sqrt(n) x sqrt(n) matrix on the UMM in O(n/w + nl/p) with w
// words of local memory per PE. Every w x w block is transposed in place by one warp with the
// rotating technique (PE i keeps l_i[t] = a[t][(t+i) mod w], then writes
// a[t][(t-i) mod w] <- l_i[(t-i) mod w]), so that each warp access stays in one address group;
// blocks A[i][j] and A[j][i] are swapped row by row, after all blocks (schedule two_phase) or
// by the warp that transposed the pair (schedule pairs).
#pragma once

#include <string>

#include "sw/program/program_info.hpp"
#include "sw/programs/rotating_transpose.hpp"

namespace mmsim {

ProgramInfo transpose_umm_rotating_program();

// The schedule parameter `param` (two_phase or pairs) and its specification.
RotatingSchedule rotating_schedule(const ParamValues& params, const std::string& param);
ParamSpec rotating_schedule_param(const std::string& name);

}  // namespace mmsim
