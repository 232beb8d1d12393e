// mmsim_bench_planning: timings of the offline planners (not run by ctest).
//
// Sections (all by default): dmm32, dmm256, umm (the three colouring targets), plans (whole DMM
// and UMM plans), odd (Hopcroft-Karp vs Boost Edmonds for odd degrees), crossover (the grid that
// sets `automatic`), baseline (boost::edge_coloring, Misra-Gries, in a forked child with a time
// limit, on the target inputs and on small ones).
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <functional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "sw/planning/dmm_plan.hpp"
#include "sw/planning/edge_coloring.hpp"
#include "sw/planning/permutation.hpp"
#include "sw/planning/umm_plan.hpp"

using namespace mmsim::planning;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

struct Stats {
  double median = 0, min = 0, max = 0;
};

Stats time_runs(int runs, const std::function<void()>& f) {
  std::vector<double> t;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = Clock::now();
    f();
    t.push_back(seconds_since(t0));
  }
  std::sort(t.begin(), t.end());
  return {t[t.size() / 2], t.front(), t.back()};
}

std::string fmt_stats(const Stats& s) {
  return fmt::format("median {:8.4f} s  (min {:.4f}, max {:.4f})", s.median, s.min, s.max);
}

BipartiteMultigraph dmm_graph_of(std::uint64_t n, std::uint32_t w, std::uint64_t seed) {
  return dmm_graph(random_permutation(n, seed), w);
}

// The UMM graph of a random permutation of n = r*r: U = source row, V = destination row.
BipartiteMultigraph umm_graph_of(std::uint32_t r, std::uint64_t seed) {
  const std::uint64_t n = std::uint64_t{r} * r;
  const Permutation p = random_permutation(n, seed);
  BipartiteMultigraph g(r);
  g.u.resize(n);
  g.v.resize(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    g.u[i] = static_cast<std::uint32_t>(i / r);
    g.v[i] = static_cast<std::uint32_t>(p[i] / r);
  }
  return g;
}

// A simple D-regular bipartite graph: u -> (u + k*s) mod m for k < D, s a stride spreading the
// neighbours, edges listed in a shuffled order.
BipartiteMultigraph simple_regular(std::uint32_t m, std::uint32_t degree) {
  const Permutation order = random_permutation(std::uint64_t{m} * degree, m + degree);
  BipartiteMultigraph g(m);
  g.u.resize(order.size());
  g.v.resize(order.size());
  std::uint64_t e = 0;
  for (std::uint32_t a = 0; a < m; ++a)
    for (std::uint32_t k = 0; k < degree; ++k, ++e) {
      g.u[order[e]] = a;
      g.v[order[e]] = static_cast<std::uint32_t>((a * 7 + k) % m);
    }
  return g;
}

Stats bench_coloring(const BipartiteMultigraph& g, ColoringOptions options, int runs,
                     ColoringAlgorithm* chosen = nullptr) {
  EdgeColoring last;
  const Stats s = time_runs(runs, [&] { last = color_edges(g, options); });
  const ColoringCheck check = verify_coloring(g, last);  // outside the timing
  if (!check.ok) {
    fmt::print("  !! invalid colouring: {}\n", check.error);
    std::exit(1);
  }
  if (chosen) *chosen = last.algorithm;
  return s;
}

void coloring_target(const char* title, const BipartiteMultigraph& g, double target, int runs) {
  const std::uint32_t degree = static_cast<std::uint32_t>(g.edge_count() / g.nodes_per_side);
  fmt::print("{}: m = {} nodes per side, E = {} edges, D = {}\n", title, g.nodes_per_side,
             g.edge_count(), degree);
  for (ColoringAlgorithm a : {ColoringAlgorithm::matching_decomposition,
                              ColoringAlgorithm::euler_split, ColoringAlgorithm::automatic}) {
    ColoringOptions o;
    o.algorithm = a;
    ColoringAlgorithm chosen{};
    const Stats s = bench_coloring(g, o, runs, &chosen);
    fmt::print("  {:<24} {}", to_string(a), fmt_stats(s));
    if (a == ColoringAlgorithm::automatic) {
      fmt::print("  -> {}; target < {} s: {}", to_string(chosen), target,
                 s.median < target ? "MET" : "MISSED");
    }
    fmt::print("\n");
  }
  std::vector<std::uint32_t> buffer(g.edge_count());
  color_edges_into(g.nodes_per_side, g.u, g.v, buffer);  // warm the buffer
  ColoringSummary summary;
  const Stats s =
      time_runs(runs, [&] { summary = color_edges_into(g.nodes_per_side, g.u, g.v, buffer); });
  if (!verify_coloring(g.nodes_per_side, g.u, g.v, buffer, summary.colors).ok) std::exit(1);
  fmt::print("  {:<24} {}  (color_edges_into a reused output buffer: no fresh-page faults)\n",
             "automatic, into", fmt_stats(s));
}

std::string load_average() {
  std::FILE* f = std::fopen("/proc/loadavg", "r");
  if (!f) return "unknown";
  char buf[128] = {};
  const std::size_t k = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  std::string text(buf, k);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

// Runs Boost's Misra-Gries in a forked child, killed after `limit` seconds.
void misra_gries_in_child(const char* title, const BipartiteMultigraph& g, double limit) {
  const std::uint32_t degree = static_cast<std::uint32_t>(g.edge_count() / g.nodes_per_side);
  fmt::print("  {:<44} m = {:5}, E = {:9}, D = {:7}: ", title, g.nodes_per_side, g.edge_count(),
             degree);
  std::fflush(stdout);
  int fd[2];
  if (pipe(fd) != 0) {
    fmt::print("pipe failed\n");
    return;
  }
  const auto t0 = Clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    const auto c0 = Clock::now();
    const MisraGriesColoring mg = color_edges_boost_misra_gries(g);
    const double t = seconds_since(c0);
    std::set<std::uint32_t> distinct;
    for (std::uint32_t c : mg.color)
      if (c != 0xffffffffu) distinct.insert(c);
    const std::string msg = fmt::format(
        "{:.3f} s, Boost reports {} colours, {} distinct used, {} edges uncoloured{}", t, mg.colors,
        distinct.size(), mg.uncolored,
        verify_coloring(g, EdgeColoring{mg.color, degree, {}}).ok ? " (a valid D-colouring)"
                                                                  : " (not a valid D-colouring)");
    [[maybe_unused]] auto w = write(fd[1], msg.data(), msg.size());
    close(fd[1]);
    _exit(0);
  }
  close(fd[1]);
  int status = 0;
  bool done = false;
  while (seconds_since(t0) < limit) {
    if (waitpid(pid, &status, WNOHANG) == pid) {
      done = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!done) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    fmt::print("stopped after the {:.0f} s limit (did not finish)\n", limit);
    close(fd[0]);
    return;
  }
  char buf[512];
  const ssize_t k = read(fd[0], buf, sizeof buf - 1);
  close(fd[0]);
  if (WIFEXITED(status) && k > 0) {
    buf[k] = 0;
    fmt::print("{}\n", buf);
  } else {
    fmt::print("child failed (status {})\n", status);
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "mmsim planning benchmark: exact König colouring, DMM/UMM plans, Misra-Gries baseline"};
  int runs = 5;
  double limit = 30;
  std::vector<std::string> sections;
  app.add_option("--runs", runs, "timed runs per figure (median reported)")
      ->check(CLI::PositiveNumber);
  app.add_option("--baseline-limit", limit, "seconds Boost's Misra-Gries may run per input");
  app.add_option("sections", sections,
                 "dmm32 dmm256 umm plans odd crossover baseline (default: all)");
  CLI11_PARSE(app, argc, argv);
  auto want = [&](const std::string& s) {
    return sections.empty() || std::find(sections.begin(), sections.end(), s) != sections.end();
  };
  fmt::print(
      "mmsim_bench_planning: medians of {} runs, single thread, times include bucketing\n"
      "(graph construction from the permutation is not timed; colourings verified "
      "outside the timing)\nload average at start: {} (other processes on the machine "
      "inflate the figures)\n\n",
      runs, load_average());

  if (want("dmm32"))
    coloring_target("DMM graph, random permutation n = 2^24, w = 32", dmm_graph_of(1u << 24, 32, 1),
                    0.15, runs);
  if (want("dmm256"))
    coloring_target("DMM graph, random permutation n = 2^24, w = 256",
                    dmm_graph_of(1u << 24, 256, 2), 0.5, runs);
  if (want("umm"))
    coloring_target("UMM graph, random permutation n = 2^20 (1024 x 1024)", umm_graph_of(1024, 3),
                    1.0, runs);

  if (want("plans")) {
    fmt::print(
        "\nWhole plans against the colouring alone (automatic colouring; a plan takes its\n"
        "permutation, checks it, colours the graph without building it and writes the schedule;\n"
        "the colouring alone gets the graph built and writes a colour per edge):\n");
    for (const std::uint32_t w : {32u, 256u}) {
      const Permutation p = random_permutation(1u << 24, 4);
      const BipartiteMultigraph g = dmm_graph(p, w);
      const Stats alone = time_runs(runs, [&] { (void)color_edges(g); });
      const Stats whole = time_runs(runs, [&] { (void)plan_dmm(p, w); });
      fmt::print("  n = 2^24, w = {:3}  colouring alone {}\n", w, fmt_stats(alone));
      fmt::print("                    plan_dmm        {}  ({:.2f} x the colouring)\n",
                 fmt_stats(whole), whole.median / alone.median);
    }
    {
      const Permutation p = random_permutation(1u << 20, 5);
      UmmPlan plan;
      const Stats s = time_runs(std::max(1, runs / 2), [&] { plan = plan_umm(p, 32); });
      fmt::print("  plan_umm n = 2^20, w = 32 ({} steps)   {}\n", plan.steps.size(), fmt_stats(s));
    }
    {
      const Permutation p = random_permutation(1u << 16, 6);
      UmmPlan plan;
      const Stats s = time_runs(runs, [&] { plan = plan_umm(p, 4); });
      fmt::print("  plan_umm n = 2^16, w = 4 ({} steps)   {}\n", plan.steps.size(), fmt_stats(s));
    }
  }

  if (want("odd")) {
    fmt::print(
        "\nOdd degrees in euler_split: own Hopcroft-Karp vs "
        "boost::edmonds_maximum_cardinality_matching\n");
    for (auto [m, degree] :
         {std::pair<std::uint32_t, std::uint32_t>{1024, 1023}, {1024, 63}, {32, 32767}}) {
      const BipartiteMultigraph g = dmm_graph_of(std::uint64_t{m} * degree, m, 7);
      for (OddDegreeMatching om :
           {OddDegreeMatching::hopcroft_karp, OddDegreeMatching::boost_edmonds}) {
        ColoringOptions o;
        o.algorithm = ColoringAlgorithm::euler_split;
        o.odd_matching = om;
        const Stats s = bench_coloring(g, o, std::max(1, runs / 2));
        fmt::print("  m = {:5}, D = {:5}  {:<14} {}\n", m, degree,
                   om == OddDegreeMatching::hopcroft_karp ? "hopcroft_karp" : "boost_edmonds",
                   fmt_stats(s));
      }
    }
    fmt::print("  euler_split without pairing parallel edges first:\n");
    for (auto [m, degree] : {std::pair<std::uint32_t, std::uint32_t>{1024, 1024}, {32, 1u << 16}}) {
      const BipartiteMultigraph g = dmm_graph_of(std::uint64_t{m} * degree, m, 8);
      for (bool pair : {true, false}) {
        ColoringOptions o;
        o.algorithm = ColoringAlgorithm::euler_split;
        o.pair_parallel_edges = pair;
        const Stats s = bench_coloring(g, o, std::max(1, runs / 2));
        fmt::print("  m = {:5}, D = {:5}  pairing {:<5}  {}\n", m, degree, pair, fmt_stats(s));
      }
    }
  }

  if (want("crossover")) {
    fmt::print(
        "\nCrossover grid (E = m * D random regular multigraphs; times in ms, "
        "MD = matching_decomposition, ES = euler_split, auto's pick marked *):\n");
    fmt::print("  {:>6} {:>8} {:>10} {:>10} {:>10}\n", "m", "D", "MD", "ES", "winner");
    for (std::uint32_t m : {8u, 32u, 128u, 256u, 512u, 1024u, 2048u, 4096u}) {
      for (std::uint32_t degree : {4u, 16u, 64u, 256u, 1024u, 4096u, 16384u}) {
        const std::uint64_t edges = std::uint64_t{m} * degree;
        if (edges > (1u << 22) || edges < 4096) continue;
        const BipartiteMultigraph g = dmm_graph_of(edges, m, m + degree);
        ColoringOptions md, es;
        md.algorithm = ColoringAlgorithm::matching_decomposition;
        es.algorithm = ColoringAlgorithm::euler_split;
        const double tm = bench_coloring(g, md, 3).median * 1e3;
        const double te = bench_coloring(g, es, 3).median * 1e3;
        const bool auto_md =
            choose_coloring_algorithm(m, degree) == ColoringAlgorithm::matching_decomposition;
        fmt::print("  {:>6} {:>8} {:>9.2f}{} {:>9.2f}{} {:>10}\n", m, degree, tm,
                   auto_md ? "*" : " ", te, auto_md ? " " : "*", tm < te ? "MD" : "ES");
      }
    }
  }

  if (want("baseline")) {
    fmt::print(
        "\nBaseline boost::edge_coloring (Misra-Gries), forked child, limit {:.0f} s per input "
        "(time includes building the boost::adjacency_list):\n",
        limit);
    misra_gries_in_child("DMM graph n = 2^24, w = 32 (target input)", dmm_graph_of(1u << 24, 32, 1),
                         limit);
    misra_gries_in_child("DMM graph n = 2^24, w = 256 (target input)",
                         dmm_graph_of(1u << 24, 256, 2), limit);
    misra_gries_in_child("UMM graph n = 2^20, 1024/side (target input)", umm_graph_of(1024, 3),
                         limit);
    fmt::print("  smaller inputs:\n");
    misra_gries_in_child("DMM graph n = 2^12, w = 32", dmm_graph_of(1u << 12, 32, 9), limit);
    misra_gries_in_child("UMM graph n = 2^12, 64/side", umm_graph_of(64, 10), limit);
    misra_gries_in_child("UMM graph n = 2^16, 256/side", umm_graph_of(256, 11), limit);
    fmt::print("  simple graphs (no parallel edges: what Misra-Gries is meant for):\n");
    misra_gries_in_child("simple circulant, 256/side", simple_regular(256, 16), limit);
    misra_gries_in_child("simple circulant, 1024/side", simple_regular(1024, 32), limit);
    misra_gries_in_child("simple circulant, 256/side", simple_regular(256, 128), limit);
    fmt::print("  (ours on the same small inputs:)\n");
    for (auto [name, g] : {std::pair<const char*, BipartiteMultigraph>{
                               "DMM graph n = 2^12, w = 32", dmm_graph_of(1u << 12, 32, 9)},
                           {"UMM graph n = 2^12, 64/side", umm_graph_of(64, 10)},
                           {"UMM graph n = 2^16, 256/side", umm_graph_of(256, 11)},
                           {"simple circulant, 256/side", simple_regular(256, 16)},
                           {"simple circulant, 1024/side", simple_regular(1024, 32)},
                           {"simple circulant, 256/side", simple_regular(256, 128)}}) {
      ColoringAlgorithm chosen{};
      const Stats s = bench_coloring(g, {}, runs, &chosen);
      fmt::print("  {:<44} automatic ({}): {:.5f} s, exactly {} colours\n", name, to_string(chosen),
                 s.median, g.edge_count() / g.nodes_per_side);
    }
  }
  fmt::print("\nload average at end: {}\n", load_average());
  return 0;
}
