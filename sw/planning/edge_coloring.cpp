#include "sw/planning/edge_coloring.hpp"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cstdlib>
#include <limits>
#include <memory>
#include <new>
#include <numeric>
#include <type_traits>

// Boost's matching verifier trips GCC 12's -Wmaybe-uninitialized inside its own header.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/edge_coloring.hpp>
#include <boost/graph/max_cardinality_matching.hpp>
#pragma GCC diagnostic pop
#include <fmt/format.h>

#include "sw/planning/errors.hpp"
#include "hw/support/huge_pages.hpp"
#include "sw/planning/matching_decomposition.hpp"

namespace mmsim::planning {

namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

void check_sizes(std::span<const std::uint32_t> u, std::span<const std::uint32_t> v) {
  if (u.size() != v.size())
    throw ColoringError(
        fmt::format("edge list ends differ in length: {} in U, {} in V", u.size(), v.size()));
  if (u.size() >= std::uint64_t{kNone})
    throw ColoringError(fmt::format("{} edges: at most 2^32-1 edges are supported", u.size()));
}

// ------------------------------------------------------------------------------------------
// recursive Euler splitting
// ------------------------------------------------------------------------------------------

class EulerSplitColorer {
 public:
  EulerSplitColorer(std::uint32_t m, std::span<const std::uint32_t> u,
                    std::span<const std::uint32_t> v, const ColoringOptions& options,
                    std::uint32_t* color)
      : m_(m),
        edges_(u.size()),
        options_(options),
        color_(color),
        eu_(u.begin(), u.end()),
        ev_(v.begin(), v.end()),
        eid_(edges_),
        tu_(edges_),
        tv_(edges_),
        tid_(edges_),
        adj_u_(edges_),
        adj_v_(edges_),
        state_(edges_),
        fill_u_(m),
        fill_v_(m),
        pair_stamp_(m, 0),
        pair_edge_(m),
        mate_v_(m),
        mate_edge_(m),
        dist_(m),
        iter_(m),
        stack_(m),
        queue_(m) {
    std::iota(eid_.begin(), eid_.end(), 0u);
  }

  void run(std::uint32_t degree) { solve(0, edges_, degree, 0); }

 private:
  static constexpr std::uint8_t kUnused = 0, kHalf0 = 1, kHalf1 = 2;

  // One adjacency entry: the edge (index local to the segment) and its other end.
  struct Adj {
    std::uint32_t edge;
    std::uint32_t other;
  };

  // The edges of a segment [lo, hi) sit at positions lo..hi-1 of eu_/ev_/eid_ (their ends and
  // original id travel with them), so the deeper the recursion the smaller the working set.
  void solve(std::size_t lo, std::size_t hi, std::uint32_t degree, std::uint32_t first_color) {
    while (degree > 0) {
      if (degree == 1) {
        for (std::size_t k = lo; k < hi; ++k) color_[eid_[k]] = first_color;
        return;
      }
      if (degree % 2 == 1) {
        remove_perfect_matching(lo, hi, degree);  // moved to [hi - m, hi)
        for (std::size_t k = hi - m_; k < hi; ++k) color_[eid_[k]] = first_color + degree - 1;
        hi -= m_;
        --degree;
        continue;
      }
      split(lo, hi, degree);
      const std::size_t mid = lo + (hi - lo) / 2;
      solve(lo, mid, degree / 2, first_color);
      lo = mid;
      first_color += degree / 2;
      degree /= 2;
    }
  }

  // Adjacency of the segment: vertex a of U owns adj_u_[lo + a*D, lo + (a+1)*D) (the segment
  // is D-regular), likewise V; state_[lo + k] is reset.
  void build_adjacency(std::size_t lo, std::size_t hi, std::uint32_t degree, bool with_v) {
    const std::size_t n = hi - lo;
    const std::uint32_t* su = eu_.data() + lo;
    const std::uint32_t* sv = ev_.data() + lo;
    Adj* au = adj_u_.data() + lo;
    std::fill(fill_u_.begin(), fill_u_.end(), 0u);
    std::fill(state_.begin() + static_cast<std::ptrdiff_t>(lo),
              state_.begin() + static_cast<std::ptrdiff_t>(hi), kUnused);
    if (with_v) {
      Adj* av = adj_v_.data() + lo;
      std::fill(fill_v_.begin(), fill_v_.end(), 0u);
      for (std::size_t k = 0; k < n; ++k) {
        const std::uint32_t a = su[k], b = sv[k];
        au[std::size_t{a} * degree + fill_u_[a]++] = Adj{static_cast<std::uint32_t>(k), b};
        av[std::size_t{b} * degree + fill_v_[b]++] = Adj{static_cast<std::uint32_t>(k), a};
      }
    } else {
      for (std::size_t k = 0; k < n; ++k) {
        const std::uint32_t a = su[k];
        au[std::size_t{a} * degree + fill_u_[a]++] = Adj{static_cast<std::uint32_t>(k), sv[k]};
      }
    }
  }

  std::uint32_t next_stamp() {
    if (++stamp_ == 0) {
      std::fill(pair_stamp_.begin(), pair_stamp_.end(), 0u);
      stamp_ = 1;
    }
    return stamp_;
  }

  // Moves the edges marked `first_state` to [lo, lo + first_count) and the others after them.
  void partition(std::size_t lo, std::size_t hi, std::uint8_t first_state,
                 std::size_t first_count) {
    const std::uint8_t* st = state_.data() + lo;
    std::size_t p0 = lo, p1 = lo + first_count;
    for (std::size_t k = lo; k < hi; ++k) {
      const std::size_t to = st[k - lo] == first_state ? p0++ : p1++;
      tu_[to] = eu_[k];
      tv_[to] = ev_[k];
      tid_[to] = eid_[k];
    }
    assert(p0 == lo + first_count && p1 == hi);
    const auto b = static_cast<std::ptrdiff_t>(lo), e = static_cast<std::ptrdiff_t>(hi);
    std::copy(tu_.begin() + b, tu_.begin() + e, eu_.begin() + b);
    std::copy(tv_.begin() + b, tv_.begin() + e, ev_.begin() + b);
    std::copy(tid_.begin() + b, tid_.begin() + e, eid_.begin() + b);
  }

  // Splits the D-regular segment (D even) into two D/2-regular halves: [lo, mid) and [mid, hi).
  void split(std::size_t lo, std::size_t hi, std::uint32_t degree) {
    build_adjacency(lo, hi, degree, true);
    const Adj* au = adj_u_.data() + lo;
    const Adj* av = adj_v_.data() + lo;
    std::uint8_t* st = state_.data() + lo;

    if (options_.pair_parallel_edges) {
      // Two parallel edges (a, b): one to each half keeps both a and b balanced.
      for (std::uint32_t a = 0; a < m_; ++a) {
        const std::uint32_t stamp = next_stamp();
        const Adj* list = au + std::size_t{a} * degree;
        for (std::uint32_t j = 0; j < degree; ++j) {
          const std::uint32_t b = list[j].other;
          if (pair_stamp_[b] == stamp) {
            st[pair_edge_[b]] = kHalf0;
            st[list[j].edge] = kHalf1;
            pair_stamp_[b] = 0;
          } else {
            pair_stamp_[b] = stamp;
            pair_edge_[b] = list[j].edge;
          }
        }
      }
    }

    // What is left has even degree everywhere: walk closed trails, giving edges walked from
    // U to V to half 0 and edges walked from V to U to half 1. Every pass through a vertex
    // uses one edge of each half, so both halves stay regular.
    std::uint32_t* ptr_u = fill_u_.data();  // reused as walk pointers
    std::uint32_t* ptr_v = fill_v_.data();
    std::fill(fill_u_.begin(), fill_u_.end(), 0u);
    std::fill(fill_v_.begin(), fill_v_.end(), 0u);
    for (std::uint32_t start = 0; start < m_; ++start) {
      std::uint32_t x = start;
      while (true) {
        const Adj* lu = au + std::size_t{x} * degree;
        std::uint32_t p = ptr_u[x];
        while (p < degree && st[lu[p].edge] != kUnused) ++p;
        if (p == degree) {
          ptr_u[x] = p;
          break;  // back at `start` with nothing left there
        }
        ptr_u[x] = p + 1;
        st[lu[p].edge] = kHalf0;
        const std::uint32_t y = lu[p].other;
        const Adj* lv = av + std::size_t{y} * degree;
        std::uint32_t q = ptr_v[y];
        while (st[lv[q].edge] != kUnused) ++q;  // exists: y has even unused degree
        ptr_v[y] = q + 1;
        st[lv[q].edge] = kHalf1;
        x = lv[q].other;
      }
    }
    partition(lo, hi, kHalf0, (hi - lo) / 2);
  }

  // Finds a perfect matching of the D-regular segment and moves its m edges to [hi - m, hi).
  void remove_perfect_matching(std::size_t lo, std::size_t hi, std::uint32_t degree) {
    build_adjacency(lo, hi, degree, false);
    if (options_.odd_matching == OddDegreeMatching::boost_edmonds)
      match_boost(lo, hi, degree);
    else
      match_hopcroft_karp(lo, degree);
    std::uint8_t* st = state_.data() + lo;
    for (std::uint32_t a = 0; a < m_; ++a) st[mate_edge_[a]] = kHalf1;
    partition(lo, hi, kUnused, hi - lo - m_);
  }

  void match_boost(std::size_t lo, std::size_t hi, std::uint32_t degree) {
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
    using Vertex = boost::graph_traits<Graph>::vertex_descriptor;
    Graph g(2 * std::size_t{m_});
    for (std::size_t k = lo; k < hi; ++k) boost::add_edge(eu_[k], std::size_t{m_} + ev_[k], g);
    std::vector<Vertex> mate(2 * std::size_t{m_});
    boost::edmonds_maximum_cardinality_matching(g, mate.data());
    const Adj* au = adj_u_.data() + lo;
    for (std::uint32_t a = 0; a < m_; ++a) {
      if (mate[a] == boost::graph_traits<Graph>::null_vertex())
        throw ColoringError("internal error: Edmonds matching of a regular graph is not perfect");
      const auto b = static_cast<std::uint32_t>(mate[a] - m_);
      const Adj* list = au + std::size_t{a} * degree;
      const Adj* it = std::find_if(list, list + degree, [&](const Adj& x) { return x.other == b; });
      mate_edge_[a] = it->edge;
    }
  }

  // Hopcroft-Karp on the segment's U adjacency. mate_edge_[a] = the matched (local) edge of a.
  void match_hopcroft_karp(std::size_t lo, std::uint32_t degree) {
    constexpr std::uint32_t kInf = kNone;
    const Adj* au = adj_u_.data() + lo;
    std::fill(mate_v_.begin(), mate_v_.end(), kNone);
    std::fill(mate_edge_.begin(), mate_edge_.end(), kNone);
    std::uint32_t matched = 0;
    for (std::uint32_t a = 0; a < m_; ++a) {  // greedy start
      const Adj* list = au + std::size_t{a} * degree;
      for (std::uint32_t j = 0; j < degree; ++j) {
        const std::uint32_t b = list[j].other;
        if (mate_v_[b] == kNone) {
          mate_v_[b] = a;
          mate_edge_[a] = list[j].edge;
          ++matched;
          break;
        }
      }
    }
    while (matched < m_) {
      // BFS layers from the free vertices of U
      std::uint32_t head = 0, tail = 0;
      for (std::uint32_t a = 0; a < m_; ++a) {
        if (mate_edge_[a] == kNone) {
          dist_[a] = 0;
          queue_[tail++] = a;
        } else {
          dist_[a] = kInf;
        }
      }
      bool found = false;
      while (head < tail) {
        const std::uint32_t a = queue_[head++];
        const Adj* list = au + std::size_t{a} * degree;
        for (std::uint32_t j = 0; j < degree; ++j) {
          const std::uint32_t a2 = mate_v_[list[j].other];
          if (a2 == kNone)
            found = true;
          else if (dist_[a2] == kInf) {
            dist_[a2] = dist_[a] + 1;
            if (!found) queue_[tail++] = a2;
          }
        }
      }
      if (!found) throw ColoringError("internal error: no augmenting path in a regular graph");
      // DFS along the layers, iteratively
      std::fill(iter_.begin(), iter_.end(), 0u);
      const std::uint32_t matched_before = matched;
      for (std::uint32_t root = 0; root < m_; ++root) {
        if (mate_edge_[root] != kNone) continue;
        std::uint32_t depth = 0;
        stack_[depth++] = root;
        while (depth > 0) {
          const std::uint32_t a = stack_[depth - 1];
          if (iter_[a] == degree) {
            dist_[a] = kInf;
            --depth;
            continue;
          }
          const Adj& entry = au[std::size_t{a} * degree + iter_[a]++];
          const std::uint32_t a2 = mate_v_[entry.other];
          if (a2 == kNone) {
            for (std::uint32_t i = depth; i-- > 0;) {
              const std::uint32_t x = stack_[i];
              const Adj& ex = au[std::size_t{x} * degree + iter_[x] - 1];
              mate_edge_[x] = ex.edge;
              mate_v_[ex.other] = x;
            }
            ++matched;
            break;
          }
          if (dist_[a2] != kInf && dist_[a2] == dist_[a] + 1) stack_[depth++] = a2;
        }
      }
      if (matched == matched_before)
        throw ColoringError("internal error: Hopcroft-Karp phase augmented nothing");
    }
  }

  std::uint32_t m_;
  std::size_t edges_;
  ColoringOptions options_;
  std::uint32_t* color_;
  std::vector<std::uint32_t> eu_, ev_, eid_, tu_, tv_, tid_;
  std::vector<Adj> adj_u_, adj_v_;
  std::vector<std::uint8_t> state_;
  std::vector<std::uint32_t> fill_u_, fill_v_;
  std::vector<std::uint32_t> pair_stamp_, pair_edge_;
  std::uint32_t stamp_ = 0;
  std::vector<std::uint32_t> mate_v_, mate_edge_, dist_, iter_, stack_, queue_;
};

std::uint32_t color_by_euler_split(std::uint32_t m, std::span<const std::uint32_t> u,
                                   std::span<const std::uint32_t> v, const ColoringOptions& options,
                                   std::uint32_t* color) {
  const std::uint32_t degree = regular_degree(m, u, v);
  if (u.empty()) return degree;
  EulerSplitColorer colorer(m, u, v, options, color);
  colorer.run(degree);
  return degree;
}

}  // namespace

std::string_view to_string(ColoringAlgorithm algorithm) {
  switch (algorithm) {
    case ColoringAlgorithm::automatic:
      return "automatic";
    case ColoringAlgorithm::matching_decomposition:
      return "matching_decomposition";
    case ColoringAlgorithm::euler_split:
      return "euler_split";
  }
  return "?";
}

ColoringAlgorithm parse_coloring_algorithm(std::string_view name) {
  for (auto a : {ColoringAlgorithm::automatic, ColoringAlgorithm::matching_decomposition,
                 ColoringAlgorithm::euler_split})
    if (name == to_string(a)) return a;
  throw ColoringError(
      fmt::format("unknown colouring algorithm '{}': expected automatic, matching_decomposition or "
                  "euler_split",
                  name));
}

std::uint32_t regular_degree(std::uint32_t m, std::span<const std::uint32_t> u,
                             std::span<const std::uint32_t> v) {
  check_sizes(u, v);
  const std::uint32_t degree = degree_of(m, u.size());
  std::vector<std::uint32_t> du(m, 0), dv(m, 0);
  for (std::size_t e = 0; e < u.size(); ++e) {
    const std::uint32_t a = u[e], b = v[e];
    if (a >= m || b >= m) [[unlikely]]
      throw ColoringError(
          fmt::format("edge {} joins ({}, {}): ends must be below m = {}", e, a, b, m));
    ++du[a];
    ++dv[b];
  }
  for (std::uint32_t a = 0; a < m; ++a)
    if (du[a] != degree)
      throw ColoringError(
          fmt::format("not regular: vertex {} of U has degree {}, expected {} (= edges / nodes)", a,
                      du[a], degree));
  for (std::uint32_t b = 0; b < m; ++b)
    if (dv[b] != degree)
      throw ColoringError(
          fmt::format("not regular: vertex {} of V has degree {}, expected {} (= edges / nodes)", b,
                      dv[b], degree));
  return degree;
}

ColoringAlgorithm choose_coloring_algorithm(std::uint32_t m, std::uint64_t degree) {
  // Measured with mmsim_bench_planning (crossover section) on the 2-core development VM,
  // random regular multigraphs, times in ms (MD = matching_decomposition, ES = euler_split):
  //   m = 256:  D = 16: MD 0.57 / ES 0.30;  D = 64: 1.4 / 2.5;   D = 1024: 13 / 62
  //   m = 1024: D = 64: MD 13 / ES 9.3;     D = 256: 56 / 77;    D = 1024: 298 / 342;
  //             D = 16384: 1543 / 8685
  //   m = 2048: D = 512: MD 439 / ES 340;   D = 2048: 2300 / 1580; D = 8192: 5193 / 11765
  //   m = 4096: D = 1024: MD 3333 / ES 2658; D = 4096: 17600 / 8900
  // MD costs ~E plus ~D peels of O(m) with augmenting paths that get dearer as the support
  // thins out and as the m x m matrix outgrows the caches (m > 1024: > 16 MB of working
  // arrays); ES costs ~E log2 D. Rule fitted to these points:
  //   m <= 1024: MD if 8 D >= m;   m > 1024: MD if D >= 4 m;   otherwise ES.
  if (std::uint64_t{m} * m > kMaxMatrixEntries) return ColoringAlgorithm::euler_split;
  if (degree <= 1) return ColoringAlgorithm::euler_split;  // nothing to decompose
  const bool md = m <= 1024 ? 8 * degree >= m : degree >= 4 * std::uint64_t{m};
  return md ? ColoringAlgorithm::matching_decomposition : ColoringAlgorithm::euler_split;
}

std::uint64_t coloring_bytes(std::uint32_t m, std::uint64_t edges, ColoringAlgorithm algorithm) {
  if (m == 0) return 0;
  if (algorithm == ColoringAlgorithm::automatic)
    algorithm = choose_coloring_algorithm(m, edges / m);
  const std::uint64_t colors = 4 * edges;
  if (algorithm == ColoringAlgorithm::matching_decomposition)
    return colors + matching_decomposition_bytes(m, edges);
  // EulerSplitColorer: ends and ids twice (24), two adjacency arrays (16), a state byte per
  // edge (41, measured 41.1 at E = 2^24), with a margin; per node about ten words.
  return colors + 44 * edges + std::uint64_t{m} * 64;
}

ColoringSummary color_edges_into(std::uint32_t m, std::span<const std::uint32_t> u,
                                 std::span<const std::uint32_t> v, std::span<std::uint32_t> color,
                                 const ColoringOptions& options) {
  check_sizes(u, v);
  if (color.size() != u.size())
    throw ColoringError(
        fmt::format("the colour buffer holds {} entries for {} edges", color.size(), u.size()));
  ColoringSummary out;
  ColoringAlgorithm algorithm = options.algorithm;
  if (algorithm == ColoringAlgorithm::automatic)
    algorithm = choose_coloring_algorithm(m, m == 0 ? 0 : u.size() / m);
  out.algorithm = algorithm;
  if (algorithm == ColoringAlgorithm::matching_decomposition)
    out.colors = color_by_matching_decomposition(
        m, EdgeArrays{u, v},
        [&color](std::size_t e, std::uint32_t, std::uint32_t c) { color[e] = c; });
  else
    out.colors = color_by_euler_split(m, u, v, options, color.data());
#ifndef NDEBUG
  if (auto check = verify_coloring(m, u, v, color, out.colors); !check)
    throw ColoringError("internal error: " + std::string(to_string(algorithm)) +
                        " produced an invalid colouring: " + check.error);
#endif
  return out;
}

EdgeColoring color_edges(std::uint32_t m, std::span<const std::uint32_t> u,
                         std::span<const std::uint32_t> v, const ColoringOptions& options) {
  check_sizes(u, v);
  EdgeColoring out;
  resize_on_huge_pages(out.color, u.size());
  const ColoringSummary summary = color_edges_into(m, u, v, out.color, options);
  out.colors = summary.colors;
  out.algorithm = summary.algorithm;
  return out;
}

EdgeColoring color_edges(const BipartiteMultigraph& graph, const ColoringOptions& options) {
  return color_edges(graph.nodes_per_side, graph.u, graph.v, options);
}

EdgeColoring color_edges(const BipartiteMultigraph& graph, ColoringAlgorithm algorithm) {
  ColoringOptions options;
  options.algorithm = algorithm;
  return color_edges(graph, options);
}

ColoringCheck verify_coloring(std::uint32_t m, std::span<const std::uint32_t> u,
                              std::span<const std::uint32_t> v,
                              std::span<const std::uint32_t> color, std::uint32_t colors) {
  auto fail = [](std::string message) { return ColoringCheck{false, std::move(message)}; };
  if (u.size() != v.size() || color.size() != u.size())
    return fail(fmt::format("sizes differ: {} U ends, {} V ends, {} colours", u.size(), v.size(),
                            color.size()));
  const std::uint64_t edges = u.size();
  if (edges != std::uint64_t{m} * colors)
    return fail(
        fmt::format("{} edges cannot be {} perfect matchings of {} nodes per side (need {} edges)",
                    edges, colors, m, std::uint64_t{m} * colors));
  // first edge seen per (colour, vertex); with E = m*colours and no slot used twice, every
  // slot is used exactly once, i.e. every class is a perfect matching on both sides.
  std::vector<std::uint32_t> at_u(edges, kNone), at_v(edges, kNone);
  for (std::uint64_t e = 0; e < edges; ++e) {
    const std::uint32_t a = u[e], b = v[e], c = color[e];
    if (a >= m || b >= m)
      return fail(fmt::format("edge {} joins ({}, {}), outside {} nodes per side", e, a, b, m));
    if (c >= colors)
      return fail(
          fmt::format("edge {} has colour {}, expected fewer than {} colours", e, c, colors));
    std::uint32_t& su = at_u[std::uint64_t{c} * m + a];
    if (su != kNone)
      return fail(fmt::format("colour {} is not a matching: edges {} and {} share vertex {} of U",
                              c, su, e, a));
    su = static_cast<std::uint32_t>(e);
    std::uint32_t& sv = at_v[std::uint64_t{c} * m + b];
    if (sv != kNone)
      return fail(fmt::format("colour {} is not a matching: edges {} and {} share vertex {} of V",
                              c, sv, e, b));
    sv = static_cast<std::uint32_t>(e);
  }
  return {};
}

ColoringCheck verify_coloring(const BipartiteMultigraph& graph, const EdgeColoring& coloring) {
  return verify_coloring(graph.nodes_per_side, graph.u, graph.v, coloring.color, coloring.colors);
}

ColoringCheck boost_verify_color_class(const BipartiteMultigraph& graph,
                                       std::span<const std::uint32_t> color, std::uint32_t c) {
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
  using Vertex = boost::graph_traits<Graph>::vertex_descriptor;
  const std::uint32_t m = graph.nodes_per_side;
  if (color.size() != graph.edge_count())
    return {false, "colour array size differs from the edge count"};
  Graph g(2 * std::size_t{m});
  const Vertex none = boost::graph_traits<Graph>::null_vertex();
  std::vector<Vertex> mate(2 * std::size_t{m}, none);
  for (std::size_t e = 0; e < graph.edge_count(); ++e) {
    if (color[e] != c) continue;
    const Vertex a = graph.u[e], b = std::size_t{m} + graph.v[e];
    boost::add_edge(a, b, g);
    if (mate[a] != none || mate[b] != none)
      return {false, fmt::format("colour {}: edge {} touches a vertex already matched", c, e)};
    mate[a] = b;
    mate[b] = a;
  }
  for (std::size_t x = 0; x < mate.size(); ++x)
    if (mate[x] == none)
      return {false, fmt::format("colour {}: vertex {} of {} is unmatched (not perfect)", c,
                                 x < m ? x : x - m, x < m ? "U" : "V")};
  const bool maximum = boost::maximum_cardinality_matching_verifier<
      Graph, Vertex*, boost::property_map<Graph, boost::vertex_index_t>::type>::
      verify_matching(g, mate.data(), boost::get(boost::vertex_index, g));
  if (!maximum) return {false, fmt::format("colour {}: Boost's verifier rejects the matching", c)};
  return {};
}

MisraGriesColoring color_edges_boost_misra_gries(const BipartiteMultigraph& graph) {
  struct EdgeProps {
    std::uint32_t id;
    std::uint32_t color;
  };
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS,
                                      boost::no_property, EdgeProps>;
  const std::uint32_t m = graph.nodes_per_side;
  check_sizes(graph.u, graph.v);
  Graph g(2 * std::size_t{m});
  for (std::size_t e = 0; e < graph.edge_count(); ++e) {
    if (graph.u[e] >= m || graph.v[e] >= m)
      throw ColoringError(fmt::format("edge {} joins ({}, {}): ends must be below m = {}", e,
                                      graph.u[e], graph.v[e], m));
    boost::add_edge(graph.u[e], std::size_t{m} + graph.v[e],
                    EdgeProps{static_cast<std::uint32_t>(e), kNone}, g);
  }
  MisraGriesColoring out;
  out.colors = boost::edge_coloring(g, boost::get(&EdgeProps::color, g));
  out.color.assign(graph.edge_count(), kNone);
  for (auto [it, end] = boost::edges(g); it != end; ++it) out.color[g[*it].id] = g[*it].color;
  for (std::uint32_t c : out.color) {
    if (c == kNone)
      ++out.uncolored;
    else
      out.colors_used = std::max(out.colors_used, c + 1);
  }
  return out;
}

}  // namespace mmsim::planning
