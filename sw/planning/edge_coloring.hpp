// Exact edge colouring of regular bipartite multigraphs (König's theorem, Nakano 2012, Theorem 4).
//
// A graph has two sides U = {0..m-1} and V = {0..m-1} and E edges with ids 0..E-1, edge e joining
// u[e] in U and v[e] in V; parallel edges are allowed. If every vertex has degree D (so E = m*D),
// the edges can be coloured with exactly D colours so that each colour class is a perfect
// matching. Two algorithms do it:
//
//  * matching_decomposition: bucket the edges into the m x m multiplicity matrix, peel perfect
//    matchings off its support with weight = the smallest multiplicity on the matching
//    (Birkhoff-von Neumann), repairing the matching by augmenting paths only where an entry
//    dropped to zero; each peel gives a range of colours to m entries, handed back to the edges
//    by a counting pass. Cost: two passes over the edges + at most min(D, m^2) peels of O(m)
//    each. For few nodes with many parallel edges (the DMM graph: m = w, E = n).
//  * euler_split: D even -> split every vertex's edges into two halves (parallel edges paired
//    directly, the rest by walking Euler circuits) and recurse into two D/2-regular graphs;
//    D odd -> remove one perfect matching (Hopcroft-Karp) first. Cost O(E log D).
//    For many nodes and comparatively low degree (UMM graphs from m = sqrt(n) = 2048 on).
//  * automatic picks one by shape, by a rule fitted to measurements (choose_coloring_algorithm;
//    sw/planning/README.md).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mmsim::planning {

enum class ColoringAlgorithm { automatic, matching_decomposition, euler_split };

std::string_view to_string(ColoringAlgorithm algorithm);
/// "automatic" | "matching_decomposition" | "euler_split"; throws ColoringError otherwise.
ColoringAlgorithm parse_coloring_algorithm(std::string_view name);

/// How euler_split removes a perfect matching when the degree is odd.
enum class OddDegreeMatching {
  hopcroft_karp,  ///< own Hopcroft-Karp on flat arrays (default: fastest, see the benchmark)
  boost_edmonds,  ///< boost::edmonds_maximum_cardinality_matching on a boost::adjacency_list
};

struct ColoringOptions {
  ColoringAlgorithm algorithm = ColoringAlgorithm::automatic;
  OddDegreeMatching odd_matching = OddDegreeMatching::hopcroft_karp;
  /// euler_split: pair parallel edges directly before walking Euler circuits.
  bool pair_parallel_edges = true;
};

/// An edge list over U = V = {0..nodes_per_side-1}.
struct BipartiteMultigraph {
  std::uint32_t nodes_per_side = 0;
  std::vector<std::uint32_t> u;  ///< u[e]: end of edge e in U
  std::vector<std::uint32_t> v;  ///< v[e]: end of edge e in V

  BipartiteMultigraph() = default;
  explicit BipartiteMultigraph(std::uint32_t m) : nodes_per_side(m) {}
  std::size_t edge_count() const noexcept { return u.size(); }
  void add_edge(std::uint32_t a, std::uint32_t b) {
    u.push_back(a);
    v.push_back(b);
  }
};

struct EdgeColoring {
  std::vector<std::uint32_t> color;                            ///< color[e] in [0, colors)
  std::uint32_t colors = 0;                                    ///< = the degree D
  ColoringAlgorithm algorithm = ColoringAlgorithm::automatic;  ///< the one that ran
};

/// The degree D of a regular graph. Throws ColoringError if an end is out of range, if
/// u and v differ in length, or if the graph is not regular (naming the first vertex whose
/// degree differs), or if E >= 2^32.
std::uint32_t regular_degree(std::uint32_t m, std::span<const std::uint32_t> u,
                             std::span<const std::uint32_t> v);

/// What `automatic` picks for m nodes per side and degree D (see the .cpp for the measured rule).
ColoringAlgorithm choose_coloring_algorithm(std::uint32_t m, std::uint64_t degree);

/// Bytes color_edges allocates for m nodes per side and E edges, its colour array of 4 bytes
/// per edge included (an upper bound, for memory estimates; automatic: the algorithm it picks).
std::uint64_t coloring_bytes(std::uint32_t m, std::uint64_t edges, ColoringAlgorithm algorithm);

/// Colours a regular bipartite multigraph with exactly D colours, each class a perfect matching.
/// Throws ColoringError if the graph is not regular. In builds without NDEBUG the result is
/// checked with verify_coloring before it is returned.
EdgeColoring color_edges(std::uint32_t m, std::span<const std::uint32_t> u,
                         std::span<const std::uint32_t> v, const ColoringOptions& options = {});
EdgeColoring color_edges(const BipartiteMultigraph& graph, const ColoringOptions& options = {});

struct ColoringSummary {
  std::uint32_t colors = 0;
  ColoringAlgorithm algorithm = ColoringAlgorithm::automatic;  ///< the one that ran
};
/// The same, writing color[e] into a caller-owned buffer of E entries (lets a caller that colours
/// repeatedly reuse its output memory instead of paying fresh page faults each time).
ColoringSummary color_edges_into(std::uint32_t m, std::span<const std::uint32_t> u,
                                 std::span<const std::uint32_t> v, std::span<std::uint32_t> color,
                                 const ColoringOptions& options = {});
EdgeColoring color_edges(const BipartiteMultigraph& graph, ColoringAlgorithm algorithm);

struct ColoringCheck {
  bool ok = true;
  std::string error;  ///< the first violation found, empty if ok
  explicit operator bool() const noexcept { return ok; }
};

/// Checks that `color` uses exactly `colors` colours (all in range) and that every colour class
/// is a perfect matching: each vertex of U and of V has exactly one edge of each colour.
/// (With E = m * colours this is the same as "exactly D colours, every class perfect".)
ColoringCheck verify_coloring(std::uint32_t m, std::span<const std::uint32_t> u,
                              std::span<const std::uint32_t> v,
                              std::span<const std::uint32_t> color, std::uint32_t colors);
ColoringCheck verify_coloring(const BipartiteMultigraph& graph, const EdgeColoring& coloring);

/// Cross-check of one colour class with Boost.Graph: builds the class as a
/// boost::adjacency_list on 2m vertices, its mate map, and runs
/// boost::maximum_cardinality_matching_verifier; also requires the matching to be perfect.
ColoringCheck boost_verify_color_class(const BipartiteMultigraph& graph,
                                       std::span<const std::uint32_t> color, std::uint32_t c);

/// Baseline: boost::edge_coloring (Misra-Gries, Vizing: at most D+1 colours on a simple graph)
/// on the graph as an undirected boost::adjacency_list with 2m vertices (U then V).
struct MisraGriesColoring {
  std::vector<std::uint32_t> color;  ///< per edge; UINT32_MAX where Boost left an edge uncoloured
  std::uint32_t colors = 0;          ///< what boost::edge_coloring returned (its colour count)
  std::uint32_t colors_used = 0;     ///< 1 + the largest colour on a coloured edge (0 if none)
  std::size_t uncolored = 0;         ///< edges Boost left without a colour
};
MisraGriesColoring color_edges_boost_misra_gries(const BipartiteMultigraph& graph);

}  // namespace mmsim::planning
