#include "sw/programs/catalogue.hpp"

#include "sw/programs/hmm_permutation_programs.hpp"
#include "sw/programs/hmm_programs.hpp"
#include "sw/programs/bitonic_sort.hpp"
#include "sw/programs/cole_merge_sort.hpp"
#include "sw/programs/gpu_trace.hpp"
#include "sw/programs/merge_sort_hmm.hpp"
#include "sw/programs/permutation_programs.hpp"
#include "sw/programs/prefix_sums.hpp"
#include "sw/programs/sequential_access.hpp"
#include "sw/programs/sums.hpp"
#include "sw/programs/trace.hpp"
#include "sw/programs/transpose.hpp"
#include "sw/programs/transpose_in_place.hpp"
#include "sw/programs/transpose_umm_rotating.hpp"

namespace mmsim {

const std::vector<ProgramInfo>& programs() {
  static const std::vector<ProgramInfo> all = {
      trace_program(),
      gpu_trace_program(),
      contiguous_access_program(),
      stride_access_program(),
      transpose_umm_rotating_program(),
      transpose_naive_program(),
      transpose_diagonal_program(),
      transpose_diagonal_in_place_program(),
      transpose_exchange_program(),
      permute_straightforward_program(),
      permute_dmm_conflict_free_program(),
      permute_umm_program(),
      sum_simple_program(),
      sum_one_warp_program(),
      sum_tree_program(),
      sum_simple_tree_program(),
      sum_hybrid_program(),
      prefix_simple_program(),
      prefix_one_warp_program(),
      prefix_tree_program(),
      prefix_simple_tree_program(),
      prefix_hybrid_program(),
      hmm_sum_program(),
      hmm_convolution_program(),
      hmm_transpose_program(),
      bitonic_sort_program(),
      merge_sort_hmm_program(),
      cole_merge_sort_program(),
      hmm_permute_conventional_program(),
      hmm_permute_special_program(),
      hmm_permute_program(),
  };
  return all;
}

const ProgramInfo* find_program(std::string_view name) {
  for (const ProgramInfo& info : programs())
    if (info.name == name) return &info;
  return nullptr;
}

}  // namespace mmsim
