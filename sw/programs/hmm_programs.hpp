// Programs of the hierarchical machine (model hmm; Nakano 2013):
//   hmm_sum          the sum of n numbers in O(n/w + nl/p + l + log n): coalesced reads into
//                    registers, a tree per SM in shared memory, grid_sync, SM 0 adds up
//   hmm_convolution  direct convolution of m and m + n - 1 numbers in
//                    O(n/w + mn/(dw) + nl/p + l + log m): every SM stages a and its window of b
//                    in shared memory
//   hmm_transpose    tiled transpose: w x w tiles through shared memory, padded, diagonal or
//                    naive (bank conflicts)
#pragma once

#include "sw/program/program_info.hpp"

namespace mmsim {

ProgramInfo hmm_sum_program();
ProgramInfo hmm_convolution_program();
ProgramInfo hmm_transpose_program();

}  // namespace mmsim
