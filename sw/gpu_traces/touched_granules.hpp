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

  // Words first .. last (inclusive) are touched.
  void touch(std::uint64_t first_word, std::uint64_t last_word);
  bool empty() const { return pages_.empty(); }
  // The touched granules (numbers: word / 32) as sorted runs [first, end), neither overlapping
  // nor adjacent.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> runs() const;
  // Host memory it holds, about.
  std::uint64_t bytes() const { return pages_.size() * (sizeof(Page) + 32); }

 private:
  static constexpr unsigned kPageGranules = 512;
  struct Page {
    std::array<std::uint64_t, kPageGranules / 64> bits{};
  };
  Page& page(std::uint64_t number);

  std::unordered_map<std::uint64_t, Page> pages_;
  // The two pages touched last (a kernel's loads and stores usually touch two arrays).
  std::uint64_t cached_number_ = ~std::uint64_t{0};
  Page* cached_ = nullptr;
  std::uint64_t other_number_ = ~std::uint64_t{0};
  Page* other_ = nullptr;
};

}  // namespace mmsim
