// A fixed-size set of small integers with fast "next member at or after i" search; the
// dispatcher keeps its sets of units in these.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace mmsim {

class DynamicBitset {
 public:
  static constexpr std::size_t npos = ~std::size_t{0};

  explicit DynamicBitset(std::size_t size = 0) : size_(size), words_((size + 63) / 64, 0) {}

  std::size_t size() const { return size_; }
  bool test(std::size_t i) const { return (words_[i / 64] >> (i % 64)) & 1u; }
  void set(std::size_t i) {
    std::uint64_t& word = words_[i / 64];
    const std::uint64_t bit = std::uint64_t{1} << (i % 64);
    count_ += (word & bit) == 0;
    word |= bit;
  }
  void reset(std::size_t i) {
    std::uint64_t& word = words_[i / 64];
    const std::uint64_t bit = std::uint64_t{1} << (i % 64);
    count_ -= (word & bit) != 0;
    word &= ~bit;
  }
  std::size_t count() const { return count_; }
  bool any() const { return count_ != 0; }

  // Smallest member >= from, or npos.
  std::size_t find_next(std::size_t from) const {
    if (from >= size_) return npos;
    std::size_t index = from / 64;
    std::uint64_t word = words_[index] & (~std::uint64_t{0} << (from % 64));
    while (word == 0) {
      if (++index == words_.size()) return npos;
      word = words_[index];
    }
    return index * 64 + static_cast<std::size_t>(std::countr_zero(word));
  }
  // First member in cyclic order starting at `from`, or npos.
  std::size_t find_cyclic(std::size_t from) const {
    const std::size_t i = find_next(from);
    return i != npos ? i : find_next(0);
  }

 private:
  std::size_t size_;
  std::size_t count_ = 0;
  std::vector<std::uint64_t> words_;
};

}  // namespace mmsim
