#include "sw/gpu_traces/lane_words.hpp"

#include <algorithm>
#include <bit>

namespace mmsim {

LaneWords::LaneWords(unsigned word_shift, unsigned width) : shift_(word_shift), width_(width) {}

unsigned LaneWords::layout(std::uint32_t mask,
                           const std::array<std::uint64_t, kTraceLanes>& address, unsigned bytes,
                           const AddressRelocation& relocation, std::uint64_t offset) {
  unsigned k = 1;
  std::uint64_t low = ~std::uint64_t{0};
  std::uint64_t high = 0;
  for (std::uint32_t m = mask; m != 0; m &= m - 1) {
    const std::uint64_t a = address[static_cast<unsigned>(std::countr_zero(m))];
    const std::uint64_t first = first_word(a);
    const std::uint64_t last = last_word(a, bytes);
    k = std::max(k, static_cast<unsigned>(last - first + 1));
    low = std::min(low, first);
    high = std::max(high, last);
  }
  words_per_lane_ = k;
  const std::size_t slots = std::size_t{kTraceLanes} * k;
  const unsigned instructions = static_cast<unsigned>((slots + width_ - 1) / width_);
  slots_.assign(std::size_t{instructions} * width_, kInactive);
  active_.assign(instructions, 0);
  if (mask == 0) return instructions;
  // Relocation: one shift for all when the words lie in one range (the usual case).
  const AddressRelocation::Range& range = relocation.range_of(low);
  const bool one_range = high < range.to;
  const std::uint64_t shift = range.target - range.from + offset;
  for (std::uint32_t m = mask; m != 0; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
    const std::uint64_t first = first_word(address[lane]);
    const std::uint64_t last = last_word(address[lane], bytes);
    for (std::uint64_t word = first; word <= last; ++word) {
      const std::size_t slot = std::size_t{lane} * k + (word - first);
      slots_[slot] = one_range ? word + shift : relocation.map(word) + offset;
      active_[slot / width_] = 1;
    }
  }
  return instructions;
}

}  // namespace mmsim
