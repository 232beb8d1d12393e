// The profile (hw/observers/profile.hpp) counted by hand on Nakano 2012's Fig. 4: each site gets
// its own instructions, requests, stages and waits, and its barrier waits at its sync.
#include <gtest/gtest.h>

#include "hw/observers/profile.hpp"
#include "support/replay_kernel.hpp"

namespace mmsim::test {
namespace {

// W(0) reads m[0, 1, 5, 10] at site A, W(1) m[8, 9, 14, 15] at site B; both then sync at S.
class SitedFig4 final : public Kernel {
 public:
  Task run(Warp& warp) override {
    if (warp.index() == 0)
      co_await warp.read(first_, Space::global, a_);
    else
      co_await warp.read(second_, Space::global, b_);
    co_await warp.sync(s_);
  }
  const Site a_{"fig4.py", 1, "W0"};
  const Site b_{"fig4.py", 2, "W1"};
  const Site s_{"fig4.py", 3, "sync"};

 private:
  const std::vector<Address> first_{0, 1, 5, 10};
  const std::vector<Address> second_{8, 9, 14, 15};
};

const SiteCounts* find(const ProfileTable& table, std::uint32_t line, MemoryId memory) {
  for (const ProfileRow& row : table.rows)
    if (table.sites[row.site].line == line && row.memory == memory) return &row.counts;
  return nullptr;
}

TEST(Profile, Fig4OnTheDmmCountsEachSiteOnItsOwn) {
  Profile profile;
  SimulationOptions options;
  options.dispatch.recorders.push_back(&profile);
  Simulation simulation(resolve_machine(machine("dmm", 4, 3, 8, 16)), options);
  SitedFig4 kernel;
  const RunResult r = simulation.run(kernel);
  const ProfileTable table = profile.table();
  ASSERT_EQ(table.sites.size(), 3u);
  ASSERT_EQ(table.rows.size(), 3u);
  // W(0): banks 0, 1, 1, 2: k = 2, dispatched at 0, in memory k + l - 1 = 4 time units.
  const SiteCounts* a = find(table, 1, 0);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->instructions, 1u);
  EXPECT_EQ(a->dispatches, 1u);
  EXPECT_EQ(a->requests, 4u);
  EXPECT_EQ(a->stages, 2u);
  EXPECT_EQ(a->max_stages, 2u);
  EXPECT_EQ(a->turn_wait, 0u);
  EXPECT_EQ(a->memory_wait, 4u);
  // W(1): k = 1, waits 2 for W(0)'s stages, in memory 3.
  const SiteCounts* b = find(table, 2, 0);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->stages, 1u);
  EXPECT_EQ(b->turn_wait, 2u);
  EXPECT_EQ(b->memory_wait, 3u);
  // W(0) completes at 3 and arrives at 4, W(1) completes at 4 and arrives at 5: released at 5,
  // W(0) having waited 1.
  const SiteCounts* s = find(table, 3, kNoMemory);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->barriers, 2u);
  EXPECT_EQ(s->barrier_wait, 1u);
  EXPECT_EQ(s->instructions, 0u);
  EXPECT_EQ(r.cycles(), 5u);
  EXPECT_EQ(r.warp_times[0].barrier + r.warp_times[1].barrier, 1u);
}

// A super warp of W(0) at site A and W(1) at site B on the SDMM (w = 4, s = 2): one dispatch of
// 8 lanes, banks 0..3 twice each, k = 2. Each warp counts its instruction, requests and waits;
// the dispatch and its stages count at A, the site of its lowest warp (docs/statistics.md).
class SitedSuperWarp final : public Kernel {
 public:
  Task run(Warp& warp) override {
    if (warp.index() == 0)
      co_await warp.read(first_, Space::global, a_);
    else
      co_await warp.read(second_, Space::global, b_);
  }
  const Site a_{"super.py", 1, "W0"};
  const Site b_{"super.py", 2, "W1"};

 private:
  const std::vector<Address> first_{0, 1, 2, 3};
  const std::vector<Address> second_{4, 5, 6, 7};
};

TEST(Profile, ASuperWarpsDispatchCountsAtItsLowestWarpsSite) {
  Profile profile;
  SimulationOptions options;
  options.dispatch.recorders.push_back(&profile);
  MachineConfig config = machine("sdmm", 4, 3, 8, 16);
  config.super_warp = 2;
  Simulation simulation(resolve_machine(config), options);
  SitedSuperWarp kernel;
  const RunResult r = simulation.run(kernel);
  ASSERT_EQ(r.counters.dispatches, 1u);
  ASSERT_EQ(r.counters.stages, 2u);
  const ProfileTable table = profile.table();
  const SiteCounts* a = find(table, 1, 0);
  const SiteCounts* b = find(table, 2, 0);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(a->instructions, 1u);
  EXPECT_EQ(b->instructions, 1u);
  EXPECT_EQ(a->requests, 4u);
  EXPECT_EQ(b->requests, 4u);
  EXPECT_EQ(a->dispatches, 1u);
  EXPECT_EQ(a->stages, 2u);
  EXPECT_EQ(b->dispatches, 0u);
  EXPECT_EQ(b->stages, 0u);
  EXPECT_EQ(a->memory_wait, 4u);  // k + l - 1 each
  EXPECT_EQ(b->memory_wait, 4u);
  EXPECT_EQ(r.cycles(), 4u);
}

TEST(Profile, ARunWithoutRecordersCountsTheSameFigures) {
  Profile profile;
  SimulationOptions options;
  options.dispatch.recorders.push_back(&profile);
  SitedFig4 kernel;
  SitedFig4 again;
  Simulation profiled(resolve_machine(machine("dmm", 4, 3, 8, 16)), options);
  const RunResult with = profiled.run(kernel);
  Simulation plain(resolve_machine(machine("dmm", 4, 3, 8, 16)));
  const RunResult without = plain.run(again);
  EXPECT_EQ(with.cycles(), without.cycles());
  EXPECT_EQ(with.counters.stages, without.counters.stages);
  EXPECT_EQ(with.counters.turn_wait, without.counters.turn_wait);
  for (std::size_t w = 0; w < 2; ++w) {
    EXPECT_EQ(with.warp_times[w].finish, without.warp_times[w].finish);
    EXPECT_EQ(with.warp_times[w].barrier, without.warp_times[w].barrier);
  }
}

}  // namespace
}  // namespace mmsim::test
