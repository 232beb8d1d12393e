#include "sw/programs/rotating_transpose.hpp"

#include <algorithm>

namespace mmsim {

RotatingTranspose::RotatingTranspose(std::uint64_t side, unsigned width)
    : side_(side), width_(width), blocks_(side / width) {
  for (std::uint64_t i = 0; i < blocks_; ++i)
    for (std::uint64_t j = i; j < blocks_; ++j) {
      pairs_.emplace_back(i, j);
      if (i != j) swapped_.emplace_back(i, j);
    }
}

std::uint64_t RotatingTranspose::stages() const {
  return 2 * width_ * blocks_ * blocks_ + 4 * width_ * swapped_.size();
}

std::uint64_t RotatingTranspose::barriers(RotatingSchedule schedule) const {
  return schedule == RotatingSchedule::two_phase && !swapped_.empty() ? 1 : 0;
}

std::uint64_t RotatingTranspose::chain(std::uint64_t warps, std::uint64_t matrices,
                                       RotatingSchedule schedule) const {
  const auto most = [warps](std::uint64_t items) { return (items + warps - 1) / warps; };
  if (schedule == RotatingSchedule::two_phase)
    return 2 * width_ * most(matrices * blocks_ * blocks_) +
           4 * most(matrices * swapped_.size() * width_);
  // Warp u takes items u, u + warps, ...: a pair on the diagonal is 2w accesses, another 8w.
  std::vector<std::uint64_t> accesses(std::min(warps, matrices * pairs_.size()), 0);
  for (std::uint64_t item = 0; item < matrices * pairs_.size(); ++item) {
    const auto [i, j] = pairs_[item % pairs_.size()];
    accesses[item % warps] += (i == j ? 2 : 8) * std::uint64_t{width_};
  }
  return accesses.empty() ? 0 : *std::max_element(accesses.begin(), accesses.end());
}

Task RotatingTranspose::run(Warp& warp, Address base, std::uint64_t matrices,
                            RotatingSchedule schedule) const {
  const std::uint64_t matrix = side_ * side_;
  if (schedule == RotatingSchedule::pairs) {
    for (std::uint64_t item = warp.index(); item < matrices * pairs_.size(); item += warp.count())
      co_await run_pair(warp, base + item / pairs_.size() * matrix, pairs_[item % pairs_.size()]);
    co_return;
  }
  const std::uint64_t blocks = blocks_ * blocks_;
  for (std::uint64_t item = warp.index(); item < matrices * blocks; item += warp.count()) {
    const std::uint64_t block = item % blocks;
    co_await transpose_block(warp, base + item / blocks * matrix, block / blocks_, block % blocks_);
  }
  if (barriers(schedule) == 0) co_return;
  co_await warp.sync();  // every block transposed before any is swapped
  const std::uint64_t rows = swapped_.size() * width_;
  for (std::uint64_t item = warp.index(); item < matrices * rows; item += warp.count()) {
    const auto [i, j] = swapped_[item % rows / width_];
    co_await swap_row(warp, base + item / rows * matrix, i, j, item % width_);
  }
}

Task RotatingTranspose::run_pair(Warp& warp, Address base,
                                 std::pair<std::uint64_t, std::uint64_t> pair) const {
  const auto [i, j] = pair;
  co_await transpose_block(warp, base, i, j);
  if (i == j) co_return;
  co_await transpose_block(warp, base, j, i);
  for (std::uint64_t r = 0; r < width_; ++r) co_await swap_row(warp, base, i, j, r);
}

Task RotatingTranspose::swap_row(Warp& warp, Address base, std::uint64_t bi, std::uint64_t bj,
                                 std::uint64_t r) const {
  std::vector<Address> upper(width_);
  std::vector<Address> lower(width_);
  for (unsigned lane = 0; lane < width_; ++lane) {
    upper[lane] = cell(base, bi, bj, r, lane);
    lower[lane] = cell(base, bj, bi, r, lane);
  }
  const auto got = co_await warp.read(upper);
  const std::vector<Word> values(got.begin(), got.end());
  const auto swapped = co_await warp.read(lower);
  co_await warp.write(upper, swapped);
  co_await warp.write(lower, values);
}

Task RotatingTranspose::transpose_block(Warp& warp, Address base, std::uint64_t bi,
                                        std::uint64_t bj) const {
  const unsigned w = width_;
  std::vector<Address> addresses(w);
  std::vector<Word> values(w);
  for (unsigned t = 0; t < w; ++t) {
    for (unsigned lane = 0; lane < w; ++lane)
      addresses[lane] = cell(base, bi, bj, t, (t + lane) % w);
    const auto got = co_await warp.read(addresses);
    for (unsigned lane = 0; lane < w; ++lane) warp.local(lane)[t] = got[lane];
  }
  for (unsigned t = 0; t < w; ++t) {
    for (unsigned lane = 0; lane < w; ++lane) {
      const unsigned column = (t + w - lane) % w;
      addresses[lane] = cell(base, bi, bj, t, column);
      values[lane] = warp.local(lane)[column];
    }
    co_await warp.write(addresses, values);
  }
}

}  // namespace mmsim
