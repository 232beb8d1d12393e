// Arithmetic on memory words, as the programs' lanes compute it: two's complement modulo 2^64,
// the way a GPU's 64-bit integer addition wraps. Computed through unsigned integers, where
// wrapping is defined (signed overflow is undefined behaviour in C++); the conversion back is
// modular since C++20.
#pragma once

#include <cstdint>

#include "hw/support/types.hpp"

namespace mmsim {

constexpr Word wrapping_add(Word a, Word b) {
  return static_cast<Word>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

constexpr Word wrapping_multiply(Word a, Word b) {
  return static_cast<Word>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
}

}  // namespace mmsim
