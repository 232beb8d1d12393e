#include "sw/planning/umm_plan.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "hw/support/huge_pages.hpp"
#include "sw/planning/permutation.hpp"
#include "sw/support/integer_sqrt.hpp"

namespace mmsim::planning {

namespace {

// x*x if it fits in 64 bits, else 0.
std::uint64_t square_or_zero(std::uint64_t x) noexcept {
  if (x != 0 && x > std::numeric_limits<std::uint64_t>::max() / x) return 0;
  return x * x;
}

class UmmPlanner {
 public:
  UmmPlanner(UmmPlan& plan, const ColoringOptions& options) : plan_(plan), options_(options) {}

  // Appends the steps of a row-wise permutation with rows of length len = w^(2^k): the element
  // at r*len + j goes to r*len + perm[r*len + j].
  void rowwise(std::vector<std::uint32_t> perm, std::uint64_t len, unsigned level) {
    if (len == plan_.w) {  // base case: emitted at the depth of the decomposition it is part of
      plan_.steps.push_back(UmmStep{UmmStep::Kind::row_permutation, len, std::move(perm),
                                    level == 0 ? 0 : level - 1});
      return;
    }
    FiveSteps steps = five_steps(perm, len, options_);
    perm.clear();
    perm.shrink_to_fit();
    rowwise(std::move(steps.first), steps.side, level + 1);
    plan_.steps.push_back(UmmStep{UmmStep::Kind::transpose, steps.side, {}, level});
    rowwise(std::move(steps.middle), steps.side, level + 1);
    plan_.steps.push_back(UmmStep{UmmStep::Kind::transpose, steps.side, {}, level});
    rowwise(std::move(steps.last), steps.side, level + 1);
  }

 private:
  UmmPlan& plan_;
  const ColoringOptions& options_;
};

}  // namespace

FiveSteps five_steps(std::span<const std::uint32_t> perm, std::uint64_t len,
                     const ColoringOptions& options) {
  const std::uint64_t n = perm.size();
  const auto side = static_cast<std::uint32_t>(integer_sqrt(len));
  if (len == 0 || std::uint64_t{side} * side != len || n % len != 0)
    throw PlanError(fmt::format(
        "five-step decomposition: rows of length {} are not side x side blocks of {} elements", len,
        n));
  FiveSteps steps{.side = side, .first = {}, .middle = {}, .last = {}};
  for (std::vector<std::uint32_t>* step : {&steps.first, &steps.middle, &steps.last})
    resize_on_huge_pages(*step, n);
  // The graph of one row (source rows against destination rows of its side x side view) and its
  // side-colouring: every source row's elements get distinct colours, each colour class holds
  // one element per destination row.
  BipartiteMultigraph g(side);
  g.u.resize(len);
  g.v.resize(len);
  for (std::uint64_t base = 0; base < n; base += len) {
    const std::uint32_t* q = perm.data() + base;
    for (std::uint64_t x = 0; x < len; ++x) {
      g.u[x] = static_cast<std::uint32_t>(x / side);     // source row
      g.v[x] = static_cast<std::uint32_t>(q[x] / side);  // destination row
    }
    const EdgeColoring coloring = color_edges(g, options);
    for (std::uint64_t x = 0; x < len; ++x) {
      const std::uint32_t c = coloring.color[x];
      const std::uint32_t i = g.u[x];
      const std::uint32_t drow = g.v[x];
      const std::uint32_t dcol = q[x] % side;
      steps.first[base + x] = c;                                 // step 1: to column c
      steps.middle[base + std::uint64_t{c} * side + i] = drow;   // step 3: row c, column i
      steps.last[base + std::uint64_t{drow} * side + c] = dcol;  // step 5: row drow, column c
    }
  }
  return steps;
}

std::uint64_t five_steps_bytes(std::uint64_t n, std::uint64_t len, ColoringAlgorithm algorithm) {
  const auto side = static_cast<std::uint32_t>(integer_sqrt(len));
  // Steps 1, 3 and 5 (4 bytes per element each), one row's graph (8 per element of a row) and
  // its colouring.
  return 12 * n + 8 * len + coloring_bytes(side, len, algorithm);
}

std::size_t UmmPlan::row_permutation_steps() const noexcept {
  std::size_t k = 0;
  for (const UmmStep& s : steps) k += s.kind == UmmStep::Kind::row_permutation;
  return k;
}

std::size_t UmmPlan::transpose_steps() const noexcept {
  return steps.size() - row_permutation_steps();
}

std::uint64_t umm_plan_bytes(std::uint64_t n, std::uint64_t w, ColoringAlgorithm algorithm) {
  if (!is_umm_size(n, w) || n > std::numeric_limits<std::uint32_t>::max()) return 0;
  // k levels of five-step decompositions: 3^k row-wise steps of 4 bytes per element.
  std::uint64_t row_steps = 1;
  for (std::uint64_t len = w; len < n; len *= len) row_steps *= 3;
  const std::uint64_t plan = 4 * n * row_steps;
  if (n == w) return plan + 4 * n;
  // The top level: its input row permutation (4 bytes per element) and the five steps.
  const std::uint64_t top = 4 * n + five_steps_bytes(n, n, algorithm);
  // Deeper levels: the plan so far, the pending steps 3 and 5 of every level above and the
  // current level's input and steps (at most 24 bytes per element besides the plan).
  return std::max(top, plan + 24 * n);
}

bool is_umm_size(std::uint64_t n, std::uint64_t w) noexcept {
  if (w < 2) return false;
  for (std::uint64_t s = w; s != 0 && s <= n; s = square_or_zero(s))
    if (s == n) return true;
  return false;
}

std::pair<std::uint64_t, std::uint64_t> nearest_umm_sizes(std::uint64_t n,
                                                          std::uint64_t w) noexcept {
  if (w < 2) return {0, 0};
  std::uint64_t below = 0, s = w;
  while (s != 0 && s < n) {
    below = s;
    s = square_or_zero(s);
  }
  if (s == n) return {n, n};
  return {below, s};
}

void check_umm_size(std::uint64_t n, std::uint64_t w) {
  if (w < 2) throw PlanError(fmt::format("UMM plan: the width w must be at least 2, got {}", w));
  if (!is_umm_size(n, w)) {
    const auto [below, above] = nearest_umm_sizes(n, w);
    const std::string lo = below ? fmt::format("n = {}", below) : std::string("none");
    const std::string hi = above ? fmt::format("n = {}", above) : std::string("none in 64 bits");
    throw PlanError(fmt::format(
        "UMM plan: n = {} is not w^(2^k) for w = {} (w, w^2, w^4, ...); nearest valid sizes: "
        "{} below, {} above",
        n, w, lo, hi));
  }
  if (n > std::numeric_limits<std::uint32_t>::max())
    throw PlanError(fmt::format("UMM plan: n = {} is too large (at most 2^32-1)", n));
}

UmmPlan plan_umm(std::span<const std::uint64_t> p, std::uint64_t w,
                 const ColoringOptions& options) {
  const std::uint64_t n = p.size();
  check_umm_size(n, w);
  validate_permutation(p);
  UmmPlan plan;
  plan.n = n;
  plan.w = w;
  std::vector<std::uint32_t> top;
  resize_on_huge_pages(top, p.size());
  std::copy(p.begin(), p.end(), top.begin());
  UmmPlanner(plan, options).rowwise(std::move(top), n, 0);
  return plan;
}

}  // namespace mmsim::planning
