// Offline permutation on the UMM by row-wise permutations and transposes
// (Nakano 2012, Lemma 7 and Theorem 8).
//
// n = w^2: view the array as w x w (element (i, j) at i*w + j). Colour the bipartite graph with
// U = source rows, V = destination rows, one edge per element, with w colours: each source row's
// w elements get distinct colours and each colour class holds one element per destination row.
//   Step 1 (row-wise): in every row, the element of colour c moves to column c.
//   Step 2: transpose. Row c now holds colour class c: w distinct destination rows.
//   Step 3 (row-wise): the element with destination row x moves to column x.
//   Step 4: transpose. Row x now holds exactly the elements destined for row x.
//   Step 5 (row-wise): every element moves to its destination column.
// (The paper's text names U "columns", but its Step 1 and Figure 8 need the w words of a row to
// have distinct colours, i.e. U = source rows; that is what is implemented.)
//
// n = w^(2^k), k >= 1: the same on the sqrt(n) x sqrt(n) view (sqrt(n) nodes per side, n edges),
// each row-wise permutation of rows of length sqrt(n) being planned recursively, down to rows of
// length w, which are permuted directly. n = w is a single row-wise step.
//
// The plan is a flat list of steps over the whole array; a recursive row-wise permutation of
// rows of length L = r*r becomes its own five steps applied to every row at once (row-wise steps
// with rows of length r, transposes of each consecutive r x r block).
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "sw/planning/edge_coloring.hpp"
#include "sw/planning/errors.hpp"

namespace mmsim::planning {

struct UmmStep {
  enum class Kind { row_permutation, transpose };
  Kind kind = Kind::row_permutation;
  /// row_permutation: the row length L (rows are r*L .. r*L+L-1).
  /// transpose: the side R; every consecutive block of R*R elements is transposed on its own.
  std::uint64_t length = 0;
  /// row_permutation: size n; the element at r*L + j moves to r*L + perm[r*L + j].
  std::vector<std::uint32_t> perm;
  /// Depth of the five-step decomposition that produced the step (0: the top-level one; for
  /// n = w^4 the row-wise steps of rows of length w^2 expand into steps of depth 1).
  unsigned level = 0;
};

struct UmmPlan {
  std::uint64_t n = 0;
  std::uint64_t w = 0;
  std::vector<UmmStep> steps;

  std::size_t row_permutation_steps() const noexcept;
  std::size_t transpose_steps() const noexcept;
};

/// True if n = w^(2^k) for some k >= 0 (w >= 2).
bool is_umm_size(std::uint64_t n, std::uint64_t w) noexcept;
/// The valid sizes w^(2^k) nearest to n: the largest <= n (0 if none) and the smallest >= n (0 if
/// it does not fit in 64 bits).
std::pair<std::uint64_t, std::uint64_t> nearest_umm_sizes(std::uint64_t n,
                                                          std::uint64_t w) noexcept;

/// Throws PlanError unless a UMM plan can be made for n elements and width w: w < 2, n is not
/// w^(2^k) (the message gives the nearest valid sizes below and above) or n >= 2^32.
void check_umm_size(std::uint64_t n, std::uint64_t w);

/// Plans P. Throws PlanError as check_umm_size, PermutationError if p is not a permutation.
UmmPlan plan_umm(std::span<const std::uint64_t> p, std::uint64_t w,
                 const ColoringOptions& options = {});

/// Bytes plan_umm allocates for n = w^(2^k) elements at its peak, the plan included (an upper
/// bound, for memory estimates; 0 for sizes it rejects).
std::uint64_t umm_plan_bytes(std::uint64_t n, std::uint64_t w, ColoringAlgorithm algorithm);

/// One level of Lemma 7: a row-wise permutation with rows of length len = side*side (the element
/// at r*len + j goes to r*len + perm[r*len + j]) as steps 1, 3 and 5 above, three row-wise
/// permutations with rows of length side; with a transpose of every side x side block after the
/// first and after the second they realise perm. plan_umm applies it recursively; a machine that
/// permutes rows of length side in one step (the hierarchical machine's shared memory) uses the
/// top level alone (len = n).
struct FiveSteps {
  std::uint64_t side = 0;
  std::vector<std::uint32_t> first, middle, last;  // steps 1, 3 and 5, rows of length side
};
/// Throws PlanError unless len is a perfect square dividing perm.size().
FiveSteps five_steps(std::span<const std::uint32_t> perm, std::uint64_t len,
                     const ColoringOptions& options = {});
/// Bytes five_steps allocates for n elements and rows of length len at its peak, its three
/// steps included (an upper bound, for memory estimates).
std::uint64_t five_steps_bytes(std::uint64_t n, std::uint64_t len, ColoringAlgorithm algorithm);

/// Executes one step (out must have the size of in).
template <class T>
void apply_step(const UmmStep& step, const std::vector<T>& in, std::vector<T>& out) {
  const std::size_t n = in.size();
  const std::size_t len = step.length;
  if (step.kind == UmmStep::Kind::row_permutation) {
    for (std::size_t base = 0; base < n; base += len)
      for (std::size_t j = 0; j < len; ++j) out[base + step.perm[base + j]] = in[base + j];
  } else {
    const std::size_t block = len * len;
    for (std::size_t base = 0; base < n; base += block)
      for (std::size_t i = 0; i < len; ++i)
        for (std::size_t j = 0; j < len; ++j) out[base + j * len + i] = in[base + i * len + j];
  }
}

/// Executes the plan sequentially on a; the result r has r[P(i)] = a[i].
template <class T>
std::vector<T> apply(const UmmPlan& plan, std::vector<T> a) {
  if (a.size() != plan.n)
    throw PlanError("UMM plan for n = " + std::to_string(plan.n) + " applied to an array of " +
                    std::to_string(a.size()) + " elements");
  std::vector<T> b(a.size());
  for (const UmmStep& step : plan.steps) {
    apply_step(step, a, b);
    a.swap(b);
  }
  return a;
}

}  // namespace mmsim::planning
