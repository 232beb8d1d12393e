// The touched parts of a recorded address space moved into one compact space of words
// (docs/gpu_traces.md, "Addresses"): the space is cut into units of `unit_words` words (a
// multiple of the 32-word granule, of the machine's banks w and of its address groups w_g), and
// the units holding a touched word are laid one after the other from word `base`, in their
// recorded order. A word keeps its offset in its unit, so its bank (address mod w) and its
// address group (address div w_g, up to renumbering) are the recorded ones: what collapses is
// the untouched space between the data.
#pragma once

#include <cstdint>
#include <vector>

#include "hw/support/types.hpp"
#include "sw/gpu_traces/touched_granules.hpp"

namespace mmsim {

class AddressRelocation {
 public:
  struct Range {
    std::uint64_t from = 0;  // recorded words [from, to)
    std::uint64_t to = 0;
    std::uint64_t target = 0;  // where `from` goes
  };

  AddressRelocation() = default;
  AddressRelocation(const TouchedGranules& touched, std::uint64_t unit_words, std::uint64_t base);

  // Words of the relocated space, from its base.
  std::uint64_t words() const { return words_; }
  std::uint64_t base() const { return base_; }
  const std::vector<Range>& ranges() const { return ranges_; }
  // The range that holds recorded word `word` (which was touched).
  const Range& range_of(std::uint64_t word) const;
  Address map(std::uint64_t word) const {
    const Range& r = range_of(word);
    return r.target + (word - r.from);
  }

 private:
  std::vector<Range> ranges_;
  std::uint64_t base_ = 0;
  std::uint64_t words_ = 0;
  mutable std::size_t last_ = 0;  // the range found last: accesses are local
};

// Least common multiple of the granule, of w and of w_g: the unit of a relocation.
std::uint64_t relocation_unit(std::uint64_t width, std::uint64_t group_width);

}  // namespace mmsim
