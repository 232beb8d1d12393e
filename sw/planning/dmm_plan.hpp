// Conflict-free offline permutation on the DMM (seed 000, Lemma 5 and Theorem 6).
//
// For P on [0, n) and width w (w | n) the bipartite multigraph has U = V = {0..w-1} and one edge
// (i mod w, P(i) mod w) per source i; it is n/w-regular, so it has an exact n/w-colouring. The
// schedule s[c][j] is the source whose edge has colour c and U-node j: the w sources of colour c
// lie in w distinct banks and so do their w destinations, so warp step c of
// "a[P(s[c][j])] <- b[s[c][j]]" is bank conflict-free on both sides.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sw/planning/edge_coloring.hpp"

namespace mmsim::planning {

struct DmmPlan {
  std::uint64_t n = 0;
  std::uint64_t w = 0;
  /// source[c*w + j] = s_{c,j}: the source moved by lane j in colour step c (s_{c,j} mod w = j).
  std::vector<std::uint64_t> source;
  /// destination[c*w + j] = P(s_{c,j}).
  std::vector<std::uint64_t> destination;
  ColoringAlgorithm algorithm = ColoringAlgorithm::automatic;  ///< the colouring that ran

  std::uint64_t colors() const noexcept { return w == 0 ? 0 : n / w; }
  std::span<const std::uint64_t> sources_of(std::uint64_t c) const {
    return std::span<const std::uint64_t>(source).subspan(c * w, w);
  }
  std::span<const std::uint64_t> destinations_of(std::uint64_t c) const {
    return std::span<const std::uint64_t>(destination).subspan(c * w, w);
  }
};

/// The DMM graph of P for width w (edge i = source i). Throws PlanError if w = 0, w does not
/// divide n (naming the nearest valid n below and above), or n >= 2^32.
BipartiteMultigraph dmm_graph(std::span<const std::uint64_t> p, std::uint64_t w);

/// Builds the conflict-free schedule. Throws PermutationError if p is not a permutation and
/// PlanError as dmm_graph.
DmmPlan plan_dmm(std::span<const std::uint64_t> p, std::uint64_t w,
                 const ColoringOptions& options = {});

/// Checks the plan against P: sizes, every source exactly once, destination = P(source), and
/// per colour step the sources' banks (mod w) distinct and the destinations' banks distinct.
ColoringCheck check_dmm_plan(const DmmPlan& plan, std::span<const std::uint64_t> p);

/// Executes the plan sequentially as the paper's algorithm does: b <- a, then for every colour
/// step c and lane j, a[P(s)] <- b[s] with s = s_{c,j}. Afterwards a[P(i)] holds the old a[i].
template <class T>
void apply(const DmmPlan& plan, std::vector<T>& a) {
  const std::vector<T> b = a;
  for (std::size_t k = 0; k < plan.source.size(); ++k) a[plan.destination[k]] = b[plan.source[k]];
}

}  // namespace mmsim::planning
