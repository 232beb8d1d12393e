#include "sw/gpu_traces/lane_words.hpp"

#include <algorithm>
#include <bit>

namespace mmsim {

LaneWords::LaneWords(unsigned word_shift, unsigned width) : shift_(word_shift), width_(width) {}

unsigned LaneWords::layout(const RecordedInstruction& in, unsigned bytes,
                           const AddressRelocation& relocation, std::uint64_t offset) {
  const std::uint32_t mask = in.mask;
  const std::array<std::uint64_t, kTraceLanes>& address = in.address;
  run_ = kInactive;
  if (mask == 0xffffffffu && width_ == kTraceLanes && bytes <= (1u << shift_) &&
      ((in.strided && layout_strided(in, bytes, relocation, offset)) ||
       layout_words(address, bytes, relocation, offset)))
    return 1;
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
  slots_.resize(std::size_t{instructions} * width_);
  std::fill(slots_.begin(), slots_.end(), kInactive);
  active_.resize(instructions);
  std::fill(active_.begin(), active_.end(), 0);
  if (mask == 0) return instructions;
  // Relocation: one shift for all when the words lie in one range (the usual case).
  const AddressRelocation::Range& range = relocation.range_of(low);
  const bool one_range = high < range.to;
  const std::uint64_t shift = range.target - range.from + offset;
  if (k == 1 && one_range) {  // a word per lane
    for (std::uint32_t m = mask; m != 0; m &= m - 1) {
      const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
      slots_[lane] = first_word(address[lane]) + shift;
      active_[lane / width_] = 1;
    }
    return instructions;
  }
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

bool LaneWords::layout_strided(const RecordedInstruction& in, unsigned bytes,
                               const AddressRelocation& relocation, std::uint64_t offset) {
  const auto word_bytes = static_cast<std::int64_t>(std::uint64_t{1} << shift_);
  const auto stride = static_cast<std::int64_t>(in.stride);
  const std::uint64_t a = in.address[0];
  if (stride % word_bytes != 0 || (a & (word_bytes - 1)) + bytes > std::uint64_t(word_bytes))
    return false;
  const std::int64_t step = stride / word_bytes;  // words from lane to lane
  const std::uint64_t first = a >> shift_;
  const std::uint64_t last = first + static_cast<std::uint64_t>(step * (kTraceLanes - 1));
  const AddressRelocation::Range& range = relocation.range_of(std::min(first, last));
  if (std::max(first, last) >= range.to) return false;
  std::uint64_t word = first + range.target - range.from + offset;
  if (step == 1) run_ = word;
  slots_.resize(kTraceLanes);
  Address* slot = slots_.data();
  for (unsigned lane = 0; lane < kTraceLanes; ++lane) {  // one addition a lane: vectorised
    slot[lane] = word;
    word += static_cast<std::uint64_t>(step);
  }
  words_per_lane_ = 1;
  active_.assign(1, 1);
  return true;
}

bool LaneWords::layout_words(const std::array<std::uint64_t, kTraceLanes>& address, unsigned bytes,
                             const AddressRelocation& relocation, std::uint64_t offset) {
  // Every lane's word in the range of lane 0's, moved by one shift.
  const unsigned s = shift_;
  const AddressRelocation::Range& range = relocation.range_of(address[0] >> s);
  const std::uint64_t from = range.from;
  const std::uint64_t length = range.to - range.from;
  const std::uint64_t shift = range.target - range.from + offset;
  const std::uint64_t span = bytes - 1;
  std::array<Address, kTraceLanes> slots;
  bool fits = true;
  for (unsigned lane = 0; lane < kTraceLanes; ++lane) {
    const std::uint64_t word = address[lane] >> s;
    fits &= ((address[lane] + span) >> s) == word && word - from < length;
    slots[lane] = word + shift;
  }
  if (!fits) return false;
  slots_.assign(slots.begin(), slots.end());
  words_per_lane_ = 1;
  active_.assign(1, 1);
  return true;
}

}  // namespace mmsim
