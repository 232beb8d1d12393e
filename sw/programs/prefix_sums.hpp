// Nakano 2012 (asynchronous), section 5: the prefix sums of n numbers on the asynchronous memory
// machines, with few barriers. Each program turns the numbers into their prefix sums in place and
// checks them all.
//   prefix_simple       Prefix-summing Algorithm Simple (Lemma 6): interval sums, then sums of
//                       the interval sums; n/2 threads
//   prefix_one_warp     Prefix-summing Algorithm One-Warp: Simple on n <= w numbers, one warp
//   prefix_tree         Prefix-summing Algorithm Tree (Lemma 7): a w-ary tree, n threads
//   prefix_simple_tree  Prefix-summing Algorithm Simple-Tree (Theorem 8); n/2 threads
//   prefix_hybrid       Prefix-summing Algorithm Hybrid (Theorem 9): transpose (Fig. 11),
//                       column-wise prefix sums, Simple-Tree on the w*l column totals; w*l threads
#pragma once

#include "sw/program/program_info.hpp"

namespace mmsim {

ProgramInfo prefix_simple_program();
ProgramInfo prefix_one_warp_program();
ProgramInfo prefix_tree_program();
ProgramInfo prefix_simple_tree_program();
ProgramInfo prefix_hybrid_program();

}  // namespace mmsim
