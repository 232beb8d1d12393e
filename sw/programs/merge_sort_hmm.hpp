// Merge sort on the hierarchical machine: each multiprocessor sorts blocks of keys in its shared
// memory (log2(block) levels of pairwise merges by ranks), then log2(n/block) rounds merge pairs
// of sorted runs through global memory by merge path: the threads first cut every merge into
// tiles of `block` keys (a binary search for each tile's end on the diagonal of the merge), then
// each multiprocessor merges its tiles in shared memory (merge_steps.hpp).
#pragma once

#include "sw/program/program_info.hpp"

namespace mmsim {

ProgramInfo merge_sort_hmm_program();

}  // namespace mmsim
