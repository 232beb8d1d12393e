// Seeded randomness with the same results on every platform (the standard distributions are
// not portable across library implementations).
#pragma once

#include <cstdint>
#include <random>

namespace mmsim {

using Random = std::mt19937_64;

// Uniform integer in [0, n), n >= 1, unbiased (Lemire's multiply-and-reject).
inline std::uint64_t uniform_below(Random& random, std::uint64_t n) {
  __uint128_t product = static_cast<__uint128_t>(random()) * n;
  auto low = static_cast<std::uint64_t>(product);
  if (low < n) {
    const std::uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      product = static_cast<__uint128_t>(random()) * n;
      low = static_cast<std::uint64_t>(product);
    }
  }
  return static_cast<std::uint64_t>(product >> 64);
}

}  // namespace mmsim
