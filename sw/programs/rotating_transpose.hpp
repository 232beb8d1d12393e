// The transpose of seed 000 Lemma 3 as a warp routine: an R x R matrix stored row-major at
// `base` (R a multiple of w) is cut into w x w blocks; one warp transposes a pair of blocks
// {A[i][j], A[j][i]} with the rotating technique (PE i keeps l_i[t] = a[t][(t+i) mod w] in its
// local memory, then writes a[t][(t-i) mod w] <- l_i[(t-i) mod w]) and swaps them row by row.
// Every warp access touches one address group and w distinct banks.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "hw/pe/task.hpp"
#include "hw/pe/warp.hpp"

namespace mmsim {

class RotatingTranspose {
 public:
  RotatingTranspose(std::uint64_t side, unsigned width);

  std::uint64_t side() const { return side_; }
  // Work items per matrix: the block pairs {A[i][j], A[j][i]}, i <= j.
  std::uint64_t pairs() const { return pairs_.size(); }
  // Transposes block pair `pair` of the matrix at `base` (needs w words of local memory per PE).
  Task run(Warp& warp, Address base, std::uint64_t pair) const;
  // Stages on the UMM (and on the DMM): 2w per block (w reads, w writes), 4w per swapped pair.
  std::uint64_t stages() const;

 private:
  Address cell(Address base, std::uint64_t bi, std::uint64_t bj, std::uint64_t r,
               std::uint64_t c) const {
    return base + (bi * width_ + r) * side_ + bj * width_ + c;
  }
  Task transpose_block(Warp& warp, Address base, std::uint64_t bi, std::uint64_t bj) const;

  std::uint64_t side_;
  unsigned width_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> pairs_;
};

}  // namespace mmsim
