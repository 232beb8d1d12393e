// Recognisable, address-dependent initial data, so that every value read can be checked.
#pragma once

#include <cstdint>

#include "hw/support/types.hpp"

namespace mmsim {

// A fixed bijection of the address that never equals it (distinct cells hold distinct values,
// and a cell read in place of another shows), cheap enough to check every value read.
inline Word data_pattern(Address a) { return static_cast<Word>(a ^ 0x2545F4914F6CDD1Dull); }

}  // namespace mmsim
