#include "sw/gpu_traces/touched_granules.hpp"

#include <algorithm>
#include <bit>
#include <utility>

namespace mmsim {

TouchedGranules::Page& TouchedGranules::page(std::uint64_t number) {
  if (number != cached_number_) {
    std::swap(cached_number_, other_number_);
    std::swap(cached_, other_);
    if (number != cached_number_) {
      cached_ = &pages_[number];
      cached_number_ = number;
    }
  }
  return *cached_;
}

void TouchedGranules::touch(std::uint64_t first_word, std::uint64_t last_word) {
  const std::uint64_t last = last_word / kGranuleWords;
  for (std::uint64_t g = first_word / kGranuleWords; g <= last; ++g) {
    Page& p = page(g / kPageGranules);
    const unsigned bit = static_cast<unsigned>(g % kPageGranules);
    p.bits[bit / 64] |= std::uint64_t{1} << (bit % 64);
  }
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> TouchedGranules::runs() const {
  std::vector<std::uint64_t> numbers;
  numbers.reserve(pages_.size());
  for (const auto& [number, p] : pages_) numbers.push_back(number);
  std::sort(numbers.begin(), numbers.end());
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
  for (const std::uint64_t number : numbers) {
    const Page& p = pages_.at(number);
    for (unsigned word = 0; word < p.bits.size(); ++word)
      for (std::uint64_t bits = p.bits[word]; bits != 0; bits &= bits - 1) {
        const std::uint64_t g =
            number * kPageGranules + word * 64 + static_cast<unsigned>(std::countr_zero(bits));
        if (!out.empty() && out.back().second == g)
          out.back().second = g + 1;
        else
          out.emplace_back(g, g + 1);
      }
  }
  return out;
}

}  // namespace mmsim
