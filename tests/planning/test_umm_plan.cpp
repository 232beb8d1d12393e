#include <numeric>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "sw/planning/errors.hpp"
#include "sw/planning/permutation.hpp"
#include "sw/planning/umm_plan.hpp"
#include "test_support.hpp"

namespace mmsim::planning {
namespace {

std::vector<std::uint64_t> permuted_iota(const Permutation& p) {
  std::vector<std::uint64_t> expected(p.size());
  for (std::uint64_t i = 0; i < p.size(); ++i) expected[p[i]] = i;
  return expected;
}

void expect_plan_permutes(const Permutation& p, std::uint64_t w, ColoringAlgorithm a) {
  SCOPED_TRACE("n=" + std::to_string(p.size()) + " w=" + std::to_string(w) + " " +
               std::string(to_string(a)));
  ColoringOptions options;
  options.algorithm = a;
  const UmmPlan plan = plan_umm(p, w, options);
  std::vector<std::uint64_t> a0(p.size());
  std::iota(a0.begin(), a0.end(), 0);
  EXPECT_EQ(apply(plan, a0), permuted_iota(p));
  for (const UmmStep& s : plan.steps)
    if (s.kind == UmmStep::Kind::row_permutation) {
      EXPECT_EQ(s.length, w) << "base rows have length w";
    }
}

TEST(UmmPlan, StructureForWSquared) {
  const UmmPlan plan = plan_umm(random_permutation(16, 1), 4);
  ASSERT_EQ(plan.steps.size(), 5u);
  using K = UmmStep::Kind;
  const K kinds[] = {K::row_permutation, K::transpose, K::row_permutation, K::transpose,
                     K::row_permutation};
  for (int k = 0; k < 5; ++k) {
    EXPECT_EQ(plan.steps[k].kind, kinds[k]);
    EXPECT_EQ(plan.steps[k].length, 4u);
    EXPECT_EQ(plan.steps[k].level, 0u);
  }
}

TEST(UmmPlan, StructureForWToTheFourth) {
  // n = w^4: each of the three row-wise permutations of rows of length w^2 is itself five
  // steps: 3*5 + 2 = 17 steps, 9 row-wise (rows of length w), 6 transposes of w x w blocks
  // and 2 transposes of the whole w^2 x w^2 array.
  const UmmPlan plan = plan_umm(random_permutation(256, 2), 4);
  EXPECT_EQ(plan.steps.size(), 17u);
  EXPECT_EQ(plan.row_permutation_steps(), 9u);
  EXPECT_EQ(plan.transpose_steps(), 8u);
  EXPECT_EQ(plan.steps[5].kind, UmmStep::Kind::transpose);
  EXPECT_EQ(plan.steps[5].length, 16u);
  EXPECT_EQ(plan.steps[5].level, 0u);
  EXPECT_EQ(plan.steps[1].length, 4u);
  EXPECT_EQ(plan.steps[1].level, 1u);
  EXPECT_EQ(plan.steps[0].level, 1u);
}

TEST(UmmPlan, NEqualsWIsOneRowStep) {
  const Permutation p = random_permutation(8, 3);
  const UmmPlan plan = plan_umm(p, 8);
  ASSERT_EQ(plan.steps.size(), 1u);
  EXPECT_EQ(plan.steps[0].perm, std::vector<std::uint32_t>(p.begin(), p.end()));
  expect_plan_permutes(p, 8, ColoringAlgorithm::automatic);
}

// Figure 8 of Nakano 2012: check the paper's claims about the intermediate arrays.
TEST(UmmPlan, Figure8DataMovement) {
  const Permutation p = test::figure8_permutation();
  const UmmPlan plan = plan_umm(p, 4);
  ASSERT_EQ(plan.steps.size(), 5u);
  // a[i][j] initially holds its destination (x, y) as x*4+y.
  std::vector<std::uint64_t> a(p.begin(), p.end()), b(16);
  auto row_dest_rows = [&](const std::vector<std::uint64_t>& arr, int row) {
    std::set<std::uint64_t> s;
    for (int j = 0; j < 4; ++j) s.insert(arr[row * 4 + j] / 4);
    return s;
  };
  apply_step(plan.steps[0], a, b);  // Step 1: colour c to column c
  a.swap(b);
  // After Step 1 the four destinations in each column have distinct destination rows.
  for (int col = 0; col < 4; ++col) {
    std::set<std::uint64_t> s;
    for (int i = 0; i < 4; ++i) s.insert(a[i * 4 + col] / 4);
    EXPECT_EQ(s.size(), 4u) << "column " << col;
  }
  apply_step(plan.steps[1], a, b);  // Step 2: transpose
  a.swap(b);
  for (int row = 0; row < 4; ++row) EXPECT_EQ(row_dest_rows(a, row).size(), 4u);
  apply_step(plan.steps[2], a, b);  // Step 3: destination row x to column x
  a.swap(b);
  for (int i = 0; i < 4; ++i)
    for (int x = 0; x < 4; ++x) EXPECT_EQ(a[i * 4 + x] / 4, std::uint64_t(x));
  apply_step(plan.steps[3], a, b);  // Step 4: transpose: row x holds row x's destinations
  a.swap(b);
  for (int x = 0; x < 4; ++x)
    EXPECT_EQ(row_dest_rows(a, x), (std::set<std::uint64_t>{std::uint64_t(x)}));
  apply_step(plan.steps[4], a, b);  // Step 5: to the destination column
  a.swap(b);
  for (std::uint64_t k = 0; k < 16; ++k) EXPECT_EQ(a[k], k);
}

TEST(UmmPlan, SmallWidthsAllPermutations) {
  for (ColoringAlgorithm a :
       {ColoringAlgorithm::automatic, ColoringAlgorithm::matching_decomposition,
        ColoringAlgorithm::euler_split}) {
    for (std::uint64_t w : {2u, 3u, 4u}) {
      for (std::uint64_t n : {w * w, w * w * w * w}) {
        expect_plan_permutes(random_permutation(n, n + w), w, a);
        expect_plan_permutes(identity_permutation(n), w, a);
        expect_plan_permutes(transpose_permutation(n), w, a);
        if (std::has_single_bit(n)) expect_plan_permutes(bit_reversal_permutation(n), w, a);
      }
    }
    expect_plan_permutes(random_permutation(256, 7), 2, a);     // 2^8 = 2^(2^3)
    expect_plan_permutes(random_permutation(65536, 8), 2, a);   // 2^16 = 2^(2^4)
    expect_plan_permutes(random_permutation(65536, 9), 16, a);  // 16^4
  }
}

TEST(UmmPlan, WToTheEighth) {
  expect_plan_permutes(random_permutation(6561, 10), 3, ColoringAlgorithm::automatic);  // 3^8
}

TEST(UmmPlan, SizeErrorsNameTheNearestValidSizes) {
  try {
    plan_umm(identity_permutation(100), 4);
    ADD_FAILURE();
  } catch (const PlanError& e) {
    EXPECT_EQ(std::string(e.what()),
              "UMM plan: n = 100 is not w^(2^k) for w = 4 (w, w^2, w^4, ...); nearest valid "
              "sizes: n = 16 below, n = 256 above");
  }
  try {
    plan_umm(identity_permutation(2), 4);
    ADD_FAILURE();
  } catch (const PlanError& e) {
    EXPECT_EQ(std::string(e.what()),
              "UMM plan: n = 2 is not w^(2^k) for w = 4 (w, w^2, w^4, ...); nearest valid "
              "sizes: none below, n = 4 above");
  }
  try {
    plan_umm(identity_permutation(64), 4);  // 4^3 is not 4^(2^k)
    ADD_FAILURE();
  } catch (const PlanError& e) {
    EXPECT_NE(std::string(e.what()).find("n = 16 below, n = 256 above"), std::string::npos);
  }
  EXPECT_THROW(plan_umm(identity_permutation(1), 1), PlanError);
  EXPECT_THROW(plan_umm(Permutation{0, 0, 1, 2}, 2), PermutationError);
  EXPECT_TRUE(is_umm_size(65536, 16));
  EXPECT_TRUE(is_umm_size(65536, 2));
  EXPECT_FALSE(is_umm_size(4096, 4));  // 4^6
  EXPECT_EQ(nearest_umm_sizes(1000, 32), (std::pair<std::uint64_t, std::uint64_t>{32, 1024}));
  EXPECT_EQ(nearest_umm_sizes(1u << 21, 32),
            (std::pair<std::uint64_t, std::uint64_t>{1u << 20, std::uint64_t{1} << 40}));
  EXPECT_EQ(nearest_umm_sizes(~std::uint64_t{0}, 1u << 16),
            (std::pair<std::uint64_t, std::uint64_t>{std::uint64_t{1} << 32, 0}));
}

TEST(UmmPlan, ApplyRejectsWrongSize) {
  const UmmPlan plan = plan_umm(identity_permutation(16), 4);
  EXPECT_THROW(apply(plan, std::vector<int>(15)), PlanError);
}

}  // namespace
}  // namespace mmsim::planning

namespace mmsim::planning {
namespace {

TEST(UmmPlan, FiveStepsOfAnySquareRealiseItsRowPermutation) {
  // Rows of 36 = 6 x 6 words (no power of w needed) and of 64 = 8 x 8: steps 1, 3 and 5 stay in
  // rows of the side, and with a transpose of every side x side block after the first two they
  // move every element where the row permutation says.
  struct Shape {
    std::uint64_t rows, len;
  };
  for (const Shape shape : {Shape{1, 36}, Shape{3, 36}, Shape{2, 64}}) {
    const std::uint64_t rows = shape.rows, len = shape.len, n = rows * len;
    std::vector<std::uint32_t> perm(n);
    for (std::uint64_t r = 0; r < rows; ++r) {
      const Permutation p = random_permutation(len, 7 + r);
      for (std::uint64_t j = 0; j < len; ++j) perm[r * len + j] = static_cast<std::uint32_t>(p[j]);
    }
    const FiveSteps steps = five_steps(perm, len);
    const std::uint64_t side = steps.side;
    EXPECT_EQ(side * side, len);
    UmmPlan plan;
    plan.n = n;
    plan.w = side;
    for (const auto* step : {&steps.first, &steps.middle, &steps.last}) {
      if (!plan.steps.empty()) plan.steps.push_back(UmmStep{UmmStep::Kind::transpose, side, {}, 0});
      plan.steps.push_back(UmmStep{UmmStep::Kind::row_permutation, side, *step, 0});
      for (std::uint64_t x = 0; x < n; ++x) EXPECT_LT((*step)[x], side);
    }
    Permutation whole(n);
    for (std::uint64_t x = 0; x < n; ++x) whole[x] = x / len * len + perm[x];
    std::vector<std::uint64_t> a0(n);
    std::iota(a0.begin(), a0.end(), 0);
    EXPECT_EQ(planning::apply(plan, a0), permuted_iota(whole)) << rows << " rows of " << len;
  }
  EXPECT_THROW(five_steps(std::vector<std::uint32_t>(32), 32), PlanError);
}

}  // namespace
}  // namespace mmsim::planning
