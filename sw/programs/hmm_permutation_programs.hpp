// Offline permutations on the hierarchical machine (Kasagi, Nakano and Ito, ICPP 2013; IEICE
// Trans. E97-D(12), 2014), b[P(i)] <- a[i] for a permutation P known in advance:
//   hmm_permute_conventional  three rounds per element: read a[i], read p[i], write b[p[i]]
//   hmm_permute_special       transpose, perfect shuffle, bit reversal: one pass through
//                             shared memory, every global access coalesced
//   hmm_permute               any permutation: Lemma 7's row-wise steps and transposes as five
//                             passes through shared memory, planned by exact colourings
#pragma once

#include "sw/program/program_info.hpp"

namespace mmsim {

ProgramInfo hmm_permute_conventional_program();
ProgramInfo hmm_permute_special_program();
ProgramInfo hmm_permute_program();

}  // namespace mmsim
