// The integer square root, for the programs and planners on sqrt(n) x sqrt(n) matrices.
#pragma once

#include <cstdint>

namespace mmsim {

// floor(sqrt(n)), exact for every 64-bit n (no floating point: a double rounds n >= 2^53).
constexpr std::uint64_t integer_sqrt(std::uint64_t n) {
  std::uint64_t root = 0;
  for (std::uint64_t bit = std::uint64_t{1} << 31; bit != 0; bit >>= 1) {
    const std::uint64_t candidate = root | bit;  // below 2^32: its square fits 64 bits
    if (candidate * candidate <= n) root = candidate;
  }
  return root;
}

}  // namespace mmsim
