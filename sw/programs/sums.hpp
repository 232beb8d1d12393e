// Nakano 2012 (asynchronous), section 4: the sum of n numbers on the asynchronous memory machines,
// with few barriers. Each program adds the numbers in place and checks the sum.
//   sum_simple       Summing Algorithm Simple (Lemma 2): halving, n/2 threads
//   sum_one_warp     Summing Algorithm One-Warp: Simple on n <= w numbers, one warp
//   sum_tree         Summing Algorithm Tree (Lemma 3): a w-ary tree, n threads
//   sum_simple_tree  Summing Algorithm Simple-Tree (Theorem 4): ceil(log2(log2(w))) halvings,
//                    then Tree, n/2 threads
//   sum_hybrid       Summing Algorithm Hybrid (Theorem 5): column sums with w*l threads, then
//                    Simple-Tree
#pragma once

#include "sw/program/program_info.hpp"

namespace mmsim {

ProgramInfo sum_simple_program();
ProgramInfo sum_one_warp_program();
ProgramInfo sum_tree_program();
ProgramInfo sum_simple_tree_program();
ProgramInfo sum_hybrid_program();

}  // namespace mmsim
