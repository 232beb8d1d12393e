// The helpers of the warp programs' per-lane loops (sw/programs/lane_loops.hpp): every lane
// visited once at the usual warp width and at others, counts compared as numbers, the largest
// count of any number of lanes, the lane arrays on cache lines of their own.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "hw/support/types.hpp"
#include "sw/programs/lane_loops.hpp"

namespace mmsim::test {
namespace {

TEST(LaneLoops, ForLanesVisitsEveryLaneOnceAtEveryWidth) {
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{7}, kUsualWidth,
                              std::size_t{33}, std::size_t{64}}) {
    std::vector<std::uint64_t> visits(n, 0);
    std::uint64_t* const v = visits.data();
    for_lanes(n, [&](std::size_t lane) { v[lane] += lane + 1; });
    for (std::size_t lane = 0; lane < n; ++lane) EXPECT_EQ(visits[lane], lane + 1) << n;
  }
}

TEST(LaneLoops, LessCountOrdersCountsAsNumbers) {
  EXPECT_TRUE(less_count(0, 1));
  EXPECT_FALSE(less_count(1, 1));
  EXPECT_FALSE(less_count(5, 4));
  EXPECT_TRUE(less_count(4095, std::uint64_t{1} << 40));
  EXPECT_FALSE(less_count(std::uint64_t{1} << 62, 3));
}

TEST(LaneLoops, LargestCountOfAnyNumberOfLanes) {
  // 0 for no lane; the largest wherever it lies: in the groups of four, in the rest, or first.
  EXPECT_EQ(largest_count(nullptr, 0), 0u);
  const std::vector<std::uint64_t> counts = {3, 9, 0, 4, 12, 1, 7, 7, 2, 40, 5};
  for (std::size_t n = 1; n <= counts.size(); ++n)
    EXPECT_EQ(largest_count(counts.data(), n),
              *std::max_element(counts.begin(), counts.begin() + n))
        << n;
  std::vector<std::uint64_t> lanes(kUsualWidth, 6);
  for (std::size_t at : {std::size_t{0}, std::size_t{13}, kUsualWidth - 1}) {
    lanes[at] = 100 + at;
    EXPECT_EQ(largest_count(lanes.data(), lanes.size()), 100 + at);
    lanes[at] = 6;
  }
  EXPECT_EQ(largest_count(lanes.data(), lanes.size()), 6u);
}

TEST(LaneLoops, LaneArraysStartOnCacheLinesZeroAndApart) {
  for (const std::size_t lanes : {std::size_t{3}, std::size_t{8}, kUsualWidth, std::size_t{33}}) {
    const LaneArrays arrays(5, lanes);
    for (std::size_t i = 0; i < 5; ++i) {
      const std::span<std::uint64_t> a = arrays.array(i);
      EXPECT_EQ(a.size(), lanes);
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.data()) % 64, 0u) << lanes << " " << i;
      for (const std::uint64_t word : a) EXPECT_EQ(word, 0u);
    }
    // Each array its own: filling one leaves the others as they were.
    const std::span<Word> signed_words = arrays.array<Word>(2);
    std::fill(signed_words.begin(), signed_words.end(), Word{-1});
    for (std::size_t i = 0; i < 5; ++i)
      for (const std::uint64_t word : arrays.array(i))
        EXPECT_EQ(word, i == 2 ? ~std::uint64_t{0} : 0u) << lanes << " " << i;
  }
}

}  // namespace
}  // namespace mmsim::test
