#include <numeric>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "sw/planning/dmm_plan.hpp"
#include "sw/planning/errors.hpp"
#include "sw/planning/permutation.hpp"
#include "test_support.hpp"

namespace mmsim::planning {
namespace {

// The invariants of Nakano 2012, Lemma 5, checked directly (independently of check_dmm_plan).
void expect_lemma5(const DmmPlan& plan, const Permutation& p, std::uint64_t w) {
  const std::uint64_t n = p.size();
  ASSERT_EQ(plan.n, n);
  ASSERT_EQ(plan.w, w);
  ASSERT_EQ(plan.colors(), n / w);
  std::vector<int> seen(n, 0);
  for (std::uint64_t c = 0; c < n / w; ++c) {
    std::set<std::uint64_t> read_banks, write_banks;
    for (std::uint64_t j = 0; j < w; ++j) {
      const std::uint64_t s = plan.source[c * w + j];
      ASSERT_LT(s, n);
      ++seen[s];
      EXPECT_EQ(s % w, j) << "lane j moves a source of U-node j";
      read_banks.insert(s % w);
      write_banks.insert(p[s] % w);
    }
    EXPECT_EQ(read_banks.size(), w) << "colour " << c << ": sources in distinct banks";
    EXPECT_EQ(write_banks.size(), w) << "colour " << c << ": destinations in distinct banks";
  }
  for (std::uint64_t i = 0; i < n; ++i) EXPECT_EQ(seen[i], 1) << "source " << i;
  const ColoringCheck check = check_dmm_plan(plan, p);
  EXPECT_TRUE(check.ok) << check.error;
  // executing the plan permutes the array
  std::vector<std::uint64_t> a(n);
  std::iota(a.begin(), a.end(), 1000);
  std::vector<std::uint64_t> expected(n);
  for (std::uint64_t i = 0; i < n; ++i) expected[p[i]] = a[i];
  apply(plan, p, a);
  EXPECT_EQ(a, expected);
}

struct Named {
  const char* name;
  Permutation p;
};

TEST(DmmPlan, InvariantsForTheStandardPermutations) {
  for (std::uint64_t w : {4u, 8u, 32u}) {
    const std::uint64_t n = 1024;
    const Named perms[] = {
        {"random", random_permutation(n, 11)},   {"bit_reversal", bit_reversal_permutation(n)},
        {"transpose", transpose_permutation(n)}, {"identity", identity_permutation(n)},
        {"stride", stride_permutation(n, 16)},
    };
    for (const Named& named : perms)
      for (ColoringAlgorithm a :
           {ColoringAlgorithm::automatic, ColoringAlgorithm::matching_decomposition,
            ColoringAlgorithm::euler_split}) {
        SCOPED_TRACE(std::string(named.name) + " w=" + std::to_string(w) + " " +
                     std::string(to_string(a)));
        ColoringOptions options;
        options.algorithm = a;
        expect_lemma5(plan_dmm(named.p, w, options), named.p, w);
      }
  }
}

TEST(DmmPlan, Figure8PermutationWithW4) {
  const Permutation p = test::figure8_permutation();
  const DmmPlan plan = plan_dmm(p, 4);
  expect_lemma5(plan, p, 4);
  EXPECT_EQ(plan.colors(), 4u);
}

TEST(DmmPlan, NonPowerOfTwoSizesAndWidths) {
  expect_lemma5(plan_dmm(random_permutation(60, 1), 6), random_permutation(60, 1), 6);
  expect_lemma5(plan_dmm(random_permutation(35, 2), 5), random_permutation(35, 2), 5);
  expect_lemma5(plan_dmm(random_permutation(7, 3), 7), random_permutation(7, 3), 7);  // n = w
  expect_lemma5(plan_dmm(random_permutation(9, 4), 1), random_permutation(9, 4), 1);  // w = 1
}

TEST(DmmPlan, LargerRandom) {
  const Permutation p = random_permutation(1u << 16, 99);
  expect_lemma5(plan_dmm(p, 32), p, 32);
  expect_lemma5(plan_dmm(p, 256), p, 256);
}

// plan_dmm colours without building the graph and writes the schedule directly (row by row for
// D <= 2^16, by the colouring's hand-back pass above); the schedule is the one the colouring of
// the built graph gives.
TEST(DmmPlan, SameScheduleAsTheColouringOfTheBuiltGraph) {
  for (const auto& [n, w] : {std::pair<std::uint64_t, std::uint64_t>{1u << 16, 4},
                             {1u << 16, 32},
                             {1u << 16, 256},
                             {6u << 12, 6},
                             {1u << 18, 2},     // D = 2^17: the hand-back pass
                             {3u << 17, 3}}) {  // the same with w not a power of two
    SCOPED_TRACE("n = " + std::to_string(n) + ", w = " + std::to_string(w));
    const Permutation p = random_permutation(n, n + w);
    ColoringOptions options;
    options.algorithm = ColoringAlgorithm::matching_decomposition;
    const DmmPlan plan = plan_dmm(p, w, options);
    const EdgeColoring coloring = color_edges(dmm_graph(p, w), options);
    std::vector<std::uint32_t> expected(n);
    for (std::uint64_t i = 0; i < n; ++i)
      expected[std::uint64_t{coloring.color[i]} * w + i % w] = static_cast<std::uint32_t>(i);
    EXPECT_EQ(plan.source, expected);
    EXPECT_TRUE(check_dmm_plan(plan, p).ok);
  }
}

// With many entries (w >= 128) the plan lists each entry's sources as 16-bit gaps between rows;
// the bit reversal of 2^24 elements on w = 128 puts the first source of some entries 2^16 rows
// or more from row 0, so the plan takes the hand-back pass instead, and is still exact.
TEST(DmmPlan, WideGapsBetweenRowsFallBackToTheHandBackPass) {
  const Permutation p = bit_reversal_permutation(1u << 24);
  const DmmPlan plan = plan_dmm(p, 128);
  EXPECT_EQ(plan.algorithm, ColoringAlgorithm::matching_decomposition);
  const ColoringCheck check = check_dmm_plan(plan, p);
  EXPECT_TRUE(check.ok) << check.error;
}

TEST(DmmPlan, Errors) {
  try {
    plan_dmm(identity_permutation(10), 4);
    ADD_FAILURE();
  } catch (const PlanError& e) {
    EXPECT_EQ(std::string(e.what()),
              "DMM plan: n = 10 is not a multiple of w = 4 (the plan moves n/w full warps); "
              "the nearest valid sizes are 8 and 12");
  }
  EXPECT_THROW(plan_dmm(identity_permutation(8), 0), PlanError);
  EXPECT_THROW(plan_dmm(Permutation{0, 0, 1, 2}, 2), PermutationError);
  // the same first problem as validate_permutation names, whichever way the plan checks
  for (const ColoringAlgorithm a :
       {ColoringAlgorithm::matching_decomposition, ColoringAlgorithm::euler_split}) {
    ColoringOptions options;
    options.algorithm = a;
    for (const Permutation& bad : {Permutation{0, 3, 1, 3}, Permutation{0, 9, 1, 2}}) {
      try {
        plan_dmm(bad, 2, options);
        ADD_FAILURE();
      } catch (const PermutationError& e) {
        try {
          validate_permutation(bad);
          ADD_FAILURE() << "not a permutation";
        } catch (const PermutationError& expected) {
          EXPECT_EQ(std::string(e.what()), std::string(expected.what()));
        }
      }
    }
  }
}

TEST(DmmPlan, CheckRejectsBrokenPlans) {
  const Permutation p = random_permutation(64, 5);
  const DmmPlan good = plan_dmm(p, 8);
  {
    DmmPlan bad = good;  // two sources of one colour step in the same bank
    std::swap(bad.source[0], bad.source[8 + 1]);
    const ColoringCheck c = check_dmm_plan(bad, p);
    EXPECT_FALSE(c.ok);
    EXPECT_NE(c.error.find("read bank conflict"), std::string::npos) << c.error;
  }
  {
    DmmPlan bad = good;
    bad.source[3] = 64;
    const ColoringCheck c = check_dmm_plan(bad, p);
    EXPECT_FALSE(c.ok);
    EXPECT_EQ(c.error, "colour 0 lane 3: source 64 out of range");
  }
  {
    DmmPlan bad = good;
    bad.source[5] = bad.source[4];
    EXPECT_FALSE(check_dmm_plan(bad, p).ok);
  }
}

}  // namespace
}  // namespace mmsim::planning
