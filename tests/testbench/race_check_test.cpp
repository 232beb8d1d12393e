// machine.race_check: the race detector, and barrier divergence as an error.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/command.hpp"
#include "support/testbench_text.hpp"
#include "testbench/run/report.hpp"

namespace mmsim::test {
namespace {

// Two warps of w = 2 running `warps` (a YAML list of instruction lists) under race_check.
RunOutcome trace(const std::string& warps) {
  return run_yaml(
      "machine: {model: umm, width: 2, latency: 3, race_check: true}\n"
      "program: {name: trace, warps: " +
      warps + "}\n");
}

TEST(RaceCheck, AWriteAndAnotherWarpsAccessWithNoBarrierBetweenAreARace) {
  const RunOutcome o = trace("[[{write: [5, null]}], [{read: [null, 5]}]]");
  ASSERT_EQ(o.race_count, 1u);
  ASSERT_EQ(o.races.size(), 1u);
  const RaceDetector::Race& race = o.races.front();
  EXPECT_EQ(race.address, 5u);
  // Both dispatch at once: warp 0's write completes at cycle 2, warp 1's read at 3.
  EXPECT_EQ(race.first.warp, 0u);
  EXPECT_EQ(race.first.kind, AccessKind::write);
  EXPECT_EQ(race.first.pc, 1u);
  EXPECT_EQ(race.first.cycle, 2u);
  EXPECT_EQ(race.second.warp, 1u);
  EXPECT_EQ(race.second.kind, AccessKind::read);
  EXPECT_EQ(race.second.pc, 1u);
  EXPECT_EQ(race.second.cycle, 3u);
  EXPECT_EQ(o.verified, std::optional<bool>(false));  // a race fails verification
  EXPECT_EQ(trace("[[{write: [5, null]}], [{write: [5, 5]}]]").race_count, 1u);
}

TEST(RaceCheck, BarriersReadsAndOneWarpsOwnAccessesAreNoRace) {
  // A barrier between: the write's epoch is 0, the read's 1.
  EXPECT_EQ(
      trace("[[{write: [5, null]}, {sync: true}], [{sync: true}, {read: [5, 5]}]]").race_count, 0u);
  EXPECT_EQ(trace("[[{read: [5, 4]}], [{read: [5, 4]}]]").race_count, 0u);
  EXPECT_EQ(
      trace("[[{write: [5, 4]}, {read: [5, 4]}, {write: [5, 4]}], [{read: [0, 1]}]]").race_count,
      0u);
  const RunOutcome clean = trace("[[{read: [5, 4]}], [{read: [5, 4]}]]");
  EXPECT_EQ(clean.verified, std::optional<bool>(true));  // race_check is something to verify
}

TEST(RaceCheck, EveryPairOnceAndEveryAddress) {
  // Warp 0 writes m[2] and m[3] twice (two instructions); warp 1 reads both in one
  // instruction with both lanes on m[3] as well: 2 pairs at m[2], 2 at m[3].
  const RunOutcome o =
      trace("[[{write: [2, 3]}, {write: [2, 3]}], [{read: [2, 3]}, {read: [3, 3]}]]");
  EXPECT_EQ(o.race_count, 6u);
  std::map<Address, int> per_address;
  for (const RaceDetector::Race& r : o.races) ++per_address[r.address];
  EXPECT_EQ(per_address[2], 2);
  EXPECT_EQ(per_address[3], 4);
}

std::string broken_simple(std::uint64_t n, unsigned w, const std::string& policy,
                          unsigned drop = 1) {
  return "machine: {model: umm, width: " + std::to_string(w) + ", latency: 5, dispatch: " + policy +
         ", race_check: true}\nprogram: {name: sum_simple, params: {n: " + std::to_string(n) +
         ", drop_sync: " + std::to_string(drop) + "}}\n";
}

// Summing Algorithm Simple with its first syncthreads (after step t = m - 1) left out: thread
// j < 2^(m-1) writes a[j] in step m - 1 while thread j - 2^(m-2) reads it in step m - 2 (its
// second read, instruction 5; the write is instruction 3): 2^(m-2) races, whatever the order.
TEST(RaceCheck, CatchesSumSimpleWithOneSyncthreadsLeftOut) {
  const std::uint64_t n = 256;  // m = 8
  const unsigned w = 4;
  for (const std::string policy :
       {"round_robin", "lowest_ready", "oldest_ready", "random", "adversarial"}) {
    const RunOutcome o = run_yaml(broken_simple(n, w, policy));
    EXPECT_EQ(o.race_count, n / 4) << policy;
    EXPECT_EQ(o.verified, std::optional<bool>(false)) << policy;
    EXPECT_EQ(o.result.syncthreads, 8u - 2 - 1 - 1) << policy;
    ASSERT_EQ(o.races.size(), n / 4) << policy;
    for (const RaceDetector::Race& r : o.races) {
      ASSERT_GE(r.address, n / 4);
      ASSERT_LT(r.address, n / 2);
      const auto& write = r.first.kind == AccessKind::write ? r.first : r.second;
      const auto& read = r.first.kind == AccessKind::write ? r.second : r.first;
      EXPECT_EQ(read.kind, AccessKind::read);
      EXPECT_EQ(write.warp, r.address / w);
      EXPECT_EQ(read.warp, (r.address - n / 4) / w);
      EXPECT_EQ(write.pc, 3u);
      EXPECT_EQ(read.pc, 5u);
      EXPECT_LT(r.first.cycle, r.second.cycle + 1);
    }
  }
  // The second syncthreads (after step m - 2) left out instead: 2^(m-3) races.
  EXPECT_EQ(run_yaml(broken_simple(n, w, "adversarial", 2)).race_count, n / 8);
  // And none with every syncthreads in place.
  EXPECT_EQ(run_yaml(broken_simple(n, w, "adversarial", 0)).race_count, 0u);
}

TEST(RaceCheck, ReportAndStatisticsListTheRaces) {
  TempDir dir;
  const auto file = dir.write("broken.yaml", broken_simple(1024, 4, "random"));
  const auto stats = dir / "s.json";
  const CommandResult r = mmsim("run '" + file.string() + "' --stats '" + stats.string() + "'");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.out.find("  races        256 pairs of accesses to one address by two warps, one a "
                       "write at least, with no barrier between; the first 10:\n    m["),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  verified     NO"), std::string::npos);
  const auto json = nlohmann::json::parse(read_file(stats));
  EXPECT_EQ(json["race_check"], true);
  EXPECT_EQ(json["races"]["count"], 256);
  ASSERT_EQ(json["races"]["listed"].size(), kListedRaces);
  const auto& race = json["races"]["listed"][0];
  for (const char* key : {"memory", "address", "first", "second"})
    EXPECT_TRUE(race.contains(key)) << key;
  for (const char* key : {"warp", "kind", "pc", "cycle"})
    EXPECT_TRUE(race["first"].contains(key)) << key;
  EXPECT_EQ(json["verified"], false);

  const CommandResult clean = mmsim("run '" + file.string() + "' --set program.params.drop_sync=0");
  EXPECT_EQ(clean.status, 0) << clean.out;
  EXPECT_NE(clean.out.find("  races        none (race_check)\n"), std::string::npos) << clean.out;
}

// Where two processors may run mmsim the race detector runs on a thread of its own, beside the
// simulation (hw/observers/observer_thread.hpp); confined to one (as taskset does) on the
// simulation's. Merge sort on the HMM with a barrier left out (millions of lane accesses, many
// batches): the same races, counted and listed alike.
TEST(RaceCheck, ConfinedToOneProcessorTheRacesAreTheSame) {
  TempDir dir;
  const std::string arguments = "run " + std::string(MMSIM_SOURCE_DIR) +
                                "/configs/merge_sort_hmm.yaml --set program.params.drop_sync=19 "
                                "--set 'expect={}' --stats ";
  const CommandResult two = mmsim(arguments + shell_word(dir / "two.json"));
  const CommandResult one = run_command("taskset --cpu-list 0 '" + std::string(MMSIM_BINARY) +
                                        "' " + arguments + shell_word(dir / "one.json"));
  EXPECT_EQ(two.status, 1) << two.err;
  EXPECT_EQ(one.status, 1) << one.err;
  const auto races = [&](const char* name) {
    return nlohmann::json::parse(read_file(dir / name))["races"];
  };
  EXPECT_EQ(races("two.json")["count"], 12317);
  EXPECT_EQ(races("two.json"), races("one.json"));
}

// Warps 2 and 4 execute one syncthreads, warps 0, 1 and 3 two: the barrier opens for the
// second time once warps 2 and 4 have finished, so the run ends.
const std::string kDivergent = R"(machine: {model: umm, width: 2, latency: 3}
program:
  name: trace
  warps:
    - [ {sync: true}, {read: [0, 1]}, {sync: true} ]
    - [ {sync: true}, {sync: true}, {read: [2, 3]} ]
    - [ {read: [4, 5]}, {sync: true} ]
    - [ {sync: true}, {sync: true} ]
    - [ {sync: true} ]
)";
const std::string kDivergence =
    "barrier divergence: the warps executed different numbers of syncthreads: warps 2, 4 "
    "executed 1; warps 0-1, 3 executed 2";

TEST(RaceCheck, BarrierDivergenceIsAWarningWithoutRaceCheckAndAnErrorWithIt) {
  TempDir dir;
  const auto file = dir.write("divergent.yaml", kDivergent);
  const CommandResult warned = mmsim("run '" + file.string() + "'");
  EXPECT_EQ(warned.status, 0) << warned.err;
  EXPECT_NE(warned.out.find("  warning      " + kDivergence + "\n"), std::string::npos)
      << warned.out;

  const auto stats = dir / "s.json";
  const CommandResult failed = mmsim(
      "run '" + file.string() + "' --set machine.race_check=true --stats '" + stats.string() + "'");
  EXPECT_EQ(failed.status, 1) << failed.err;
  EXPECT_NE(failed.out.find("  error        " + kDivergence + "\n"), std::string::npos)
      << failed.out;
  EXPECT_NE(failed.out.find("  verified     NO"), std::string::npos);
  const auto json = nlohmann::json::parse(read_file(stats));
  EXPECT_EQ(json["errors"][0], kDivergence);
  EXPECT_EQ(json["syncthreads"], 2);
}

// The hierarchical machine: two multiprocessors of two warps (w = 2) under race_check.
RunOutcome hmm_trace(const std::string& warps) {
  return run_yaml(
      "machine: {model: hmm, multiprocessors: 2, width: 2, latency: 3, race_check: true,\n"
      "          shared: {latency: 1, memory: 8}}\n"
      "program: {name: trace, warps: " +
      warps + "}\n");
}

// syncthreads orders the warps of one block only: accesses to global memory by warps of two
// multiprocessors race unless a grid_sync separates them.
TEST(RaceCheck, OnTheHmmSyncthreadsSeparatesTheWarpsOfOneBlockOnly) {
  // W(0), W(1) on SM 0; W(2), W(3) on SM 1. W(0) writes m[5]; W(2) reads it after a syncthreads.
  const std::string cross =
      "[[{write: [5, null]}, {sync: true}], [{sync: true}], [{sync: true}, {read: [5, null]}],"
      " [{sync: true}]]";
  const RunOutcome o = hmm_trace(cross);
  ASSERT_EQ(o.race_count, 1u);
  EXPECT_EQ(o.races[0].memory, 0u);
  EXPECT_EQ(o.races[0].first.warp, 0u);
  EXPECT_EQ(o.races[0].second.warp, 2u);
  EXPECT_EQ(format_race(o.races[0], o.result).substr(0, 11), "global m[5]");
  // With grid_syncs instead, no race.
  EXPECT_EQ(hmm_trace("[[{write: [5, null]}, {grid_sync: true}], [{grid_sync: true}],"
                      " [{grid_sync: true}, {read: [5, null]}], [{grid_sync: true}]]")
                .race_count,
            0u);
  // Warps of one block: syncthreads is enough.
  EXPECT_EQ(hmm_trace("[[{write: [5, null]}, {sync: true}], [{sync: true}, {read: [5, null]}],"
                      " [], []]")
                .race_count,
            0u);
}

// A race in a shared memory names its multiprocessor; the same addresses in two shared
// memories are different cells.
TEST(RaceCheck, ASharedMemoryRaceNamesItsMultiprocessor) {
  const RunOutcome o = hmm_trace(
      "[[{write: [3, null], space: shared}], [{write: [3, null], space: shared}],"
      " [{read: [null, 3], space: shared}], [{write: [null, 3], space: shared}]]");
  ASSERT_EQ(o.race_count, 2u);  // W(0) and W(1) in SM 0, W(2) and W(3) in SM 1
  EXPECT_EQ(o.races[0].memory, 1u);
  EXPECT_EQ(o.races[1].memory, 2u);
  EXPECT_EQ(format_race(o.races[1], o.result).substr(0, 16), "SM 1 shared m[3]");
  EXPECT_EQ(o.verified, std::optional<bool>(false));
}

// Divergence is checked per block on the hmm, and grid_syncs over the machine.
TEST(RaceCheck, OnTheHmmDivergenceIsPerBlockAndGridSyncsOverTheMachine) {
  const RunOutcome o = hmm_trace("[[{sync: true}], [], [{grid_sync: true}], [{grid_sync: true}]]");
  ASSERT_EQ(o.errors.size(), 2u);
  EXPECT_EQ(o.errors[0],
            "barrier divergence: the warps of multiprocessor 0 executed different numbers of "
            "barriers (syncthreads and grid_syncs): warp 1 executed 0; warp 0 executed 1");
  EXPECT_EQ(o.errors[1],
            "barrier divergence: the warps executed different numbers of grid_syncs: warps 0-1 "
            "executed 0; warps 2-3 executed 1");
}

}  // namespace
}  // namespace mmsim::test
