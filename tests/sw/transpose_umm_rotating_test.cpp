// Nakano 2012, Lemma 3: transpose by the rotating technique through local memory, under the
// two-phase schedule of the paper and the pair schedule.
#include <gtest/gtest.h>

#include "support/testbench_text.hpp"

namespace mmsim::test {
namespace {

std::string testbench(const std::string& model, unsigned w, unsigned l, std::uint64_t n,
                      const std::string& dispatch = "round_robin",
                      const std::string& threads = "") {
  return "machine: {model: " + model + ", width: " + std::to_string(w) +
         ", latency: " + std::to_string(l) + ", dispatch: " + dispatch +
         (threads.empty() ? "" : ", threads: " + threads) +
         "}\nprogram: {name: transpose_umm_rotating, params: {n: " + std::to_string(n) + "}}\n";
}

TEST(TransposeUmmRotating, TransposesWithOneAddressGroupPerWarpAccess) {
  for (const unsigned w : {2u, 4u, 8u})
    for (const std::uint64_t side :
         {std::uint64_t{w}, std::uint64_t{3} * w, std::uint64_t{8} * w}) {
      const std::uint64_t n = side * side;
      const auto o = run_yaml(testbench("umm", w, 5, n));
      ASSERT_TRUE(o.verified.value_or(false))
          << "w=" << w << " n=" << n << ": " << o.first_mismatch;
      EXPECT_EQ(o.elements_checked, n);
      EXPECT_EQ(o.result.counters.stages, 4 * n / w - 2 * side) << "w=" << w << " n=" << n;
      EXPECT_EQ(o.result.counters.max_stages, 1u);
      EXPECT_EQ(o.machine.local_words, w);  // w words of local memory per PE
    }
}

TEST(TransposeUmmRotating, IsConflictFreeOnTheDmmToo) {
  const auto o = run_yaml(testbench("dmm", 8, 3, 64 * 64));
  ASSERT_TRUE(o.verified.value_or(false));
  EXPECT_EQ(o.result.counters.max_stages, 1u);
}

TEST(TransposeUmmRotating, EveryPolicyTransposesUnderBothSchedules) {
  for (const std::string policy :
       {"round_robin", "lowest_ready", "oldest_ready", "random", "adversarial"})
    for (const std::string schedule : {"two_phase", "pairs"}) {
      const auto o = run_yaml(testbench("umm", 4, 9, 24 * 24, policy, "16"),
                              {"program.params.schedule=" + schedule, "machine.race_check=true"});
      EXPECT_TRUE(o.verified.value_or(false))
          << policy << " " << schedule << ": " << o.first_mismatch;
      EXPECT_EQ(o.race_count, 0u) << policy << " " << schedule;
      EXPECT_EQ(o.result.syncthreads, schedule == "two_phase" ? 1u : 0u);
    }
}

TEST(TransposeUmmRotating, TwoPhasesKeepEveryWarpBusyWherePairsLeaveATail) {
  // n = 2^14 (8 x 8 blocks of 16 x 16: 64 blocks, 28 pairs to swap), w = 16, l = 32.
  // p = 512 (32 warps): the pair schedule gives warps 0..3 two pairs, 8w = 128 accesses each
  // and l apart: 2 * 128 * 32 = 8192 time units; two phases: 2 blocks (64 accesses) per warp,
  // then 14 of the 448 swapped rows (56 accesses): 120 * 32 = 3840, the stage count.
  const std::string base = testbench("umm", 16, 32, 128 * 128, "round_robin", "512");
  const auto pairs = run_yaml(base, {"program.params.schedule=pairs"});
  const auto two_phase = run_yaml(base);
  ASSERT_TRUE(pairs.verified.value_or(false) && two_phase.verified.value_or(false));
  EXPECT_EQ(find_bound(pairs, "time_lower")->value, 8192);
  EXPECT_EQ(find_bound(two_phase, "time_lower")->value, 3840 + 31);
  EXPECT_GE(pairs.result.cycles(), 8192u);
  EXPECT_GE(two_phase.result.cycles(), 3871u);
  EXPECT_LT(two_phase.result.cycles(), pairs.result.cycles() / 2);
  // Two phases stay within 1 per cent of the lower bound, the barrier included.
  EXPECT_LE(static_cast<double>(two_phase.result.cycles()), 1.01 * 3871);
}

TEST(TransposeUmmRotating, OnThePramEveryDispatchOfTheOneUnitTakesOneTimeUnit) {
  // p = 512: the one unit dispatches as long as any warp has an access left in the phase.
  for (const std::string schedule : {"two_phase", "pairs"}) {
    const auto o = run_yaml(testbench("pram", 16, 32, 128 * 128, "round_robin", "512"),
                            {"program.params.schedule=" + schedule});
    ASSERT_TRUE(o.verified.value_or(false)) << schedule;
    EXPECT_EQ(o.result.cycles(), schedule == "two_phase" ? 120u : 256u) << schedule;
    EXPECT_EQ(static_cast<double>(o.result.cycles()), find_bound(o, "time_exact")->value);
  }
}

TEST(TransposeUmmRotating, StaysWithinAConstantOfThePapersOrder) {
  // With enough warps to fill the pipeline, four accesses per element: within 4x of n/w + nl/p,
  // plus the latency of the last access.
  const auto o = run_yaml(testbench("umm", 16, 32, 128 * 128, "round_robin", "512"));
  ASSERT_TRUE(o.verified.value_or(false));
  const double order = 128.0 * 128 / 16 + 128.0 * 128 * 32 / 512;
  EXPECT_LE(static_cast<double>(o.result.cycles()), 4 * order + 32);
}

TEST(TransposeUmmRotating, RejectsMatricesThatDoNotFit) {
  EXPECT_THROW(run_yaml(testbench("umm", 4, 2, 60)), InputError);  // not a square
  EXPECT_THROW(run_yaml(testbench("umm", 4, 2, 36)), InputError);  // sqrt(n) = 6, w = 4
  EXPECT_THROW(run_yaml(testbench("umm", 4, 2, 64) + "", {"machine.local_memory=3"}), InputError);
}

}  // namespace
}  // namespace mmsim::test
