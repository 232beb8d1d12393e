// Offline permutation on the machines (Nakano 2012, sections V and VI).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include "support/command.hpp"

#include "support/testbench_text.hpp"

namespace mmsim::test {
namespace {

std::string testbench(const std::string& model, unsigned w, unsigned l, std::uint64_t p,
                      const std::string& program, std::uint64_t n, const std::string& permutation,
                      const std::string& extra = "", const std::string& dispatch = "round_robin") {
  return "machine: {model: " + model + ", width: " + std::to_string(w) +
         ", latency: " + std::to_string(l) + ", threads: " + std::to_string(p) +
         ", dispatch: " + dispatch + "}\nprogram: {name: " + program +
         ", params: {n: " + std::to_string(n) + ", permutation: '" + permutation + "'" + extra +
         "}}\n";
}

TEST(PermuteDmmConflictFree, EveryWarpAccessIsConflictFree) {
  for (const unsigned w : {4u, 8u, 32u})
    for (const std::string permutation : {"random", "random:7", "bit_reversal", "transpose"}) {
      const std::uint64_t n = w == 32 ? 4096 : 1024;
      const std::uint64_t p = 4 * w;
      const double l = 9;
      const std::string where = permutation + " w=" + std::to_string(w);
      // The scheduled moves straight from a to b: one read and one write per word.
      const auto once = run_yaml(testbench("dmm", w, 9, p, "permute_dmm_conflict_free", n,
                                           permutation, ", in_place: false"));
      ASSERT_TRUE(once.verified.value_or(false)) << where << ": " << once.first_mismatch;
      EXPECT_EQ(once.elements_checked, n);
      EXPECT_EQ(once.result.counters.stages, 2 * n / w) << where;
      EXPECT_EQ(once.result.counters.max_stages, 1u) << where;
      // Theorem 6 with the constant stated: at most 2(n/w + nl/p) + l.
      EXPECT_LE(static_cast<double>(once.result.cycles()), 2 * (n / w + n * l / p) + l) << where;
      // The paper's in-place version copies a to b first: 4n/w, within 4(n/w + nl/p) + 2l.
      const auto twice =
          run_yaml(testbench("dmm", w, 9, p, "permute_dmm_conflict_free", n, permutation));
      ASSERT_TRUE(twice.verified.value_or(false)) << where << ": " << twice.first_mismatch;
      EXPECT_EQ(twice.result.counters.stages, 4 * n / w) << where;
      EXPECT_EQ(twice.result.syncthreads, 1u);
      EXPECT_LE(static_cast<double>(twice.result.cycles()), 4 * (n / w + n * l / p) + 2 * l)
          << where;
    }
}

TEST(PermuteStraightforward, BitReversalPutsEveryWarpsWritesInOneBank) {
  // n = 2^12, w = 16: consecutive sources differ in their low 4 bits, their bit-reversed
  // destinations in their high 4 bits, so all 16 writes of a warp go to one bank (DMM) and to
  // 16 address groups (UMM): n stages for the writes, plus 3n/w for the contiguous accesses.
  const std::uint64_t n = 4096;
  for (const std::string model : {"dmm", "umm"}) {
    const auto o =
        run_yaml(testbench(model, 16, 5, 256, "permute_straightforward", n, "bit_reversal"));
    ASSERT_TRUE(o.verified.value_or(false)) << model << ": " << o.first_mismatch;
    EXPECT_EQ(o.result.counters.stages, 3 * n / 16 + n) << model;
    EXPECT_EQ(o.result.counters.max_stages, 16u) << model;
    EXPECT_GE(o.result.cycles(), n);
  }
  // The conflict-free schedule of the same permutation: 4n/w.
  const auto planned =
      run_yaml(testbench("dmm", 16, 5, 256, "permute_dmm_conflict_free", n, "bit_reversal"));
  EXPECT_EQ(planned.result.counters.stages, 4 * n / 16);
  EXPECT_LT(planned.result.cycles() * 4,
            run_yaml(testbench("dmm", 16, 5, 256, "permute_straightforward", n, "bit_reversal"))
                .result.cycles());
}

TEST(PermuteUmm, MovesEveryWordForNEqualToWSquaredAndWToTheFourth) {
  const std::vector<std::pair<unsigned, std::uint64_t>> cases = {
      {2, 4}, {2, 16}, {4, 16}, {4, 256}, {8, 64}, {3, 81}, {8, 4096}};
  for (const auto& [w, n] : cases)
    for (const std::string permutation : {"random", "bit_reversal", "identity"}) {
      if (permutation == "bit_reversal" && w == 3) continue;  // n must be a power of two
      const std::string where = permutation + " w=" + std::to_string(w) + " n=" + std::to_string(n);
      const auto o = run_yaml(testbench("umm", w, 4, 2 * w, "permute_umm", n, permutation));
      ASSERT_TRUE(o.verified.value_or(false)) << where << ": " << o.first_mismatch;
      EXPECT_EQ(o.elements_checked, n);
      EXPECT_EQ(o.result.counters.max_stages, 1u) << where;  // one address group per access
      const Bound* stages = find_bound(o, "congestion_exact");
      ASSERT_NE(stages, nullptr);
      EXPECT_EQ(static_cast<double>(o.result.counters.stages), stages->value) << where;
      EXPECT_EQ(static_cast<double>(o.result.syncthreads),
                find_bound(o, "syncthreads_exact")->value);
    }
}

TEST(PermuteUmm, TheTwoPhaseTransposesAddABarrierEachAndSaveTheTail) {
  // n = w^4 = 2^16, w = 16, l = 16, p = 256 (the permutation sweep's UMM row): the two outer
  // transposes (256 x 256, 16 warps for 136 block pairs) leave warps idle under the pair
  // schedule; all blocks first, then the swaps row by row, keeps all 16 busy.
  const std::string base = testbench("umm", 16, 16, 256, "permute_umm", 65536, "bit_reversal");
  const auto pairs = run_yaml(base, {"program.params.transpose_schedule=pairs"});
  const auto two_phase = run_yaml(base);
  for (const RunOutcome* o : {&pairs, &two_phase}) {
    ASSERT_TRUE(o->verified.value_or(false)) << o->first_mismatch;
    EXPECT_GE(static_cast<double>(o->result.cycles()), find_bound(*o, "time_lower")->value);
  }
  EXPECT_EQ(two_phase.result.counters.stages, pairs.result.counters.stages);  // the same accesses
  EXPECT_EQ(pairs.result.syncthreads, 16u);      // between the 17 steps
  EXPECT_EQ(two_phase.result.syncthreads, 18u);  // and inside the two outer transposes
  // Each outer transpose: c = 2w*ceil(256/16) + 4*ceil(16*120/16) = 992 accesses of the busiest
  // warp, l*c = 15872 = its stages, instead of 9 pairs, 1040 accesses, for warps 0..7.
  EXPECT_LT(two_phase.result.cycles() + 1900, pairs.result.cycles());
}

TEST(PermutationPrograms, EveryPolicyMovesTheSameData) {
  for (const std::string policy : {"round_robin", "lowest_ready", "oldest_ready", "random"}) {
    for (const std::string program : {"permute_straightforward", "permute_dmm_conflict_free"})
      for (const std::string in_place : {"true", "false"}) {
        const auto o = run_yaml(
            testbench("dmm", 4, 7, 16, program, 256, "random", ", in_place: " + in_place, policy));
        EXPECT_TRUE(o.verified.value_or(false))
            << policy << " " << program << ": " << o.first_mismatch;
      }
    for (const std::string schedule : {"two_phase", "pairs"}) {
      const auto umm = run_yaml(testbench("umm", 4, 7, 16, "permute_umm", 256, "random",
                                          ", transpose_schedule: " + schedule, policy));
      EXPECT_TRUE(umm.verified.value_or(false))
          << policy << " permute_umm " << schedule << ": " << umm.first_mismatch;
    }
  }
}

TEST(PermutationPrograms, RejectWhatDoesNotFit) {
  EXPECT_THROW(run_yaml(testbench("dmm", 4, 2, 8, "permute_dmm_conflict_free", 60, "random")),
               InputError);  // n not a multiple of p
  EXPECT_THROW(run_yaml(testbench("dmm", 8, 2, 8, "permute_dmm_conflict_free", 68, "random")),
               InputError);  // n not a multiple of w
  EXPECT_THROW(run_yaml(testbench("umm", 4, 2, 8, "permute_umm", 64, "random")),
               InputError);  // not w^(2^m)
  EXPECT_THROW(run_yaml(testbench("dmm", 4, 2, 8, "permute_straightforward", 60, "bit_reversal")),
               InputError);  // bit reversal needs a power of two
}

TEST(PermutationPrograms, ANonPermutationFileIsLocated) {
  TempDir dir;
  dir.write("p.txt", "# destinations\n3\n1\n1\n0\n");
  const auto file =
      dir.write("t.yaml", testbench("dmm", 2, 2, 2, "permute_straightforward", 4, "p.txt"));
  const CommandResult r = mmsim("run '" + file.string() + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find((dir / "p.txt").string() + ":4:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("destination 1 is repeated"), std::string::npos) << r.err;
}

TEST(PlanCommand, WritesAScheduleTheProgramsReplay) {
  TempDir dir;
  for (const std::string machine : {"dmm", "umm"}) {
    const auto schedule = dir / (machine + ".schedule");
    const auto stats = dir / (machine + ".json");
    const CommandResult plan =
        mmsim("plan --n 256 --width 4 --machine " + machine + " --permutation random:3 --out '" +
              schedule.string() + "' --stats '" + stats.string() + "'");
    ASSERT_EQ(plan.status, 0) << plan.err;
    const auto json = nlohmann::json::parse(read_file(stats));
    EXPECT_EQ(json["n"], 256);
    EXPECT_EQ(json["width"], 4);
    EXPECT_EQ(json["machine"], machine);
    EXPECT_EQ(json["colours"], machine == "dmm" ? 64 : 16);
    EXPECT_EQ(json["verified"], true);
    EXPECT_GE(json["plan_seconds"].get<double>(), 0.0);
    const std::string program = machine == "dmm" ? "permute_dmm_conflict_free" : "permute_umm";
    const auto bench = dir.write(machine + ".yaml",
                                 testbench(machine == "dmm" ? "dmm" : "umm", 4, 3, 16, program, 256,
                                           "random:3", ", schedule: " + machine + ".schedule"));
    const CommandResult run = mmsim("run '" + bench.string() + "'");
    EXPECT_EQ(run.status, 0) << run.out << run.err;
    // The same schedule does not fit another permutation.
    const auto other = dir.write(machine + "-other.yaml",
                                 testbench(machine == "dmm" ? "dmm" : "umm", 4, 3, 16, program, 256,
                                           "random:4", ", schedule: " + machine + ".schedule"));
    const CommandResult mismatch = mmsim("run '" + other.string() + "'");
    EXPECT_EQ(mismatch.status, 2);
    EXPECT_NE(mismatch.err.find(schedule.string() + ":"), std::string::npos) << mismatch.err;
  }
}

TEST(PlanCommand, RejectsBadInput) {
  const CommandResult not_a_power = mmsim("plan --n 1000 --width 16 --machine umm");
  EXPECT_EQ(not_a_power.status, 2);
  EXPECT_NE(not_a_power.err.find("n = 256 below, n = 65536 above"), std::string::npos)
      << not_a_power.err;
  const CommandResult not_a_multiple = mmsim("plan --n 1000 --width 16");
  EXPECT_EQ(not_a_multiple.status, 2);
  EXPECT_NE(not_a_multiple.err.find("1000"), std::string::npos);
  EXPECT_EQ(mmsim("plan --n 16 --width 4 --machine hmm").status, 2);
  EXPECT_EQ(mmsim("plan --n 16 --width 4 --algorithm greedy").status, 2);
}

}  // namespace
}  // namespace mmsim::test
