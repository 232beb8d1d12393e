// The request packing unit against the definition (Nakano and Matsumae 2013): a dispatch occupies
// as many stages as the largest number of distinct addresses sent to one bank. Its fast paths
// (small memories, busiest banks, conflict-free warps) must give exactly that.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "hw/mmu/request_packing_unit.hpp"

namespace mmsim::test {
namespace {

unsigned congestion(const std::vector<Address>& cells, unsigned w) {
  std::set<Address> distinct;
  for (const Address c : cells)
    if (c != kInactive) distinct.insert(c);
  std::map<Address, unsigned> per_bank;
  unsigned k = 0;
  for (const Address c : distinct) k = std::max(k, ++per_bank[c % w]);
  return k;
}

TEST(RequestPackingUnit, StagesAreTheLargestNumberOfDistinctAddressesInOneBank) {
  std::mt19937_64 rng(2024);
  std::uniform_real_distribution<double> coin(0, 1);
  for (const unsigned w : {1u, 3u, 4u, 16u, 64u, 100u, 256u})
    for (const unsigned warps : {1u, 3u, 10u})
      for (const std::uint64_t rows :
           {std::uint64_t{1}, std::uint64_t{4}, std::uint64_t{64}, std::uint64_t{1} << 14}) {
        const std::size_t lanes = std::size_t{w} * warps;
        const std::uint64_t cells = rows * w;
        // The memory size chooses the unit's method: both, and "unknown".
        RequestPackingUnit sized(w, lanes, cells);
        RequestPackingUnit unsized(w, lanes);
        std::uniform_int_distribution<Address> cell(0, cells - 1);
        for (int round = 0; round < 60; ++round) {
          const double inactive = round % 3 == 0 ? 0.0 : 0.3;
          // Some rounds draw from a few cells only: many merged requests.
          const Address range = round % 4 == 1 ? std::min<Address>(cells, 3) : cells;
          std::vector<Address> dispatch(lanes);
          for (Address& c : dispatch) c = coin(rng) < inactive ? kInactive : cell(rng) % range;
          if (std::all_of(dispatch.begin(), dispatch.end(),
                          [](Address c) { return c == kInactive; }))
            dispatch[0] = 0;
          const unsigned expected = congestion(dispatch, w);
          const std::string where = "w=" + std::to_string(w) + " lanes=" + std::to_string(lanes) +
                                    " rows=" + std::to_string(rows) +
                                    " round=" + std::to_string(round);
          ASSERT_EQ(sized.stages(dispatch), expected) << where;
          ASSERT_EQ(unsized.stages(dispatch), expected) << where;
          std::vector<std::uint32_t> groups(lanes);
          ASSERT_EQ(sized.assign_groups(dispatch, groups), expected) << where;
        }
      }
}

TEST(RequestPackingUnit, GroupsHoldTheIthRequestOfEveryBankAndMergedLanesShareOne) {
  const unsigned w = 4;
  RequestPackingUnit rpu(w, 12, 24);
  // Nakano and Matsumae 2013, Fig. 6: bank 3 gets m[7], m[11], m[3], m[15], m[19], m[23]
  // in lane order.
  const std::vector<Address> cells = {4, 16, 7, 11, 3, 15, 19, 1, 23, 2, 6, 9};
  std::vector<std::uint32_t> groups(cells.size());
  EXPECT_EQ(rpu.assign_groups(cells, groups), 6u);
  EXPECT_EQ(groups, (std::vector<std::uint32_t>{0, 1, 0, 1, 2, 3, 4, 0, 5, 0, 1, 1}));
  const std::vector<Address> merged = {5, 5, kInactive, 9, 5};
  std::vector<std::uint32_t> merged_groups(merged.size());
  EXPECT_EQ(rpu.assign_groups(merged, merged_groups), 2u);
  EXPECT_EQ(merged_groups[0], 0u);
  EXPECT_EQ(merged_groups[1], 0u);
  EXPECT_EQ(merged_groups[3], 1u);
  EXPECT_EQ(merged_groups[4], 0u);
}

// The statistics' count: every active lane is a thread request to its bank, merged or not,
// whichever way the unit counts the stages (memory sizes for each).
TEST(RequestPackingUnit, CountStagesCountsEveryActiveLaneInItsBank) {
  std::mt19937_64 rng(7);
  for (const unsigned w : {8u, 32u, 48u})
    for (const std::uint64_t rows :
         {std::uint64_t{4}, std::uint64_t{512}, std::uint64_t{1} << 15}) {
      const std::size_t lanes = 2 * w;
      const std::uint64_t cells = rows * w;
      RequestPackingUnit rpu(w, lanes, cells);
      std::vector<std::uint64_t> expected(w, 0);
      for (int round = 0; round < 50; ++round) {
        std::vector<Address> dispatch(lanes);
        for (Address& c : dispatch)
          c = rng() % 4 == 0 ? kInactive : (round % 2 ? rng() % 5 : rng() % cells);
        dispatch[0] = 1;
        unsigned active = 0;
        for (const Address c : dispatch)
          if (c != kInactive) ++expected[c % w], ++active;
        ASSERT_EQ(rpu.count_stages(dispatch, active), congestion(dispatch, w));
      }
      EXPECT_EQ(rpu.spread().banks, expected) << "w " << w << " rows " << rows;
    }
}

// A memory's thread requests per bank are exact over runs longer than any counter the unit keeps
// on the way: here more than 2^16 requests go to one bank, with dispatches of distinct addresses
// there, duplicates and inactive lanes (memories of 1024 and 1000 rows, as large as the shared
// memories of the thesis' machine, at a warp width of 32 and one beyond 32).
TEST(RequestPackingUnit, RequestsPerBankStayExactOverLongRuns) {
  for (const unsigned w : {32u, 100u}) {
    const std::uint64_t rows = w == 32 ? 1024 : 1000;
    RequestPackingUnit rpu(w, w, rows * w);
    std::vector<std::uint64_t> expected(w, 0);
    for (std::uint64_t round = 0; round < 3000; ++round) {
      std::vector<Address> dispatch(w);
      unsigned active = 0;
      for (std::size_t i = 0; i < w; ++i) {
        // Rows apart in bank 0 on most rounds, a few addresses of bank 3 on every fifth, and
        // every seventh lane inactive on every third.
        const Address row = round % 5 == 4 ? i % 3 : (round + i) % rows;
        dispatch[i] = round % 3 == 2 && i % 7 == 0 ? kInactive : row * w + (round % 5 == 4 ? 3 : 0);
        if (dispatch[i] != kInactive) ++expected[dispatch[i] % w], ++active;
      }
      ASSERT_EQ(rpu.count_stages(dispatch, active), congestion(dispatch, w))
          << "w " << w << " round " << round;
    }
    EXPECT_GT(expected[0], std::uint64_t{1} << 16);
    EXPECT_EQ(rpu.spread().banks, expected) << "w " << w;
  }
}

// A coalesced access (lane i at c + i, every lane) has its closed form in the MMU's hot path:
// it must count what any dispatch of the same cells counts, stages and requests per bank.
TEST(RequestPackingUnit, AConsecutiveRunCountsLikeAnyDispatch) {
  std::mt19937_64 rng(11);
  for (const unsigned w : {1u, 3u, 8u, 32u, 48u, 64u, 100u})
    for (const std::size_t lanes : {std::size_t{1}, std::size_t{w}, std::size_t{2} * w + 1}) {
      const std::uint64_t cells = std::uint64_t{w} * 4096;
      RequestPackingUnit rpu(w, lanes, cells);
      std::vector<std::uint64_t> expected(w, 0);
      for (int round = 0; round < 40; ++round) {
        // Runs that start in every bank, some ending at the memory's last cell.
        const Address first = round % 5 == 0 ? cells - lanes : rng() % (cells - lanes + 1);
        std::vector<Address> run(lanes);
        for (std::size_t i = 0; i < lanes; ++i) run[i] = first + i, ++expected[(first + i) % w];
        ASSERT_EQ(rpu.count_consecutive_stages(run.front(), static_cast<unsigned>(run.size())),
                  congestion(run, w))
            << "w " << w << " lanes " << lanes << " first " << first;
      }
      EXPECT_EQ(rpu.spread().banks, expected) << "w " << w << " lanes " << lanes;
    }
  // w = 32: a warp's 32 consecutive words from m[37] on take banks 5..31 and 0..4 once each.
  RequestPackingUnit rpu(32, 32, 32 * 64);
  std::vector<Address> run(32);
  for (std::size_t i = 0; i < run.size(); ++i) run[i] = 37 + i;
  EXPECT_EQ(rpu.count_consecutive_stages(run.front(), static_cast<unsigned>(run.size())), 1u);
  EXPECT_EQ(rpu.spread().banks, std::vector<std::uint64_t>(32, 1));
}

// A broadcast (every lane, one address) is one request: one stage, and its lanes' requests all
// counted in that address's bank.
TEST(RequestPackingUnit, ABroadcastCountsEveryLaneInItsBank) {
  for (const std::uint64_t cells :
       {std::uint64_t{256}, std::uint64_t{32} * 1024, std::uint64_t{1} << 22}) {
    RequestPackingUnit rpu(32, 64, cells);
    EXPECT_EQ(rpu.count_stages(std::vector<Address>(64, 77), 64), 1u);
    EXPECT_EQ(rpu.count_stages(std::vector<Address>(32, 40), 32), 1u);
    std::vector<std::uint64_t> expected(32, 0);
    expected[77 % 32] = 64;
    expected[40 % 32] = 32;
    EXPECT_EQ(rpu.spread().banks, expected) << cells << " cells";
    // One lane apart from the rest: two requests in bank 13, two stages.
    std::vector<Address> almost(32, 77);
    almost[5] = 45;
    EXPECT_EQ(rpu.count_stages(almost, 32), 2u);
  }
}

TEST(RequestPackingUnit, OneAddressForAllLanesIsOneStage) {
  for (const std::uint64_t cells : {std::uint64_t{0}, std::uint64_t{64}, std::uint64_t{1} << 30}) {
    RequestPackingUnit rpu(32, 2560, cells);
    EXPECT_EQ(rpu.stages(std::vector<Address>(2560, 33)), 1u);
    std::vector<Address> two(2560, 1);
    for (std::size_t i = 0; i < two.size(); i += 2) two[i] = 33;
    EXPECT_EQ(rpu.stages(two), 2u);
  }
}

}  // namespace
}  // namespace mmsim::test
