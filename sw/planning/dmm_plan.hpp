// Conflict-free offline permutation on the DMM (Nakano 2012, Lemma 5 and Theorem 6).
//
// For P on [0, n) and width w (w | n) the bipartite multigraph has U = V = {0..w-1} and one edge
// (i mod w, P(i) mod w) per source i; it is n/w-regular, so it has an exact n/w-colouring. The
// schedule s[c][j] is the source whose edge has colour c and U-node j: the w sources of colour c
// lie in w distinct banks and so do their w destinations, so warp step c of
// "a[P(s[c][j])] <- b[s[c][j]]" is bank conflict-free on both sides.
//
// The plan keeps the sources only (4 bytes per element; a destination is P of its source), and
// plan_dmm colours the graph without building it: the ends of edge i are computed from P, and
// the colouring writes each source straight into its place in the schedule. Planning n elements
// thus needs the permutation (8 bytes per element), the plan (4) and, with w >= 128, 2 bytes per
// element of colour lists (sw/planning/README.md).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sw/planning/edge_coloring.hpp"

namespace mmsim::planning {

struct DmmPlan {
  std::uint64_t n = 0;
  std::uint64_t w = 0;
  /// source[c*w + j] = s_{c,j}: the source moved by lane j in colour step c (s_{c,j} mod w = j);
  /// it goes to P(s_{c,j}).
  std::vector<std::uint32_t> source;
  ColoringAlgorithm algorithm = ColoringAlgorithm::automatic;  ///< the colouring that ran

  std::uint64_t colors() const noexcept { return w == 0 ? 0 : n / w; }
  std::span<const std::uint32_t> sources_of(std::uint64_t c) const {
    return std::span<const std::uint32_t>(source).subspan(c * w, w);
  }
};

/// Throws PlanError unless a DMM plan can be made for n elements and width w: w = 0, w does not
/// divide n (naming the nearest valid n below and above), or n >= 2^32 - 1.
void check_dmm_size(std::uint64_t n, std::uint64_t w);

/// The DMM graph of P for width w (edge i = source i). Throws PlanError as check_dmm_size.
BipartiteMultigraph dmm_graph(std::span<const std::uint64_t> p, std::uint64_t w);

/// Builds the conflict-free schedule. Throws PermutationError if p is not a permutation and
/// PlanError as dmm_graph.
DmmPlan plan_dmm(std::span<const std::uint64_t> p, std::uint64_t w,
                 const ColoringOptions& options = {});

/// Bytes plan_dmm allocates for n elements and width w besides the permutation, the plan's
/// 4 bytes per element included (an upper bound, for memory estimates). `algorithm` as in the
/// options (automatic: the one it picks).
std::uint64_t dmm_plan_bytes(std::uint64_t n, std::uint64_t w, ColoringAlgorithm algorithm);

/// Checks the plan against P: sizes, every source exactly once, and per colour step the
/// sources' banks (mod w) distinct and the destinations' banks (P(source) mod w) distinct.
ColoringCheck check_dmm_plan(const DmmPlan& plan, std::span<const std::uint64_t> p);

/// Executes the plan sequentially as the paper's algorithm does: b <- a, then for every colour
/// step c and lane j, a[P(s)] <- b[s] with s = s_{c,j}. Afterwards a[P(i)] holds the old a[i].
template <class T>
void apply(const DmmPlan& plan, std::span<const std::uint64_t> p, std::vector<T>& a) {
  const std::vector<T> b = a;
  for (const std::uint32_t s : plan.source) a[p[s]] = b[s];
}

}  // namespace mmsim::planning
