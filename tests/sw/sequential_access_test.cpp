// Contiguous and stride access (Nakano 2012, section III and Table I).
#include <gtest/gtest.h>

#include <numeric>

#include "support/testbench_text.hpp"

namespace mmsim::test {
namespace {

std::string testbench(const std::string& model, const std::string& program, unsigned w, unsigned l,
                      std::uint64_t p, std::uint64_t n, const std::string& op = "read",
                      const std::string& dispatch = "round_robin") {
  return "machine: {model: " + model + ", width: " + std::to_string(w) +
         ", latency: " + std::to_string(l) + ", threads: " + std::to_string(p) +
         ", dispatch: " + dispatch + "}\nprogram: {name: " + program +
         ", params: {n: " + std::to_string(n) + ", op: " + op + "}}\n";
}

struct Case {
  std::string model;
  unsigned w, l;
  std::uint64_t p, n;
};

// Every case: verified, at least the lower bound, exactly the exact figure where the timing
// rules fix it, and within the papers' upper bound.
void check_within_bounds(const RunOutcome& o, const std::string& where) {
  ASSERT_TRUE(o.verified.value_or(false)) << where << ": " << o.first_mismatch;
  const double cycles = static_cast<double>(o.result.cycles());
  const Bound* lower = find_bound(o, "time_lower");
  ASSERT_NE(lower, nullptr);
  EXPECT_GE(cycles, lower->value) << where;
  if (const Bound* exact = find_bound(o, "time_exact")) {
    EXPECT_EQ(cycles, exact->value) << where;
  }
  if (const Bound* exact = find_bound(o, "congestion_exact")) {
    EXPECT_EQ(static_cast<double>(o.result.counters.stages), exact->value) << where;
  }
  if (const Bound* upper = find_bound(o, "time_upper")) {
    EXPECT_LE(cycles, upper->value) << where;
  }
  // Nakano and Matsumae 2013, Lemma 1 holds for any round-structured program under round robin.
  const double rounds =
      static_cast<double>(o.result.counters.dispatches) / static_cast<double>(o.machine.warps());
  EXPECT_LE(cycles,
            static_cast<double>(o.result.counters.stages) + (o.machine.latency - 1) * rounds)
      << where;
}

TEST(SequentialAccess, ContiguousAndStrideStayWithinThePapersBounds) {
  const std::vector<Case> cases = {
      {"dmm", 4, 3, 8, 64},       {"dmm", 32, 16, 1024, 65536}, {"dmm", 8, 40, 64, 4096},
      {"dmm", 6, 5, 36, 36 * 10}, {"umm", 4, 3, 8, 64},         {"umm", 32, 16, 1024, 66560},
      {"umm", 8, 40, 64, 4096},   {"bpram", 32, 1, 256, 8192},  {"dmm", 16, 100, 4096, 4096 * 3},
  };
  for (const Case& c : cases)
    for (const std::string program : {"contiguous_access", "stride_access"})
      for (const std::string op : {"read", "write"}) {
        const std::string where = program + " " + op + " on " + c.model +
                                  " w=" + std::to_string(c.w) + " l=" + std::to_string(c.l) +
                                  " p=" + std::to_string(c.p) + " n=" + std::to_string(c.n);
        check_within_bounds(run_yaml(testbench(c.model, program, c.w, c.l, c.p, c.n, op)), where);
      }
}

TEST(SequentialAccess, StrideWithGcdWIsSlowerByThePredictedFactorOnTheDmm) {
  // w = 32, l = 16, p = 1024: n/p = 64 gives G = 32 = w; n/p = 65 gives G = 1.
  const auto contiguous = run_yaml(testbench("dmm", "contiguous_access", 32, 16, 1024, 65536));
  const auto stride_w = run_yaml(testbench("dmm", "stride_access", 32, 16, 1024, 65536));
  const auto stride_1 = run_yaml(testbench("dmm", "stride_access", 32, 16, 1024, 66560));
  // Each warp of the G = w case sends its 32 requests to one bank: 32 stages per dispatch.
  EXPECT_EQ(stride_w.result.counters.stages, 32u * contiguous.result.counters.stages);
  EXPECT_EQ(stride_w.result.counters.max_stages, 32u);
  EXPECT_EQ(stride_1.result.counters.max_stages, 1u);
  // Predicted: (n/p - 1)*max(U*G, G + l - 1) + U*G + l - 1 with U = 32 warps.
  EXPECT_EQ(contiguous.result.cycles(), 63u * 32 + 32 + 15);
  EXPECT_EQ(stride_w.result.cycles(), 63u * 32 * 32 + 32 * 32 + 15);
  EXPECT_EQ(stride_1.result.cycles(), 64u * 32 + 32 + 15);
  const double factor = static_cast<double>(stride_w.result.cycles()) /
                        static_cast<double>(contiguous.result.cycles());
  EXPECT_GT(factor, 31.0);  // about G = w = 32 once bandwidth dominates
  EXPECT_LT(factor, 32.0);
}

TEST(SequentialAccess, StrideOnTheUmmPaysAboutAFactorNOverP) {
  // n/p = 4 < w = 8: each warp's cells span up to 4 address groups.
  const auto contiguous = run_yaml(testbench("umm", "contiguous_access", 8, 2, 512, 2048));
  const auto stride = run_yaml(testbench("umm", "stride_access", 8, 2, 512, 2048));
  EXPECT_EQ(contiguous.result.counters.stages, 2048u / 8);
  EXPECT_EQ(stride.result.counters.stages, 4u * 2048 / 8);
}

TEST(SequentialAccess, EveryDispatchPolicyMovesTheSameData) {
  for (const std::string policy : {"round_robin", "lowest_ready", "oldest_ready", "random"})
    for (const std::string program : {"contiguous_access", "stride_access"}) {
      const auto o = run_yaml(testbench("dmm", program, 8, 12, 128, 128 * 6, "write", policy));
      ASSERT_TRUE(o.verified.value_or(false))
          << policy << " " << program << ": " << o.first_mismatch;
      EXPECT_EQ(o.elements_checked, 128u * 6);
      EXPECT_GE(o.result.cycles(), find_bound(o, "time_lower")->value);
    }
}

TEST(SequentialAccess, NMustBeAMultipleOfP) {
  EXPECT_THROW(run_yaml(testbench("dmm", "contiguous_access", 4, 2, 8, 20)), InputError);
  EXPECT_THROW(run_yaml(testbench("dmm", "contiguous_access", 4, 2, 8, 4)), InputError);
}

}  // namespace
}  // namespace mmsim::test
