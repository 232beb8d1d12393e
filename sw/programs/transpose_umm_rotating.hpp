// Seed 000 Lemma 3: transpose a sqrt(n) x sqrt(n) matrix on the UMM in O(n/w + nl/p) with w words
// of local memory per PE. Every w x w block is transposed in place by one warp with the
// rotating technique (PE i keeps l_i[t] = a[t][(t+i) mod w], then writes
// a[t][(t-i) mod w] <- l_i[(t-i) mod w]), so that each warp access stays in one address group;
// then blocks A[i][j] and A[j][i] are swapped row by row.
#pragma once

#include "sw/program/registry.hpp"

namespace mmsim {

ProgramInfo transpose_umm_rotating_program();

}  // namespace mmsim
