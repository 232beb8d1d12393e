// The transposes of Nakano and Matsumae 2013 (section III, Table I) on the DMM family and the UMM.
#include <gtest/gtest.h>

#include <cmath>

#include "support/testbench_text.hpp"

namespace mmsim::test {
namespace {

RunOutcome transpose(const std::string& program, const std::string& model, unsigned w, unsigned l,
                     std::uint64_t p, std::uint64_t n, unsigned s = 1,
                     const std::string& extra = "") {
  return run_yaml("machine: {model: " + model + ", width: " + std::to_string(w) +
                  ", latency: " + std::to_string(l) + ", threads: " + std::to_string(p) +
                  (s > 1 ? ", super_warp: " + std::to_string(s) : "") + extra +
                  "}\nprogram: {name: " + program + ", params: {n: " + std::to_string(n) + "}}\n");
}

double bound(const RunOutcome& o, const std::string& key) {
  const Bound* b = find_bound(o, key);
  EXPECT_NE(b, nullptr) << key;
  return b ? b->value : 0;
}

// Verified element by element, never faster than the lower bound, exactly the total congestion
// where the papers fix it, and within Lemma 1 (round robin).
void check(const RunOutcome& o, std::uint64_t n, const std::string& where) {
  ASSERT_TRUE(o.verified.value_or(false)) << where << ": " << o.first_mismatch;
  EXPECT_EQ(o.elements_checked, 2 * n) << where;  // every value read, every cell of b
  const double cycles = static_cast<double>(o.result.cycles());
  EXPECT_GE(cycles, bound(o, "time_lower")) << where;
  if (const Bound* exact = find_bound(o, "congestion_exact")) {
    EXPECT_EQ(static_cast<double>(o.result.counters.stages), exact->value) << where;
  }
  EXPECT_LE(cycles, bound(o, "time_upper")) << where;
}

TEST(Transpose, BothAlgorithmsTransposeOnEveryModel) {
  struct Case {
    std::string model;
    unsigned s;
    std::string extra;
  };
  const std::vector<Case> cases = {
      {"dmm", 1, ""},
      {"sdmm", 2, ""},
      {"sdmm", 4, ""},
      {"rsdmm", 3, ""},
      {"umm", 1, ""},
      {"bpram", 1, ""},
      {"dmm", 1, ", address_map: skew"},
      {"sdmm", 2, ", address_map: xor"},
      {"dmm", 1, ", address_map: random_shift"},
      {"rsdmm", 2, ", rsu: {seed: 9}"},
  };
  for (const std::string program : {"transpose_naive", "transpose_diagonal"})
    for (const Case& c : cases)
      for (const std::uint64_t side : {24u, 48u}) {
        const unsigned w = c.extra.find("xor") != std::string::npos ? 8 : 6;
        const std::uint64_t p = std::uint64_t{w} * c.s * 2;
        const std::uint64_t n = side * side;
        if (n % p != 0) continue;
        check(transpose(program, c.model, w, 5, p, n, c.s, c.extra), n,
              program + " on " + c.model + c.extra + " s=" + std::to_string(c.s) +
                  " side=" + std::to_string(side));
      }
}

TEST(Transpose, NaiveOnTheDmmWritesColumnsIntoOneBankTotalCongestionN) {
  // sqrt(n) a multiple of w: every warp writes w cells of one column of b, all in one bank.
  for (const unsigned w : {4u, 16u, 32u})
    for (const unsigned l : {1u, 9u, 100u}) {
      const std::uint64_t side = 2 * w;
      const std::uint64_t n = side * side;
      const std::uint64_t p = 2 * w;
      const auto o = transpose("transpose_naive", "dmm", w, l, p, n);
      check(o, n, "w=" + std::to_string(w));
      // Reads: n/w conflict-free warps; writes: n/w warps of congestion w, n in all.
      EXPECT_EQ(o.result.counters.stages, n / w + n);
      EXPECT_EQ(o.result.counters.max_stages, w);
      // O(n + nl/p): measured against n + nl/p.
      const double order = bound(o, "time_order");
      EXPECT_DOUBLE_EQ(order, n + double(n) * l / p);
      EXPECT_GE(o.result.cycles(), n);
      EXPECT_LE(o.result.cycles(), 2 * order);
    }
}

TEST(Transpose, DiagonalHasCongestionOnePerWarpOnTheDmmAndTheSdmm) {
  for (const unsigned s : {1u, 2u, 4u}) {
    const unsigned w = 8;
    const std::uint64_t side = 64;
    const std::uint64_t n = side * side;
    const std::uint64_t p = 4 * w * s;
    const auto o = transpose("transpose_diagonal", s == 1 ? "dmm" : "sdmm", w, 12, p, n, s);
    check(o, n, "s=" + std::to_string(s));
    EXPECT_EQ(o.result.counters.max_stages, s) << "s requests per bank: congestion ratio 1";
    EXPECT_EQ(o.result.counters.stages, 2 * n / w);
    // O(n/w + nl/p), Theorems 2 and 3.
    EXPECT_LE(o.result.cycles(), 2 * bound(o, "time_order"));
  }
}

TEST(Transpose, NaiveOnTheSdmmFollowsTheTwoCasesOfTheorem3) {
  const unsigned w = 8;
  const std::uint64_t side = 32;
  const std::uint64_t n = side * side;
  // Case 1, s*w <= sqrt(n): a super warp writes s*w cells of one column: congestion n in all.
  const auto small = transpose("transpose_naive", "sdmm", w, 4, 64, n, 2);
  check(small, n, "s*w = 16");
  EXPECT_EQ(small.result.counters.stages, n / w + n);
  // Case 2, s*w > sqrt(n): q = s*w/sqrt(n) = 2 columns per super warp, in two banks:
  // congestion sqrt(n) each time, n*sqrt(n)/(s*w) writes in all.
  const auto large = transpose("transpose_naive", "sdmm", w, 4, 128, n, 8);
  check(large, n, "s*w = 64");
  EXPECT_EQ(large.result.counters.max_stages, side);
  EXPECT_EQ(large.result.counters.stages, n / w + n * side / 64);
}

// Theorem 8: with super warps of log w warps, both run in expected O(n/w + nl/p) on the RSDMM.
// Observed: at most 3.8 (n/w + nl/p) over these cases (4.03 for w = 64, l = 1), about twice
// the congestion ratio at s = log w, since each element is read and written (2n requests).
TEST(Transpose, OnTheRsdmmBothStayWithinASmallConstantOfTheLowerBound) {
  double worst = 0;
  for (const std::string program : {"transpose_naive", "transpose_diagonal"})
    for (const unsigned w : {8u, 16u, 32u}) {
      const auto s = static_cast<unsigned>(std::log2(w));
      for (const std::uint64_t side : {std::uint64_t{s} * w, std::uint64_t{2} * s * w})
        for (const unsigned l : {1u, 32u}) {
          const std::uint64_t n = side * side;
          const std::uint64_t p = std::uint64_t{s} * w * 2;
          const auto o = transpose(program, "rsdmm", w, l, p, n, s);
          const std::string where = program + " w=" + std::to_string(w) +
                                    " n=" + std::to_string(n) + " l=" + std::to_string(l);
          check(o, n, where);
          const double ratio = static_cast<double>(o.result.cycles()) / bound(o, "time_order");
          EXPECT_LE(ratio, 4.5) << where;
          worst = std::max(worst, ratio);
        }
    }
  EXPECT_GT(worst, 2.0) << "the constant is real: reads and writes both count";
  std::cout << "largest cycles / (n/w + nl/p) on the RSDMM: " << worst << "\n";
}

TEST(Transpose, NMustBeASquareAndAMultipleOfP) {
  EXPECT_THROW(transpose("transpose_naive", "dmm", 4, 2, 8, 48), InputError);
  EXPECT_THROW(transpose("transpose_naive", "dmm", 4, 2, 32, 16), InputError);
  EXPECT_THROW(transpose("transpose_diagonal", "dmm", 4, 2, 12, 64), InputError);
}

}  // namespace
}  // namespace mmsim::test
