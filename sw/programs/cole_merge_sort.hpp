// Cole's parallel merge sort on the hierarchical machine, as the GPGPU thesis (section 4 and
// figures 5 and 6) runs it:
// - step 1: each multiprocessor sorts blocks of keys in its shared memory by Cole's pipelined
//   merge sort (cole_plan.hpp): 3 log2(block) stages, each an O(1)-per-key merge with help
//   (Merge_with_help) and the upkeep of the ranks the next stage needs, three syncthreads apart;
//   the sorted run goes to global memory, its sample (every s-th key, s = block/2) with it;
// - step 2: log2(n/block) rounds merge pairs of runs through global memory with the help of their
//   samples: the samples' cross ranks cut both runs into pieces of at most s keys each, and each
//   multiprocessor merges its pieces in shared memory (merge_steps.hpp).
// Keys are 32-bit; they travel as items key << 32 | index, so that all are distinct.
#pragma once

#include "sw/program/program_info.hpp"

namespace mmsim {

ProgramInfo cole_merge_sort_program();

}  // namespace mmsim
