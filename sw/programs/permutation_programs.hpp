// Offline permutation (Nakano 2012, sections V and VI): move a[i] to a[P(i)] for a permutation P
// known in advance.
//   permute_straightforward   b[i] <- a[i], then a[P(i)] <- b[i]: its writes may all hit one bank
//   permute_dmm_conflict_free Theorem 6: the same two passes, the second in the order of an exact
//                             n/w-edge-colouring, so that every warp access is conflict-free
//   permute_umm               Lemma 7 / Theorem 8: row-wise permutations and transposes, with
//                             the planner's colourings, for n = w^(2^m)
#pragma once

#include "sw/program/program_info.hpp"

namespace mmsim {

ProgramInfo permute_straightforward_program();
ProgramInfo permute_dmm_conflict_free_program();
ProgramInfo permute_umm_program();

}  // namespace mmsim
