#include "sw/programs/rotating_transpose.hpp"

namespace mmsim {

RotatingTranspose::RotatingTranspose(std::uint64_t side, unsigned width)
    : side_(side), width_(width) {
  const std::uint64_t blocks = side / width;
  for (std::uint64_t i = 0; i < blocks; ++i)
    for (std::uint64_t j = i; j < blocks; ++j) pairs_.emplace_back(i, j);
}

std::uint64_t RotatingTranspose::stages() const {
  const std::uint64_t blocks = side_ / width_;
  return 2 * width_ * blocks * blocks + 4 * width_ * (blocks * (blocks - 1) / 2);
}

Task RotatingTranspose::run(Warp& warp, Address base, std::uint64_t pair) const {
  const auto [i, j] = pairs_[pair];
  co_await transpose_block(warp, base, i, j);
  if (i == j) co_return;
  co_await transpose_block(warp, base, j, i);
  std::vector<Address> upper(width_);
  std::vector<Address> lower(width_);
  std::vector<Word> values(width_);
  for (std::uint64_t r = 0; r < width_; ++r) {
    for (unsigned lane = 0; lane < width_; ++lane) {
      upper[lane] = cell(base, i, j, r, lane);
      lower[lane] = cell(base, j, i, r, lane);
    }
    const auto got = co_await warp.read(upper);
    values.assign(got.begin(), got.end());
    const auto swapped = co_await warp.read(lower);
    co_await warp.write(upper, swapped);
    co_await warp.write(lower, values);
  }
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
