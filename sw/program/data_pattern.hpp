// Recognisable, address-dependent initial data, so that every value read can be checked.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "hw/support/types.hpp"
#include "hw/support/vector_isa.hpp"
#include "sw/program/verification.hpp"

namespace mmsim {

// A fixed bijection of the address that never equals it (distinct cells hold distinct values,
// and a cell read in place of another shows), cheap enough to check every value read.
inline Word data_pattern(Address a) { return static_cast<Word>(a ^ 0x2545F4914F6CDD1Dull); }

// Whether every value read is the pattern of its address (one vectorisable pass). `addresses`:
// a span of addresses, or a LaneRun.
template <class Addresses>
bool all_match_pattern(std::span<const Word> got, const Addresses& addresses) {
  return with_vector_isa([&] {
    Word differences = 0;
    for (std::size_t lane = 0; lane < got.size(); ++lane)
      differences |= got[lane] ^ data_pattern(addresses[lane]);
    return differences == 0;
  });
}

// Checks what a warp read against the pattern of the addresses it read (every lane active):
// one pass when all match, else lane by lane, `what(lane)` naming a lane's read for the first
// mismatch.
template <class Addresses, class What>
void expect_pattern(Verification& verification, std::span<const Word> got,
                    const Addresses& addresses, What&& what) {
  if (all_match_pattern(got, addresses)) {
    verification.passed(got.size());
    return;
  }
  for (std::size_t lane = 0; lane < got.size(); ++lane)
    verification.expect_equal(got[lane], data_pattern(addresses[lane]), [&] { return what(lane); });
}

}  // namespace mmsim
