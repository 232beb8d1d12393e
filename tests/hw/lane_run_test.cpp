// A run (LaneRun: lane i addresses first + i) is the same instruction as the span of its w
// addresses. Random traces give the same cycles, statistics, memories, values read and
// observed accesses whether their consecutive accesses are issued as runs or as spans, on
// every model (identity maps, which take a run whole, and the others, which write it out); a
// run that leaves the memory fails as its span does, and one that wraps around 2^64 behaves
// as its span (the lane at kInactive sends nothing).
#include <gtest/gtest.h>

#include <random>

#include "hw/machine/simulation.hpp"
#include "support/access_log.hpp"
#include "support/replay_checks.hpp"

namespace mmsim::test {
namespace {

// The same time, and the same memories and values read.
void expect_same(const Replayed& runs, const Replayed& spans, const std::string& where) {
  expect_same_timing(runs, spans, where);
  EXPECT_EQ(runs.memories, spans.memories) << where;
  EXPECT_EQ(runs.reads, spans.reads) << where;
}

struct Shape {
  std::string model;
  unsigned width;
  unsigned latency;
  unsigned warps;
  unsigned super_warp = 1;
  std::string address_map = "";
};

TEST(LaneRun, RunsAndTheirSpansRunAlikeOnEveryFlatModel) {
  const std::vector<Shape> shapes = {
      {"dmm", 4, 3, 6},   {"dmm", 8, 5, 4}, {"dmm", 32, 8, 3},    {"dmm", 4, 2, 4, 1, "skew"},
      {"umm", 4, 3, 5},   {"umm", 8, 2, 4}, {"sdmm", 4, 3, 6, 2}, {"rsdmm", 4, 4, 4, 2},
      {"bpram", 4, 2, 4}, {"pram", 4, 3, 4}};
  for (std::uint64_t seed = 1; seed <= 12; ++seed)
    for (const Shape& s : shapes) {
      std::mt19937_64 rng(seed * 104729 + s.width * 17 + s.warps);
      const std::uint64_t words = std::uint64_t{s.width} * 7;
      const RefProgram program = random_run_program(rng, s.width, s.warps, words, 0);
      MachineConfig m =
          machine(s.model, s.width, s.latency, std::uint64_t{s.width} * s.warps, words);
      m.super_warp = s.super_warp;
      m.mapping.address_map = s.address_map;
      m.compute_latency = seed % 3;
      m.write_conflict = seed % 2 == 0 ? WriteConflict::lowest_lane : WriteConflict::highest_lane;
      for (const bool observed : {false, true}) {
        AccessLog runs_log;
        AccessLog spans_log;
        const Replayed runs = replay(m, program, {}, observed ? &runs_log : nullptr, true);
        const Replayed spans = replay(m, program, {}, observed ? &spans_log : nullptr);
        const std::string where = s.model + " w=" + std::to_string(s.width) + " map '" +
                                  s.address_map + "' seed=" + std::to_string(seed) +
                                  (observed ? " observed" : "");
        expect_same(runs, spans, where);
        EXPECT_EQ(runs_log.lines, spans_log.lines) << where;
      }
    }
}

TEST(LaneRun, RunsAndTheirSpansRunAlikeInBothMemoriesOfTheHierarchicalMachine) {
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    std::mt19937_64 rng(seed * 7907);
    MachineConfig m = two_sm_hmm();
    m.global_width = seed % 2 == 0 ? 2 : 4;
    m.shared.model = seed % 3 == 0 ? "pram" : "dmm";
    const RefProgram program = random_run_program(rng, m.width, 6, m.memory_words, m.shared.words);
    AccessLog runs_log;
    AccessLog spans_log;
    const Replayed runs = replay(m, program, {}, &runs_log, true);
    const Replayed spans = replay(m, program, {}, &spans_log);
    const std::string where = "hmm seed=" + std::to_string(seed);
    expect_same(runs, spans, where);
    EXPECT_EQ(runs_log.lines, spans_log.lines) << where;
  }
}

// One warp, one instruction: how a run of the warp's 4 lanes from `first` ends, as a run and
// as a span; "" when it ran to the end.
std::string outcome(Address first, bool as_run) {
  RefProgram program;
  RefInstruction in;
  in.kind = RefInstruction::read;
  for (unsigned lane = 0; lane < 4; ++lane) in.addresses.push_back(first + lane);
  program.warps = {{in}};
  const MachineConfig m = machine("dmm", 4, 2, 4, 16);
  try {
    const Replayed got = replay(m, program, {}, nullptr, as_run);
    return "cycles " + std::to_string(got.result.cycles()) + " requests " +
           std::to_string(got.result.counters.requests);
  } catch (const SimulationError& e) {
    return e.what();
  }
}

TEST(LaneRun, ARunOutsideTheMemoryFailsAsItsSpanDoes) {
  // Lanes 2 and 3 of m[14..17] lie beyond the 16 words: the first of them is named.
  EXPECT_EQ(outcome(14, true), outcome(14, false));
  EXPECT_NE(outcome(14, true).find("lane 2"), std::string::npos) << outcome(14, true);
  EXPECT_NE(outcome(14, true).find("m[16]"), std::string::npos) << outcome(14, true);
  // The last lane at m[15]: in range, one stage of 4 requests (l = 2: time k + l - 1 = 2).
  EXPECT_EQ(outcome(12, true), "cycles 2 requests 4");
  EXPECT_EQ(outcome(12, false), "cycles 2 requests 4");
}

TEST(LaneRun, ARunThatWrapsAroundIsItsSpan) {
  // From kInactive: lane 0 sends nothing, lanes 1..3 read m[0..2] after the wrap, banks 0..2:
  // one stage of 3 requests.
  EXPECT_EQ(outcome(kInactive, true), "cycles 2 requests 3");
  EXPECT_EQ(outcome(kInactive, false), "cycles 2 requests 3");
  // From kInactive - 1: lane 0 lies beyond every memory, and is named.
  EXPECT_EQ(outcome(kInactive - 1, true), outcome(kInactive - 1, false));
  EXPECT_NE(outcome(kInactive - 1, true).find("lane 0"), std::string::npos)
      << outcome(kInactive - 1, true);
}

}  // namespace
}  // namespace mmsim::test
