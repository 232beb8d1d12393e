// Helpers shared by the planning tests.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "sw/planning/edge_coloring.hpp"
#include "sw/planning/permutation.hpp"

namespace mmsim::planning::test {

/// A D-regular bipartite multigraph on m nodes per side: edge e joins e mod m and pi(e) mod m for
/// a random permutation pi of [0, m*D) (the DMM-graph construction; parallel edges are common
/// when D is large compared with m).
inline BipartiteMultigraph random_regular(std::uint32_t m, std::uint32_t degree,
                                          std::uint64_t seed) {
  const Permutation pi = random_permutation(std::uint64_t{m} * degree, seed);
  BipartiteMultigraph g(m);
  for (std::uint64_t e = 0; e < pi.size(); ++e)
    g.add_edge(static_cast<std::uint32_t>(e % m), static_cast<std::uint32_t>(pi[e] % m));
  return g;
}

/// A simple D-regular bipartite graph (D <= m): a relabelled circulant, edges in random order.
inline BipartiteMultigraph random_simple_regular(std::uint32_t m, std::uint32_t degree,
                                                 std::uint64_t seed) {
  const Permutation pu = random_permutation(m, seed), pv = random_permutation(m, seed + 1);
  const Permutation order = random_permutation(std::uint64_t{m} * degree, seed + 2);
  BipartiteMultigraph g(m);
  g.u.resize(order.size());
  g.v.resize(order.size());
  std::uint64_t e = 0;
  for (std::uint32_t a = 0; a < m; ++a)
    for (std::uint32_t k = 0; k < degree; ++k, ++e) {
      g.u[order[e]] = static_cast<std::uint32_t>(pu[a]);
      g.v[order[e]] = static_cast<std::uint32_t>(pv[(a + k) % m]);
    }
  return g;
}

/// True if no two edges of the same colour share a vertex (colours may be any values).
inline bool is_proper(const BipartiteMultigraph& g, const std::vector<std::uint32_t>& color) {
  std::vector<std::vector<std::uint32_t>> at_u(g.nodes_per_side), at_v(g.nodes_per_side);
  for (std::size_t e = 0; e < g.edge_count(); ++e) {
    for (std::uint32_t c : at_u[g.u[e]])
      if (c == color[e]) return false;
    for (std::uint32_t c : at_v[g.v[e]])
      if (c == color[e]) return false;
    at_u[g.u[e]].push_back(color[e]);
    at_v[g.v[e]].push_back(color[e]);
  }
  return true;
}

/// A fresh scratch folder for a test.
inline std::filesystem::path scratch_dir(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::path(MMSIM_PLANNING_TEST_TMP) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

/// The destinations of Nakano 2012, Figure 8 (w = 4): element (i, j) moves to (x, y), as i*4+j ->
/// x*4+y. Rows: (3,0) (3,1) (2,0) (2,1) / (0,1) (0,0) (0,3) (1,3) / (0,2) (1,2) (1,1) (3,2) /
/// (1,0) (3,3) (2,3) (2,2).
inline Permutation figure8_permutation() {
  return {12, 13, 8, 9, 1, 0, 3, 7, 2, 6, 5, 14, 4, 15, 11, 10};
}

}  // namespace mmsim::planning::test
