#include "sw/gpu_traces/touched_granules.hpp"

#include <algorithm>
#include <bit>
#include <utility>

namespace mmsim {

TouchedGranules::Page& TouchedGranules::missed(std::uint64_t number) {
  Page& p = pages_[number];
  if (pages_.size() > recent_.size() && recent_.size() < kRecent)
    recent_.assign(2 * recent_.size(), Recent{});
  recent_[number & (recent_.size() - 1)] = {number, &p};
  return p;
}

void TouchedGranules::touch(std::uint64_t first_word, std::uint64_t last_word) {
  const std::uint64_t last = last_word / kGranuleWords;
  for (std::uint64_t g = first_word / kGranuleWords; g <= last; ++g) touch_granule(g);
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
