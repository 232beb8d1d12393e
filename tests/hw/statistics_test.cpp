// The statistics of a run, checked by hand on small traces: the stage histogram, where the
// requests went (per bank, per address group touched), where each warp's time went, and the
// counters over time.
#include <gtest/gtest.h>

#include <numeric>

#include "support/replay_kernel.hpp"

namespace mmsim::test {
namespace {

RefInstruction read(std::vector<Address> a, Space space = Space::global) {
  RefInstruction in{RefInstruction::read, std::move(a), {}};
  in.space = space;
  return in;
}
RefInstruction sync() { return {RefInstruction::sync, {}, {}}; }

using Counts = std::vector<std::uint64_t>;

std::uint64_t sum(const Counts& counts) {
  return std::accumulate(counts.begin(), counts.end(), std::uint64_t{0});
}
// Sum over j of j * counts[j].
std::uint64_t weighted(const Counts& counts) {
  std::uint64_t total = 0;
  for (std::size_t j = 0; j < counts.size(); ++j) total += j * counts[j];
  return total;
}

// Every time unit of a warp is accounted for.
void expect_time_accounted(const RunResult& r, Cycle compute_latency) {
  for (std::size_t w = 0; w < r.warp_times.size(); ++w) {
    const WarpTime& t = r.warp_times[w];
    EXPECT_EQ(t.finish, t.turn + t.memory + t.barrier + t.dispatches * compute_latency)
        << "warp " << w;
  }
}

const RefProgram fig4{{{read({0, 1, 5, 10})}, {read({8, 9, 14, 15})}}};

// Nakano 2012, Fig. 4 on the DMM: W(0) sends banks 0, 1, 1, 2 (k = 2), W(1) banks 0, 1, 2, 3
// (k = 1); W(1) waits for W(0)'s two stages.
TEST(Statistics, Fig4OnTheDmmCountsStagesBanksAndWaits) {
  // 16 words take the small-memory count, 2^14 the busiest-bank count: the same figures.
  for (const std::uint64_t words : {std::uint64_t{16}, std::uint64_t{1} << 14}) {
    const auto run = replay(machine("dmm", 4, 3, 8, words), fig4);
    const RunResult& r = run.result;
    EXPECT_EQ(r.counters.stage_histogram, (Counts{0, 1, 1}));
    EXPECT_EQ(r.memories[0].spread.banks, (Counts{2, 3, 2, 1}));  // m[0, 8], m[1, 5, 9], ...
    EXPECT_TRUE(r.memories[0].spread.groups.empty());
    EXPECT_EQ(sum(r.spread.banks), r.counters.requests);
    ASSERT_EQ(r.warp_times.size(), 2u);
    // W(0): dispatched at 0, completes at 0 + k + l - 2 = 3, ends at 4.
    EXPECT_EQ(r.warp_times[0].turn, 0u);
    EXPECT_EQ(r.warp_times[0].memory, 4u);
    EXPECT_EQ(r.warp_times[0].finish, 4u);
    // W(1): ready at 0, dispatched at 2, completes at 4, ends at 5 = the running time.
    EXPECT_EQ(r.warp_times[1].turn, 2u);
    EXPECT_EQ(r.warp_times[1].memory, 3u);
    EXPECT_EQ(r.warp_times[1].finish, 5u);
    EXPECT_EQ(r.counters.turn_wait, 2u);
    EXPECT_EQ(r.counters.memory_wait, 7u);
    expect_time_accounted(r, 0);
  }
}

// Lanes count before requests merge: four lanes to one address are one request of bank 3 and
// one stage, four thread requests.
TEST(Statistics, BankRequestsCountThreadRequests) {
  const RefProgram program{{{read({3, 3, 3, 3})}, {read({3, 3, 6, 9})}}};
  const auto run = replay(machine("dmm", 4, 2, 8, 16), program);
  EXPECT_EQ(run.result.memories[0].spread.banks, (Counts{0, 1, 1, 6}));
  EXPECT_EQ(run.result.counters.stage_histogram, (Counts{0, 2}));
}

// Conflict-free warps are counted as runs of equal bank sets: the counts stay exact when the
// set changes (an inactive lane) and back.
TEST(Statistics, ConflictFreeRunsOfBanksAddUp) {
  const Address none = kInactive;
  RefProgram program{{{}}};
  for (int i = 0; i < 5; ++i) program.warps[0].push_back(read({4, 1, 2, 3}));
  program.warps[0].push_back(read({none, 5, 6, 7}));
  for (int i = 0; i < 3; ++i) program.warps[0].push_back(read({8, 9, 10, 11}));
  const auto run = replay(machine("dmm", 4, 1, 4, 1 << 14), program);
  EXPECT_EQ(run.result.memories[0].spread.banks, (Counts{8, 9, 9, 9}));
  EXPECT_EQ(run.result.counters.stage_histogram, (Counts{0, 9}));
}

// Super warps (s*w lanes, more than the banks) count every lane of every warp.
TEST(Statistics, SuperWarpsCountEveryWarpsLanes) {
  auto c = machine("sdmm", 4, 2, 8, 1 << 14);
  c.super_warp = 2;
  const RefProgram program{{{read({0, 1, 2, 3})}, {read({4, 8, 12, 1})}}};
  const auto run = replay(c, program);
  EXPECT_EQ(run.result.memories[0].spread.banks, (Counts{4, 2, 1, 1}));
  EXPECT_EQ(run.result.counters.stage_histogram, (Counts{0, 0, 0, 0, 1}));  // bank 0: 4
  // One dispatch of both warps: each waited 0 for its turn and k + l - 1 = 5 for memory.
  EXPECT_EQ(run.result.counters.memory_wait, 10u);
  expect_time_accounted(run.result, 0);
}

// The UMM counts each address group a dispatch touches with the thread requests it carries:
// W(0) touches rows 0 (m[0], m[1]), 1 and 2; W(1) rows 2 and 3 (two each).
TEST(Statistics, Fig4OnTheUmmCountsRequestsPerAddressGroupTouched) {
  const auto run = replay(machine("umm", 4, 3, 8, 16), fig4);
  const RunResult& r = run.result;
  EXPECT_EQ(r.memories[0].spread.groups, (Counts{0, 2, 3, 0, 0}));
  EXPECT_TRUE(r.memories[0].spread.banks.empty());
  EXPECT_EQ(sum(r.spread.groups), r.counters.stages);
  EXPECT_EQ(weighted(r.spread.groups), r.counters.requests);
  EXPECT_EQ(r.counters.stage_histogram, (Counts{0, 0, 1, 1}));  // k = 3 and 2
  // A coalesced warp touches one group with all its lanes; a strided one w groups with one.
  const RefProgram access{{{read({4, 5, 6, 7}), read({0, 4, 8, 12}), read({1, 1, 5, kInactive})}}};
  const auto other = replay(machine("umm", 4, 3, 4, 16), access);
  EXPECT_EQ(other.result.memories[0].spread.groups, (Counts{0, 5, 1, 0, 1}));
}

// W(0) reads once and waits at the barrier from 2 until W(1), after three reads, arrives at 7.
TEST(Statistics, BarrierWaitIsFromArrivalToRelease) {
  const std::vector<Address> a = {0, 1, 2, 3};
  const std::vector<Address> b = {4, 5, 6, 7};
  const RefProgram program{
      {{read(a), sync(), read(a)}, {read(b), read(b), read(b), sync(), read(b)}}};
  const auto run = replay(machine("dmm", 4, 2, 8, 16), program);
  const RunResult& r = run.result;
  EXPECT_EQ(r.warp_times[0].barrier, 5u);
  EXPECT_EQ(r.warp_times[1].barrier, 0u);
  EXPECT_EQ(r.warp_times[0].memory + r.warp_times[1].memory, 6u * 2u);  // k + l - 1 = 2 each
  // After the release both are ready at 7: one goes at 7, the other at 8.
  EXPECT_EQ(r.warp_times[0].turn + r.warp_times[1].turn, 2u);
  EXPECT_EQ(std::max(r.warp_times[0].finish, r.warp_times[1].finish), r.cycles());
  expect_time_accounted(r, 0);
}

TEST(Statistics, ComputeLatencyFollowsEveryDispatch) {
  auto c = machine("dmm", 4, 3, 8, 16);
  c.compute_latency = 5;
  const auto run = replay(c, fig4);
  EXPECT_EQ(run.result.warp_times[0].dispatches, 1u);
  EXPECT_EQ(run.result.warp_times[0].finish, 4u + 5u);
  expect_time_accounted(run.result, 5);
}

// The hierarchical machine counts per memory: W(0) reads one global address group, W(1) bank 0
// of its shared memory four times, in parallel.
TEST(Statistics, HierarchicalMachineCountsPerMemory) {
  MachineConfig m = machine("hmm", 4, 5, 8, 64);
  m.multiprocessors = 2;
  m.shared.latency = 1;
  m.shared.words = 64;
  const RefProgram program{{{read({0, 1, 2, 3})}, {read({0, 4, 8, 12}, Space::shared)}}};
  const auto run = replay(m, program);
  const RunResult& r = run.result;
  ASSERT_EQ(r.memories.size(), 3u);
  EXPECT_EQ(r.memories[0].spread.groups, (Counts{0, 0, 0, 0, 1}));
  EXPECT_EQ(r.memories[0].counters.stage_histogram, (Counts{0, 1}));
  EXPECT_EQ(r.memories[1].spread.banks, (Counts{0, 0, 0, 0}));
  EXPECT_EQ(r.memories[2].spread.banks, (Counts{4, 0, 0, 0}));
  EXPECT_EQ(r.memories[2].counters.stage_histogram, (Counts{0, 0, 0, 0, 1}));
  EXPECT_EQ(r.memories[0].counters.memory_wait, 5u);  // k + l - 1 = 1 + 5 - 1
  EXPECT_EQ(r.memories[2].counters.memory_wait, 4u);  // 4 + 1 - 1
  EXPECT_EQ(r.warp_times[0].finish, 5u);
  EXPECT_EQ(r.warp_times[1].finish, 4u);
  expect_time_accounted(r, 0);
}

// Sample i counts the events before cycle[i]; the last sample is the end of the run.
TEST(Statistics, TimeSeriesSamplesTheCountersBeforeEachTime) {
  SimulationOptions options;
  options.dispatch.sample_interval = 2;
  const auto run = replay(machine("dmm", 4, 3, 8, 16), fig4, options);
  const TimeSeries& s = run.result.time_series;
  EXPECT_EQ(s.interval, 2u);
  EXPECT_EQ(s.cycle, (std::vector<Cycle>{2, 4, 5}));
  ASSERT_EQ(s.memories.size(), 1u);
  EXPECT_EQ(s.memories[0].dispatches, (Counts{1, 2, 2}));  // at 0 and 2
  EXPECT_EQ(s.memories[0].stages, (Counts{2, 3, 3}));
  EXPECT_EQ(s.memories[0].requests, (Counts{4, 8, 8}));
  EXPECT_EQ(s.memories[0].turn_wait, (Counts{0, 2, 2}));
  EXPECT_EQ(s.finished_warps, (Counts{0, 0, 2}));  // W(0) ends at 4, W(1) at 5
  EXPECT_TRUE(replay(machine("dmm", 4, 3, 8, 16), fig4).result.time_series.empty());
}

// One warp dispatching every time unit for 5000 time units: past kMaxSamples the interval
// doubles and every other sample goes, so that the samples stay at multiples of it.
TEST(Statistics, TimeSeriesThinsOutLongRuns) {
  RefProgram program{{{}}};
  for (int i = 0; i < 5000; ++i) program.warps[0].push_back(read({0, 1, 2, 3}));
  SimulationOptions options;
  options.dispatch.sample_interval = 1;
  const auto run = replay(machine("dmm", 4, 1, 4, 16), program, options);
  const TimeSeries& s = run.result.time_series;
  EXPECT_EQ(run.result.cycles(), 5000u);
  EXPECT_EQ(s.interval, 2u);
  ASSERT_EQ(s.cycle.size(), 2500u);
  for (std::size_t i = 0; i < s.cycle.size(); ++i) {
    EXPECT_EQ(s.cycle[i], 2 * (i + 1));
    EXPECT_EQ(s.memories[0].dispatches[i], s.cycle[i]);  // one dispatch per time unit before it
  }
  EXPECT_LE(s.cycle.size(), TimeSeries::kMaxSamples + 1);
}

}  // namespace
}  // namespace mmsim::test
