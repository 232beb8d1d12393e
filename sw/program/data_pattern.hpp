// Recognisable, address-dependent initial data, so that every value read can be checked.
#pragma once

#include <cstdint>

#include "hw/types.hpp"

namespace mmsim {

// A fixed mixing function of the address (never equal to the address itself for a > 0).
inline Word data_pattern(Address a) {
  std::uint64_t x = a + 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return static_cast<Word>((x ^ (x >> 31)) >> 1);  // non-negative
}

}  // namespace mmsim
