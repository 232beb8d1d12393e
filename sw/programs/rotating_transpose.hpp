// The transpose of Nakano 2012, Lemma 3 as a warp routine: R x R matrices stored row-major one
// after another (R a multiple of w) are cut into w x w blocks. A warp transposes a block in
// place with the rotating technique (PE i keeps l_i[t] = a[t][(t+i) mod w] in its local memory,
// then writes a[t][(t-i) mod w] <- l_i[(t-i) mod w]); blocks A[i][j] and A[j][i] are then
// swapped row by row. Every warp access touches one address group and w distinct banks.
//
// Two schedules deal this work to the warps:
//   two_phase (Lemma 3): every block is transposed, a barrier, then the rows of the block pairs
//     are swapped, w words (one row) per warp at a time;
//   pairs: one warp takes a pair {A[i][j], A[j][i]} (i <= j), transposes both and swaps them;
//     no barrier, but a warp's pair is 4w accesses long and the last pairs run alone.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "hw/pe/task.hpp"
#include "hw/pe/warp.hpp"

namespace mmsim {

enum class RotatingSchedule { two_phase, pairs };

class RotatingTranspose {
 public:
  RotatingTranspose(std::uint64_t side, unsigned width);

  std::uint64_t side() const { return side_; }
  // Transposes the `matrices` matrices at base, base + R^2, ... (every warp of the machine runs
  // it; needs w words of local memory per PE).
  Task run(Warp& warp, Address base, std::uint64_t matrices, RotatingSchedule schedule) const;
  // Stages per matrix on the UMM (and on the DMM): 2w per block (w reads, w writes), 4 per
  // swapped row: 4n/w - 2R for n = R^2.
  std::uint64_t stages() const;
  // Syncthreads run() executes: one between the phases when there is anything to swap.
  std::uint64_t barriers(RotatingSchedule schedule) const;
  // The accesses of the busiest of `warps` warps, summed over the phases (each phase waits for
  // the slowest warp of the one before).
  std::uint64_t chain(std::uint64_t warps, std::uint64_t matrices, RotatingSchedule schedule) const;

 private:
  Address cell(Address base, std::uint64_t bi, std::uint64_t bj, std::uint64_t r,
               std::uint64_t c) const {
    return base + (bi * width_ + r) * side_ + bj * width_ + c;
  }
  Task transpose_block(Warp& warp, Address base, std::uint64_t bi, std::uint64_t bj) const;
  Task swap_row(Warp& warp, Address base, std::uint64_t bi, std::uint64_t bj,
                std::uint64_t r) const;
  Task run_pair(Warp& warp, Address base, std::pair<std::uint64_t, std::uint64_t> pair) const;

  std::uint64_t side_;
  unsigned width_;
  std::uint64_t blocks_;                                          // per side
  std::vector<std::pair<std::uint64_t, std::uint64_t>> pairs_;    // i <= j
  std::vector<std::pair<std::uint64_t, std::uint64_t>> swapped_;  // i < j
};

}  // namespace mmsim
