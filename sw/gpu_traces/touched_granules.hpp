// The words a trace touches, collected while it is read: which granules of 32 words (a GPU's
// 128-byte line of 4-byte words) hold at least one, in a set of small pages, so that a sparse
// 64-bit address space costs memory for what is touched only (about 100 bytes per 16 Ki words
// touched, at worst 100 bytes per granule).
#pragma once

#include <array>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace mmsim {

class TouchedGranules {
 public:
  static constexpr std::uint64_t kGranuleWords = 32;

  TouchedGranules() = default;
  // Moved, never copied: the cache of recent pages points into the map's elements.
  TouchedGranules(TouchedGranules&&) noexcept = default;
  TouchedGranules& operator=(TouchedGranules&&) noexcept = default;
  TouchedGranules(const TouchedGranules&) = delete;
  TouchedGranules& operator=(const TouchedGranules&) = delete;

  // Words first .. last (inclusive) are touched.
  void touch(std::uint64_t first_word, std::uint64_t last_word);
  // The words of granule `g` (word / 32) are touched.
  void touch_granule(std::uint64_t g) {
    Page& p = page(g / kPageGranules);
    const auto bit = static_cast<unsigned>(g % kPageGranules);
    p.bits[bit / 64] |= std::uint64_t{1} << (bit % 64);
  }
  bool empty() const { return pages_.empty(); }
  // The touched granules (numbers: word / 32) as sorted runs [first, end), neither overlapping
  // nor adjacent.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> runs() const;
  // Host memory it holds, about.
  std::uint64_t bytes() const {
    return pages_.size() * (sizeof(Page) + 32) + recent_.size() * sizeof(Recent);
  }

 private:
  static constexpr unsigned kPageGranules = 512;
  struct Page {
    std::array<std::uint64_t, kPageGranules / 64> bits{};
  };
  Page& page(std::uint64_t number) {
    Recent& r = recent_[number & (recent_.size() - 1)];
    return r.number == number ? *r.page : missed(number);
  }
  Page& missed(std::uint64_t number);

  std::unordered_map<std::uint64_t, Page> pages_;
  // The pages touched last, direct-mapped by number: as many slots as pages up to kRecent (a
  // column of a matrix touches one page per row), so that a page is rarely looked up in the
  // map. The map's elements stay where they are while it grows.
  static constexpr std::size_t kRecent = 1024;
  struct Recent {
    std::uint64_t number = ~std::uint64_t{0};
    Page* page = nullptr;
  };
  std::vector<Recent> recent_ = std::vector<Recent>(4);
};

}  // namespace mmsim
