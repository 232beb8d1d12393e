#include "sw/gpu_traces/address_relocation.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace mmsim {

std::uint64_t relocation_unit(std::uint64_t width, std::uint64_t group_width) {
  return std::lcm(std::lcm(TouchedGranules::kGranuleWords, width), group_width);
}

AddressRelocation::AddressRelocation(const TouchedGranules& touched, std::uint64_t unit_words,
                                     std::uint64_t base)
    : base_(base) {
  std::uint64_t next = base;
  for (const auto& [first, end] : touched.runs()) {
    const std::uint64_t from = first * TouchedGranules::kGranuleWords / unit_words * unit_words;
    const std::uint64_t to =
        (end * TouchedGranules::kGranuleWords + unit_words - 1) / unit_words * unit_words;
    if (!ranges_.empty() && ranges_.back().to >= from) {  // the same unit, or the next one
      next += to - std::max(from, ranges_.back().to);
      ranges_.back().to = std::max(to, ranges_.back().to);
      continue;
    }
    ranges_.push_back({from, to, next});
    next += to - from;
  }
  words_ = next - base;
}

const AddressRelocation::Range& AddressRelocation::range_of(std::uint64_t word) const {
  if (last_ < ranges_.size() && ranges_[last_].from <= word && word < ranges_[last_].to)
    return ranges_[last_];
  const auto it = std::upper_bound(ranges_.begin(), ranges_.end(), word,
                                   [](std::uint64_t w, const Range& r) { return w < r.from; });
  if (it == ranges_.begin() || word >= std::prev(it)->to)
    throw std::logic_error("recorded word " + std::to_string(word) +
                           " was not seen while the trace was read");
  last_ = static_cast<std::size_t>(std::prev(it) - ranges_.begin());
  return *std::prev(it);
}

}  // namespace mmsim
