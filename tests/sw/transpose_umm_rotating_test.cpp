// Seed 000 Lemma 3: transpose by the rotating technique through local memory.
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

TEST(TransposeUmmRotating, EveryPolicyTransposes) {
  for (const std::string policy : {"round_robin", "lowest_ready", "oldest_ready", "random"}) {
    const auto o = run_yaml(testbench("umm", 4, 9, 24 * 24, policy, "16"));
    EXPECT_TRUE(o.verified.value_or(false)) << policy << ": " << o.first_mismatch;
  }
}

TEST(TransposeUmmRotating, StaysWithinAConstantOfTheSeedsOrder) {
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
