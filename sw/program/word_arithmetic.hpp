// Arithmetic on memory words as the machines' PEs do it: 64-bit two's complement that wraps
// around (computed on unsigned words, where wrapping is defined).
#pragma once

#include <cstdint>

#include "hw/support/types.hpp"

namespace mmsim {

inline Word wrapping_add(Word a, Word b) {
  return static_cast<Word>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

inline Word wrapping_multiply(Word a, Word b) {
  return static_cast<Word>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
}

}  // namespace mmsim
