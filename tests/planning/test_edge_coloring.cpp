#include <algorithm>
#include <numeric>
#include <string>
#include <tuple>

#include <gtest/gtest.h>

#include "sw/planning/edge_coloring.hpp"
#include "sw/planning/errors.hpp"
#include "test_support.hpp"

namespace mmsim::planning {
namespace {

using test::random_regular;
using test::random_simple_regular;

constexpr ColoringAlgorithm kExact[] = {ColoringAlgorithm::matching_decomposition,
                                        ColoringAlgorithm::euler_split,
                                        ColoringAlgorithm::automatic};

void expect_exact(const BipartiteMultigraph& g, ColoringAlgorithm algorithm) {
  SCOPED_TRACE(std::string(to_string(algorithm)));
  const EdgeColoring c = color_edges(g, algorithm);
  const std::uint32_t degree =
      g.nodes_per_side ? static_cast<std::uint32_t>(g.edge_count() / g.nodes_per_side) : 0;
  EXPECT_EQ(c.colors, degree);
  ASSERT_EQ(c.color.size(), g.edge_count());
  const ColoringCheck check = verify_coloring(g, c);
  EXPECT_TRUE(check.ok) << check.error;
  if (algorithm != ColoringAlgorithm::automatic) {
    EXPECT_EQ(c.algorithm, algorithm);
  } else {
    EXPECT_EQ(c.algorithm, choose_coloring_algorithm(g.nodes_per_side, degree));
  }
  // every colour in [0, D) is used by exactly m edges
  std::vector<std::uint32_t> per_color(degree, 0);
  for (std::uint32_t x : c.color) ++per_color[x];
  for (std::uint32_t k = 0; k < degree; ++k) EXPECT_EQ(per_color[k], g.nodes_per_side);
}

// ---- Figure 7 of Nakano 2012 ----------------------------------------------------------------
// Our text copy of the paper does not show Figure 7's edges, so we use a 4-regular bipartite
// multigraph of the size the paper's DMM example implies (w = 4 nodes per side, n/w = 4): the DMM
// graph of Figure 8's permutation, edge i = (i mod 4, P(i) mod 4):
//   e0 (0,0)  e1 (1,1)  e2 (2,0)  e3 (3,1)  e4 (0,1)  e5 (1,0)  e6 (2,3)  e7 (3,3)
//   e8 (0,2)  e9 (1,2) e10 (2,1) e11 (3,2) e12 (0,0) e13 (1,3) e14 (2,3) e15 (3,2)
// It has three pairs of parallel edges: (0,0) e0/e12, (2,3) e6/e14, (3,2) e11/e15.
// Hand colouring (each line a perfect matching, checked by hand: U 0..3 and V each once):
//   colour 0: e0 (0,0)  e1 (1,1)  e6 (2,3)  e11 (3,2)
//   colour 1: e12 (0,0) e9 (1,2)  e14 (2,3) e3 (3,1)
//   colour 2: e4 (0,1)  e13 (1,3) e2 (2,0)  e15 (3,2)
//   colour 3: e8 (0,2)  e5 (1,0)  e10 (2,1) e7 (3,3)
BipartiteMultigraph figure7_graph() {
  BipartiteMultigraph g(4);
  const std::uint32_t edges[16][2] = {{0, 0}, {1, 1}, {2, 0}, {3, 1}, {0, 1}, {1, 0},
                                      {2, 3}, {3, 3}, {0, 2}, {1, 2}, {2, 1}, {3, 2},
                                      {0, 0}, {1, 3}, {2, 3}, {3, 2}};
  for (const auto& e : edges) g.add_edge(e[0], e[1]);
  return g;
}

TEST(Figure7, GraphIsTheDmmGraphOfFigure8AndFourRegular) {
  const BipartiteMultigraph g = figure7_graph();
  const Permutation p = test::figure8_permutation();
  for (std::uint32_t i = 0; i < 16; ++i) {
    EXPECT_EQ(g.u[i], i % 4);
    EXPECT_EQ(g.v[i], p[i] % 4);
  }
  EXPECT_EQ(regular_degree(4, g.u, g.v), 4u);
}

TEST(Figure7, HandColouringIsAccepted) {
  const BipartiteMultigraph g = figure7_graph();
  const std::vector<std::uint32_t> hand = {0, 0, 2, 1, 2, 3, 0, 3, 3, 1, 3, 0, 1, 2, 1, 2};
  const ColoringCheck check = verify_coloring(4, g.u, g.v, hand, 4);
  EXPECT_TRUE(check.ok) << check.error;
  for (std::uint32_t c = 0; c < 4; ++c) {
    const ColoringCheck b = boost_verify_color_class(g, hand, c);
    EXPECT_TRUE(b.ok) << b.error;
  }
  // Parallel edges are interchangeable: swapping e0 and e12 keeps it valid.
  std::vector<std::uint32_t> swapped = hand;
  std::swap(swapped[0], swapped[12]);
  EXPECT_TRUE(verify_coloring(4, g.u, g.v, swapped, 4).ok);
}

TEST(Figure7, BrokenHandColouringIsRejectedWithTheFirstViolation) {
  const BipartiteMultigraph g = figure7_graph();
  std::vector<std::uint32_t> bad = {0, 1, 2, 1, 2, 3, 0, 3, 3, 1, 3, 0, 1, 2, 1, 2};  // e1 -> 1
  const ColoringCheck check = verify_coloring(4, g.u, g.v, bad, 4);
  EXPECT_FALSE(check.ok);
  EXPECT_EQ(check.error, "colour 1 is not a matching: edges 1 and 3 share vertex 1 of V");
  const ColoringCheck b = boost_verify_color_class(g, bad, 1);
  EXPECT_FALSE(b.ok);
  EXPECT_FALSE(boost_verify_color_class(g, bad, 0).ok);  // e1 left colour 0: not perfect
}

TEST(Figure7, BothAlgorithmsColourItExactly) {
  for (ColoringAlgorithm a : kExact) expect_exact(figure7_graph(), a);
}

// ---- tiny hand-checked cases --------------------------------------------------------------
TEST(TinyColouring, OneNodePerSideAllParallel) {
  BipartiteMultigraph g(1);
  for (int i = 0; i < 5; ++i) g.add_edge(0, 0);
  for (ColoringAlgorithm a : kExact) {
    EdgeColoring c = color_edges(g, a);
    EXPECT_EQ(c.colors, 5u);
    std::sort(c.color.begin(), c.color.end());
    EXPECT_EQ(c.color, (std::vector<std::uint32_t>{0, 1, 2, 3, 4}));
  }
}

TEST(TinyColouring, DegreeOneIsOneColour) {
  BipartiteMultigraph g(3);
  g.add_edge(0, 2);
  g.add_edge(1, 0);
  g.add_edge(2, 1);
  for (ColoringAlgorithm a : kExact) {
    const EdgeColoring c = color_edges(g, a);
    EXPECT_EQ(c.colors, 1u);
    EXPECT_EQ(c.color, (std::vector<std::uint32_t>{0, 0, 0}));
  }
}

TEST(TinyColouring, TwoDisjointDoubleEdges) {
  BipartiteMultigraph g(2);
  g.add_edge(0, 1);
  g.add_edge(1, 0);
  g.add_edge(0, 1);
  g.add_edge(1, 0);
  for (ColoringAlgorithm a : kExact) {
    const EdgeColoring c = color_edges(g, a);
    EXPECT_EQ(c.colors, 2u);
    EXPECT_NE(c.color[0], c.color[2]);
    EXPECT_NE(c.color[1], c.color[3]);
  }
}

TEST(TinyColouring, CompleteK33NeedsThreeColours) {
  BipartiteMultigraph g(3);
  for (std::uint32_t a = 0; a < 3; ++a)
    for (std::uint32_t b = 0; b < 3; ++b) g.add_edge(a, b);
  for (ColoringAlgorithm a : kExact) expect_exact(g, a);
}

TEST(TinyColouring, EmptyGraph) {
  BipartiteMultigraph g(3);
  for (ColoringAlgorithm a : kExact) {
    const EdgeColoring c = color_edges(g, a);
    EXPECT_EQ(c.colors, 0u);
    EXPECT_TRUE(c.color.empty());
  }
}

// ---- random regular multigraphs of both shapes ---------------------------------------------
class RandomRegular
    : public ::testing::TestWithParam<std::tuple<std::uint32_t, std::uint32_t, ColoringAlgorithm>> {
};

TEST_P(RandomRegular, ExactColouring) {
  const auto [m, degree, algorithm] = GetParam();
  for (std::uint64_t seed : {1u, 2u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    expect_exact(random_regular(m, degree, seed * 1000 + m + degree), algorithm);
  }
}

std::string shape_name(
    const ::testing::TestParamInfo<std::tuple<std::uint32_t, std::uint32_t, ColoringAlgorithm>>&
        info) {
  return "m" + std::to_string(std::get<0>(info.param)) + "_D" +
         std::to_string(std::get<1>(info.param)) + "_" +
         std::string(to_string(std::get<2>(info.param)));
}

// Few nodes, many parallel edges (the DMM graph's shape).
INSTANTIATE_TEST_SUITE_P(FewNodes, RandomRegular,
                         ::testing::Combine(::testing::Values(2u, 4u, 32u),
                                            ::testing::Values(1u, 2u, 3u, 5u, 7u, 8u, 12u, 64u,
                                                              1000u),
                                            ::testing::ValuesIn(kExact)),
                         shape_name);
// Many nodes, few parallel edges (the UMM graph's shape).
INSTANTIATE_TEST_SUITE_P(ManyNodes, RandomRegular,
                         ::testing::Combine(::testing::Values(100u, 1024u),
                                            ::testing::Values(1u, 2u, 3u, 5u, 7u, 8u, 12u, 64u),
                                            ::testing::ValuesIn(kExact)),
                         shape_name);

TEST(RandomRegularLarger, DmmShapeW32) {
  const BipartiteMultigraph g = random_regular(32, 1u << 14, 7);  // n = 2^19
  expect_exact(g, ColoringAlgorithm::matching_decomposition);
  expect_exact(g, ColoringAlgorithm::euler_split);
}

TEST(RandomRegularLarger, UmmShape256) {
  const BipartiteMultigraph g = random_regular(256, 256, 8);  // n = 2^16, sqrt(n) nodes
  expect_exact(g, ColoringAlgorithm::matching_decomposition);
  expect_exact(g, ColoringAlgorithm::euler_split);
}

TEST(RandomRegularLarger, OddDegreeAtEveryLevel) {
  // 105 -> 104 -> 52 -> 26 -> 13 -> 12 -> 6 -> 3 -> 2 -> 1: euler_split removes perfect
  // matchings at the odd degrees 105, 13 (in 8 subgraphs) and 3 (in 32 subgraphs).
  expect_exact(random_regular(200, 105, 9), ColoringAlgorithm::euler_split);
  expect_exact(random_regular(200, 105, 9), ColoringAlgorithm::matching_decomposition);
}

TEST(ColouringOptions, BoostEdmondsForOddDegrees) {
  ColoringOptions options;
  options.algorithm = ColoringAlgorithm::euler_split;
  options.odd_matching = OddDegreeMatching::boost_edmonds;
  for (std::uint32_t degree : {3u, 7u, 12u}) {
    const BipartiteMultigraph g = random_regular(50, degree, degree);
    const EdgeColoring c = color_edges(g, options);
    EXPECT_TRUE(verify_coloring(g, c).ok);
  }
}

TEST(ColouringOptions, WithoutPairingParallelEdges) {
  ColoringOptions options;
  options.algorithm = ColoringAlgorithm::euler_split;
  options.pair_parallel_edges = false;
  for (std::uint32_t m : {4u, 300u}) {
    const BipartiteMultigraph g = random_regular(m, 24, m);
    const EdgeColoring c = color_edges(g, options);
    EXPECT_TRUE(verify_coloring(g, c).ok);
  }
}

TEST(BoostCrossCheck, ColourClassesAreMaximumMatchingsForBoost) {
  const BipartiteMultigraph g = random_regular(64, 12, 3);
  for (ColoringAlgorithm a :
       {ColoringAlgorithm::matching_decomposition, ColoringAlgorithm::euler_split}) {
    const EdgeColoring c = color_edges(g, a);
    for (std::uint32_t k = 0; k < c.colors; ++k) {
      const ColoringCheck b = boost_verify_color_class(g, c.color, k);
      EXPECT_TRUE(b.ok) << b.error;
    }
  }
}

// ---- automatic ------------------------------------------------------------------------------
TEST(Automatic, PicksByShape) {
  // DMM graphs: w nodes per side, n edges.
  EXPECT_EQ(choose_coloring_algorithm(32, (1u << 24) / 32),
            ColoringAlgorithm::matching_decomposition);
  EXPECT_EQ(choose_coloring_algorithm(256, (1u << 24) / 256),
            ColoringAlgorithm::matching_decomposition);
  // UMM graphs: sqrt(n) nodes per side and degree sqrt(n): measured a tie at 1024, ES ahead
  // from 2048 on.
  EXPECT_EQ(choose_coloring_algorithm(1024, 1024), ColoringAlgorithm::matching_decomposition);
  EXPECT_EQ(choose_coloring_algorithm(2048, 2048), ColoringAlgorithm::euler_split);
  EXPECT_EQ(choose_coloring_algorithm(4096, 4096), ColoringAlgorithm::euler_split);
  EXPECT_EQ(choose_coloring_algorithm(32, 32), ColoringAlgorithm::matching_decomposition);
  // Many nodes, low degree: ES.
  EXPECT_EQ(choose_coloring_algorithm(1024, 64), ColoringAlgorithm::euler_split);
  EXPECT_EQ(choose_coloring_algorithm(256, 16), ColoringAlgorithm::euler_split);
  EXPECT_EQ(choose_coloring_algorithm(2048, 8192), ColoringAlgorithm::matching_decomposition);
  EXPECT_EQ(choose_coloring_algorithm(100000, 3), ColoringAlgorithm::euler_split);  // no matrix
  EXPECT_EQ(choose_coloring_algorithm(5, 1), ColoringAlgorithm::euler_split);
}

TEST(ColourInto, WritesIntoTheCallersBuffer) {
  const BipartiteMultigraph g = random_regular(16, 6, 4);
  std::vector<std::uint32_t> buffer(g.edge_count(), 77);
  const ColoringSummary s = color_edges_into(16, g.u, g.v, buffer);
  EXPECT_EQ(s.colors, 6u);
  EXPECT_TRUE(verify_coloring(16, g.u, g.v, buffer, 6).ok);
  std::vector<std::uint32_t> wrong(g.edge_count() - 1);
  EXPECT_THROW(color_edges_into(16, g.u, g.v, wrong), ColoringError);
}

// ---- errors ----------------------------------------------------------------------------------
TEST(ColouringErrors, NotRegular) {
  BipartiteMultigraph g(2);
  g.add_edge(0, 0);
  g.add_edge(0, 1);
  g.add_edge(1, 0);
  g.add_edge(1, 0);  // V0 has degree 3, V1 degree 1
  for (ColoringAlgorithm a : kExact) {
    try {
      color_edges(g, a);
      ADD_FAILURE() << "expected ColoringError";
    } catch (const ColoringError& e) {
      EXPECT_EQ(std::string(e.what()),
                "not regular: vertex 0 of V has degree 3, expected 2 (= edges / nodes)");
    }
  }
  BipartiteMultigraph odd(2);
  odd.add_edge(0, 0);
  EXPECT_THROW(color_edges(odd), ColoringError);
  BipartiteMultigraph out(2);
  out.add_edge(0, 2);
  out.add_edge(1, 0);
  EXPECT_THROW(color_edges(out), ColoringError);
  EXPECT_THROW(parse_coloring_algorithm("hungarian"), ColoringError);
  EXPECT_EQ(parse_coloring_algorithm("euler_split"), ColoringAlgorithm::euler_split);
}

TEST(VerifyColouring, ReportsWrongColourCountAndRange) {
  const BipartiteMultigraph g = figure7_graph();
  const std::vector<std::uint32_t> hand = {0, 0, 2, 1, 2, 3, 0, 3, 3, 1, 3, 0, 1, 2, 1, 2};
  EXPECT_EQ(verify_coloring(4, g.u, g.v, hand, 5).error,
            "16 edges cannot be 5 perfect matchings of 4 nodes per side (need 20 edges)");
  std::vector<std::uint32_t> out_of_range = hand;
  out_of_range[7] = 4;
  EXPECT_EQ(verify_coloring(4, g.u, g.v, out_of_range, 4).error,
            "edge 7 has colour 4, expected fewer than 4 colours");
}

// ---- the Misra-Gries baseline (boost::edge_coloring) -----------------------------------------
TEST(MisraGriesBaseline, SimpleGraphsGetAProperColouringWithDPlusOneColours) {
  // Observed: on these simple bipartite graphs Boost's Misra-Gries always ends with D+1
  // colours (Vizing's bound), where König says D suffice.
  for (std::uint32_t degree : {2u, 3u, 4u, 8u}) {
    const BipartiteMultigraph g = random_simple_regular(16, degree, degree);
    const MisraGriesColoring mg = color_edges_boost_misra_gries(g);
    EXPECT_EQ(mg.uncolored, 0u);
    EXPECT_TRUE(test::is_proper(g, mg.color));
    EXPECT_EQ(mg.colors, degree + 1);
    EXPECT_EQ(mg.colors_used, degree + 1);
    EXPECT_FALSE(verify_coloring(g.nodes_per_side, g.u, g.v, mg.color, degree).ok);
    expect_exact(g, ColoringAlgorithm::automatic);  // while ours needs exactly D
  }
}

TEST(MisraGriesBaseline, MultigraphsAreNotColouredValidly) {
  // Parallel edges: Boost's Misra-Gries recolours "edge(x, y)", the first of the parallel
  // edges, so the others stay uncoloured (colour UINT32_MAX).
  BipartiteMultigraph g(1);
  for (int i = 0; i < 3; ++i) g.add_edge(0, 0);
  const MisraGriesColoring mg = color_edges_boost_misra_gries(g);
  EXPECT_EQ(mg.colors, 2u);  // Boost's count: one more than the colours it actually used
  EXPECT_EQ(mg.colors_used, 1u);
  EXPECT_EQ(mg.uncolored, 2u);
  EXPECT_EQ(mg.color, (std::vector<std::uint32_t>{0, 0xffffffffu, 0xffffffffu}));
  EXPECT_FALSE(verify_coloring(1, g.u, g.v, mg.color, 3).ok);

  // Figure 7's multigraph: the second edge of each parallel pair (e12, e14, e15) stays
  // uncoloured and the others use 5 colours where 4 suffice.
  const BipartiteMultigraph f = figure7_graph();
  const MisraGriesColoring mf = color_edges_boost_misra_gries(f);
  EXPECT_EQ(mf.colors, 5u);
  EXPECT_EQ(mf.colors_used, 5u);
  EXPECT_EQ(mf.uncolored, 3u);
  EXPECT_EQ(mf.color[12], 0xffffffffu);
  EXPECT_EQ(mf.color[14], 0xffffffffu);
  EXPECT_EQ(mf.color[15], 0xffffffffu);
  EXPECT_FALSE(verify_coloring(4, f.u, f.v, mf.color, 4).ok);
  expect_exact(f, ColoringAlgorithm::automatic);
}

}  // namespace
}  // namespace mmsim::planning
