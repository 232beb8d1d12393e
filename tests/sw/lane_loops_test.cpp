// The helpers of the warp programs' per-lane loops (sw/programs/lane_loops.hpp): every lane
// visited once at the usual warp width and at others, counts compared as numbers, the largest
// count of any number of lanes, the lane arrays on cache lines of their own, named by an
// enumeration, and the loops that take their pointers.
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

enum class TestLane : std::size_t { first, second, third, fourth, fifth, count };

TEST(LaneLoops, LaneTableArraysStartOnCacheLinesZeroAndApart) {
  constexpr TestLane kNames[] = {TestLane::first, TestLane::second, TestLane::third,
                                 TestLane::fourth, TestLane::fifth};
  for (const std::size_t lanes : {std::size_t{3}, std::size_t{8}, kUsualWidth, std::size_t{33}}) {
    const LaneTable<TestLane> table(lanes);
    EXPECT_EQ(table.lanes(), lanes);
    EXPECT_EQ(table.pointers().n, lanes);
    for (const TestLane name : kNames) {
      const std::span<std::uint64_t> a = table[name];
      EXPECT_EQ(a.size(), lanes);
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.data()) % 64, 0u) << lanes;
      // The span, its words and the pointer view name the same storage.
      EXPECT_EQ(a.data(), table.pointers()[name]);
      EXPECT_EQ(reinterpret_cast<std::uint64_t*>(table.words(name).data()), a.data());
      EXPECT_EQ(table.words(name).size(), lanes);
      for (const std::uint64_t word : a) EXPECT_EQ(word, 0u);
    }
    // In the enumeration's order, each array its own: filling one leaves the others as they were.
    for (std::size_t i = 1; i < 5; ++i)
      EXPECT_LT(table[kNames[i - 1]].data() + lanes - 1, table[kNames[i]].data()) << lanes;
    const std::span<Word> signed_words = table.words(TestLane::third);
    std::fill(signed_words.begin(), signed_words.end(), Word{-1});
    for (const TestLane name : kNames)
      for (const std::uint64_t word : table[name])
        EXPECT_EQ(word, name == TestLane::third ? ~std::uint64_t{0} : 0u) << lanes;
  }
}

TEST(LaneLoops, WithLanesHandsTheLoopTheTablesArrays) {
  for (const std::size_t lanes : {std::size_t{5}, kUsualWidth}) {
    const LaneTable<TestLane> table(lanes);
    for (std::size_t lane = 0; lane < lanes; ++lane) table[TestLane::first][lane] = 10 * lane;
    // second = first + 1 in every lane; the loop returns their sum.
    const std::uint64_t sum = with_lanes(table, [](const LanePointers<TestLane>& a) {
      std::uint64_t total = 0;
      for_lanes(a.n, [&](std::size_t lane) {
        a[TestLane::second][lane] = a[TestLane::first][lane] + 1;
        total += a[TestLane::second][lane];
      });
      return total;
    });
    std::uint64_t expected = 0;
    for (std::size_t lane = 0; lane < lanes; ++lane) {
      EXPECT_EQ(table[TestLane::second][lane], 10 * lane + 1) << lanes << " " << lane;
      expected += 10 * lane + 1;
    }
    EXPECT_EQ(sum, expected);
  }
}

}  // namespace
}  // namespace mmsim::test
