// The UMM's coalescer against its definition (docs/semantics.md §3): a dispatch occupies one
// stage per distinct address group (row of w consecutive addresses) its active lanes touch, and
// the statistics count, for each group touched, the thread requests it carried.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "hw/mmu/coalescer.hpp"

namespace mmsim::test {
namespace {

struct Expected {
  unsigned stages = 0;
  std::vector<std::uint64_t> groups;  // groups[r]: groups touched by r thread requests
};

Expected by_definition(const std::vector<Address>& cells, unsigned w, std::size_t lanes) {
  std::map<Address, std::uint64_t> requests_per_row;
  for (const Address c : cells)
    if (c != kInactive) ++requests_per_row[c / w];
  Expected e{static_cast<unsigned>(requests_per_row.size()), std::vector<std::uint64_t>(lanes + 1)};
  for (const auto& [row, requests] : requests_per_row) ++e.groups[requests];
  return e;
}

void add(std::vector<std::uint64_t>& to, const std::vector<std::uint64_t>& more) {
  for (std::size_t i = 0; i < to.size(); ++i) to[i] += more[i];
}

TEST(Coalescer, StagesAreTheAddressGroupsTouchedAndEachCountsItsRequests) {
  std::mt19937_64 rng(5);
  for (const unsigned w : {1u, 4u, 8u, 32u, 100u})
    for (const std::size_t lanes : {std::size_t{1}, std::size_t{32}, std::size_t{96}}) {
      Coalescer coalescer(w, lanes);
      std::vector<std::uint64_t> expected(lanes + 1, 0);
      for (int round = 0; round < 60; ++round) {
        std::vector<Address> dispatch(lanes);
        const Address span = round % 3 == 0 ? 2 * w : 64 * w;  // few rows: many shared
        for (Address& c : dispatch) c = rng() % 5 == 0 ? kInactive : rng() % span;
        dispatch[0] = rng() % span;
        unsigned active = 0;
        for (const Address c : dispatch) active += c != kInactive;
        const Expected e = by_definition(dispatch, w, lanes);
        ASSERT_EQ(coalescer.count_stages(dispatch, active), e.stages) << "w " << w;
        add(expected, e.groups);
      }
      EXPECT_EQ(coalescer.spread().groups, expected) << "w " << w << " lanes " << lanes;
    }
}

// The closed form of a coalesced access (lane i at c + i, every lane) counts what any dispatch
// of the same cells counts.
TEST(Coalescer, AConsecutiveRunCountsLikeAnyDispatch) {
  std::mt19937_64 rng(6);
  for (const unsigned w : {1u, 4u, 8u, 32u, 100u})
    for (const std::size_t lanes : {std::size_t{1}, std::size_t{7}, std::size_t{32}}) {
      Coalescer coalescer(w, lanes);
      std::vector<std::uint64_t> expected(lanes + 1, 0);
      for (int round = 0; round < 60; ++round) {
        const Address first = rng() % (16 * w);
        std::vector<Address> run(lanes);
        for (std::size_t i = 0; i < lanes; ++i) run[i] = first + i;
        const Expected e = by_definition(run, w, lanes);
        ASSERT_EQ(
            coalescer.count_consecutive_stages(run.front(), static_cast<unsigned>(run.size())),
            e.stages)
            << "w " << w << " lanes " << lanes << " first " << first;
        add(expected, e.groups);
      }
      EXPECT_EQ(coalescer.spread().groups, expected) << "w " << w << " lanes " << lanes;
    }
  // Global memory 8 words wide (the thesis' machine): a warp's 32 words from m[5] on touch
  // rows 0..4, with 3, 8, 8, 8 and 5 of its requests.
  Coalescer coalescer(8, 32);
  std::vector<Address> run(32);
  for (std::size_t i = 0; i < run.size(); ++i) run[i] = 5 + i;
  EXPECT_EQ(coalescer.count_consecutive_stages(run.front(), static_cast<unsigned>(run.size())), 5u);
  std::vector<std::uint64_t> groups(33, 0);
  groups[3] = groups[5] = 1;
  groups[8] = 3;
  EXPECT_EQ(coalescer.spread().groups, groups);
}

}  // namespace
}  // namespace mmsim::test
