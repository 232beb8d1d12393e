// The sums and prefix sums of Nakano 2012 (asynchronous): right under every dispatch policy and
// free of races, with exactly the barrier steps the algorithms perform and within stated constants
// of Table 1.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "hw/support/errors.hpp"
#include "support/testbench_text.hpp"
#include "sw/program/input_values.hpp"
#include "sw/program/word_arithmetic.hpp"

namespace mmsim::test {
namespace {

struct Machine {
  unsigned w, l;
  std::string dispatch = "round_robin";
  std::uint64_t seed = 1;
};

std::string testbench(const std::string& program, std::uint64_t n, const Machine& m,
                      const std::string& extra_params = "", const std::string& extra_machine = "") {
  return "machine: {model: umm, width: " + std::to_string(m.w) +
         ", latency: " + std::to_string(m.l) + ", dispatch: " + m.dispatch +
         ", seed: " + std::to_string(m.seed) + ", race_check: true" + extra_machine +
         "}\nprogram: {name: " + program + ", params: {n: " + std::to_string(n) + extra_params +
         "}}\n";
}

const std::vector<std::string> kSums = {"sum_simple", "sum_one_warp", "sum_tree", "sum_simple_tree",
                                        "sum_hybrid"};
const std::vector<std::string> kPrefixSums = {"prefix_simple", "prefix_one_warp", "prefix_tree",
                                              "prefix_simple_tree", "prefix_hybrid"};

std::vector<Machine> every_policy(unsigned w, unsigned l) {
  std::vector<Machine> out;
  for (const std::string policy : {"round_robin", "lowest_ready", "oldest_ready", "adversarial"})
    out.push_back({w, l, policy});
  for (const std::uint64_t seed : {1, 2, 3}) out.push_back({w, l, "random", seed});
  return out;
}

std::string where(const std::string& program, std::uint64_t n, const Machine& m) {
  return program + " n=" + std::to_string(n) + " w=" + std::to_string(m.w) +
         " l=" + std::to_string(m.l) + " " + m.dispatch + " seed " + std::to_string(m.seed);
}

// Runs it and checks what every run must show: the right result, no race, no warning.
RunOutcome checked_run(const std::string& program, std::uint64_t n, const Machine& m) {
  const RunOutcome o = run_yaml(testbench(program, n, m));
  EXPECT_TRUE(o.verified.value_or(false)) << where(program, n, m) << ": " << o.first_mismatch;
  EXPECT_TRUE(o.program_checked) << where(program, n, m);
  EXPECT_EQ(o.race_count, 0u) << where(program, n, m);
  EXPECT_TRUE(o.errors.empty() && o.warnings.empty()) << where(program, n, m);
  return o;
}

// n for each program on a machine with w = 8, l = 4 (w*l = 32).
std::uint64_t size_for(const std::string& program) {
  return program.find("one_warp") != std::string::npos ? 8 : 512;
}

TEST(Sums, EveryProgramIsRightAndRaceFreeUnderEveryPolicy) {
  for (const auto& programs : {kSums, kPrefixSums})
    for (const std::string& program : programs)
      for (const Machine& m : every_policy(8, 4)) checked_run(program, size_for(program), m);
}

TEST(Sums, HybridTakesAnyNOfAtLeastWL) {
  // w*l = 40 threads: the last row of the n/(w*l) x w*l array is short, l is no power of two.
  for (const std::uint64_t n : {40, 41, 300, 1000})
    for (const Machine& m : every_policy(8, 5)) {
      checked_run("sum_hybrid", n, m);
      checked_run("prefix_hybrid", n, m);
    }
}

TEST(Sums, WiderAndNarrowerMachines) {
  for (const Machine& m : {Machine{32, 16, "adversarial"}, Machine{4, 3, "random", 7},
                           Machine{2, 2, "adversarial"}, Machine{6, 2, "oldest_ready"}}) {
    const std::uint64_t two = std::uint64_t{1} << 11;  // a power of two >= 2w
    if (m.w != 6)                                      // halving needs w to divide n/2
      for (const std::string program :
           {"sum_simple", "sum_simple_tree", "prefix_simple", "prefix_simple_tree"})
        checked_run(program, two, m);
    const std::uint64_t tree = m.w == 6 ? 6 * 6 * 6 : two;  // powers of w work too
    checked_run("sum_tree", tree, m);
    checked_run("prefix_tree", tree, m);
    checked_run("sum_hybrid", std::uint64_t{m.w} * m.l * 5 + 3, m);
    checked_run("prefix_hybrid", std::uint64_t{m.w} * m.l * 5 + 3, m);
    if (m.w % 2 == 0) {
      checked_run("sum_one_warp", m.w == 6 ? 4 : m.w, m);
      checked_run("prefix_one_warp", m.w == 6 ? 4 : m.w, m);
    }
  }
}

TEST(Sums, BarrierStepsAreExactlyTheAlgorithmsOwn) {
  const Machine m{8, 4, "random", 5};
  // w = 8, l = 4, n = 512 = 2^9 = 8^3; r = ceil(log2(log2(8))) = 2 halving steps in Simple-Tree.
  const std::map<std::string, std::uint64_t> syncs = {
      {"sum_simple", 9 - 3 - 1},           // m - log2(w) - 1
      {"sum_one_warp", 0},                 //
      {"sum_tree", 3},                     // log_w(n) levels
      {"sum_simple_tree", 2 + 3},          // r + ceil(log_8(512/4)) = 2 + ceil(7/3)
      {"sum_hybrid", 1 + 2 + 1},           // column sums + r + ceil(log_8(32/4))
      {"prefix_simple", 2 * (9 - 3 - 1)},  // both stages as Simple
      {"prefix_one_warp", 0},              //
      {"prefix_tree", 2 * 3 - 1},          // k - 1 levels of totals, k of prefix sums
      {"prefix_simple_tree", 2 + 5 + 1},   // r + prefix tree on 128 (k = 3) + r - 1
      {"prefix_hybrid", 2 + (2 + 1 + 1)},  // around Simple-Tree on 32 (k = 1)
  };
  for (const auto& [program, expected] : syncs) {
    const RunOutcome o = checked_run(program, size_for(program), m);
    EXPECT_EQ(o.result.syncthreads, expected) << program;
    const Bound* exact = find_bound(o, "syncthreads_exact");
    ASSERT_NE(exact, nullptr) << program;
    EXPECT_EQ(exact->value, static_cast<double>(expected)) << program;
    for (const std::uint64_t count : o.result.warp_barriers) EXPECT_EQ(count, expected) << program;
  }
  // Simple performs m - log2(w) - 1 for every n = 2^m > w; with w = 32 as in the paper.
  for (unsigned m_ = 6; m_ <= 12; ++m_) {
    const RunOutcome o = checked_run("sum_simple", std::uint64_t{1} << m_, {32, 8, "adversarial"});
    EXPECT_EQ(o.result.syncthreads, m_ - 5 - 1);
  }
  // Tree: ceil(log_w(n)) for powers of two that are no power of w (w = 32: 2^12 -> 3 levels).
  EXPECT_EQ(checked_run("sum_tree", 4096, {32, 8}).result.syncthreads, 3u);
}

double table1_time(const RunOutcome& o) { return find_bound(o, "time_order")->value; }

// The constants, stated: measured cycles / (n/w + l*log2(n)) lies in [1, C] with C as below,
// for every policy (the adversarial one included), w in {4, 32}, l in {2, 32, 400} and n up to
// 2^14 (configs/sweeps/asynchronous_table1.md shows the same for w = 32, l = 32 and 400, n up to
// 2^20). A step of Simple reads twice and writes once: C is about 3 (Simple-Tree's tree a little
// more). The prefix sums access each element 12 to 20 times (a strided read costs the UMM two
// address groups) and their latency chains are as many times l log n. Hybrid's prefix sums
// transpose twice, about 4*w*l time units whatever n: within C only from n >= w*w*l on.
TEST(Sums, TimeIsWithinAConstantOfNOverWPlusLLogN) {
  const std::map<std::string, double> constant = {
      {"sum_simple", 4},     {"sum_simple_tree", 6},     {"sum_hybrid", 4},
      {"prefix_simple", 16}, {"prefix_simple_tree", 24}, {"prefix_hybrid", 16},
  };
  for (const auto& [w, l] : {std::pair{4u, 2u}, {4u, 32u}, {4u, 400u}, {32u, 2u}, {32u, 32u}})
    for (const std::string policy : {"round_robin", "random", "adversarial"})
      for (const std::uint64_t n :
           {std::uint64_t{1} << 8, std::uint64_t{1} << 11, std::uint64_t{1} << 14})
        for (const auto& [program, c] : constant) {
          const bool hybrid = program.find("hybrid") != std::string::npos;
          if (hybrid && n < (program == "prefix_hybrid" ? w * w * l : w * l)) continue;
          const Machine m{w, l, policy};
          const RunOutcome o = checked_run(program, n, m);
          const double order = static_cast<double>(n) / w + l * std::log2(static_cast<double>(n));
          EXPECT_EQ(table1_time(o), order);
          const double cycles = static_cast<double>(o.result.cycles());
          EXPECT_GE(cycles, order) << where(program, n, m);
          EXPECT_LE(cycles, c * order) << where(program, n, m);
        }
}

// Tree pays a factor log2(w) on n/w: each group of w numbers takes log2(w) dependent steps.
TEST(Sums, TreeShowsTheExtraLogWFactor) {
  double previous = 0;
  for (const unsigned w : {4u, 8u, 16u, 32u}) {
    const Machine m{w, 2, "adversarial"};
    const std::uint64_t n = 4096;
    const RunOutcome tree = checked_run("sum_tree", n, m);
    const RunOutcome simple = checked_run("sum_simple", n, m);
    const double log_w = std::log2(static_cast<double>(w));
    const double cycles = static_cast<double>(tree.result.cycles());
    // Within [1, 5] times (n/w)*log2(w) + l*log2(n), and at least (n/w)*log2(w).
    EXPECT_GE(cycles, static_cast<double>(n) / w * log_w) << w;
    EXPECT_LE(cycles, 5 * table1_time(tree)) << w;
    // Against Simple (same n, w, l): slower by at least 0.8*log2(w), more so for wider warps.
    const double factor = cycles / static_cast<double>(simple.result.cycles());
    EXPECT_GE(factor, 0.8 * log_w) << w;
    EXPECT_GT(factor, previous) << w;
    previous = factor;
  }
  // The prefix sums alike, within [1, 16] times their Table 1 time.
  const RunOutcome prefix = checked_run("prefix_tree", 4096, {32, 2, "adversarial"});
  EXPECT_LE(static_cast<double>(prefix.result.cycles()), 16 * table1_time(prefix));
  EXPECT_GE(static_cast<double>(prefix.result.cycles()), 4096.0 / 32 * 5);
}

TEST(Sums, InputsFromAFile) {
  TempDir dir;
  dir.write("values.txt", "# eight numbers\n3, -1, 4 1\n-5 9 2 6\n");
  const auto file = dir.write("t.yaml",
                              "machine: {model: umm, width: 4, latency: 3, race_check: true}\n"
                              "program: {name: prefix_simple, params: {file: values.txt}}\n");
  const RunOutcome o = run_testbench(load_testbench(file));
  EXPECT_TRUE(o.verified.value_or(false)) << o.first_mismatch;
  EXPECT_EQ(o.elements_checked, 8u);
  EXPECT_EQ(o.machine.threads, 4u);  // n/2
  // The numbers and the interval sums (4, 2, 1), each level from an address-group boundary.
  EXPECT_EQ(o.machine.memory_words, 20u);

  const auto sum = dir.write("s.yaml",
                             "machine: {model: umm, width: 4, latency: 3}\n"
                             "program: {name: sum_simple, params: {file: values.txt, n: 8}}\n");
  EXPECT_TRUE(run_testbench(load_testbench(sum)).verified.value_or(false));
}

// Sums a word cannot hold wrap around modulo 2^64 (two's complement, computed without undefined
// behaviour), and the programs' checks compare with the sum wrapped the same way.
TEST(Sums, SumsBeyondAWordWrapAround) {
  constexpr Word kMax = std::numeric_limits<Word>::max();
  constexpr Word kMin = std::numeric_limits<Word>::min();
  static_assert(wrapping_add(kMax, 1) == kMin);
  static_assert(wrapping_add(kMin, -1) == kMax);
  static_assert(wrapping_add(Word{1} << 62, Word{3} << 62) == 0);  // 2^64
  static_assert(wrapping_add(kMax, kMax) == -2);
  TempDir dir;
  const auto file_of = [&](const std::string& name, const std::string& value) {
    std::string text;
    for (int i = 0; i < 1024; ++i) text += value + (i % 8 == 7 ? "\n" : " ");
    dir.write(name, text);
  };
  file_of("two_to_62.txt", std::to_string(Word{1} << 62));  // sums to 2^72 = 0 (mod 2^64)
  file_of("max.txt", std::to_string(kMax));
  file_of("min.txt", std::to_string(kMin));
  for (const std::string file : {"two_to_62.txt", "max.txt", "min.txt"})
    for (const std::string program :
         {"sum_simple", "sum_tree", "sum_simple_tree", "sum_hybrid", "prefix_simple", "prefix_tree",
          "prefix_simple_tree", "prefix_hybrid"}) {
      const auto bench = dir.write("t.yaml",
                                   "machine: {model: umm, width: 8, latency: 4}\n"
                                   "program: {name: " +
                                       program + ", params: {file: " + file + "}}\n");
      const RunOutcome o = run_testbench(load_testbench(bench));
      EXPECT_TRUE(o.verified.value_or(false)) << program << " " << file << ": " << o.first_mismatch;
      EXPECT_EQ(o.elements_checked, program.rfind("sum", 0) == 0 ? 1u : 1024u) << program;
    }
}

TEST(Sums, SeededInputsRepeatPerSeedAndStayInRange) {
  const auto values = [](std::int64_t seed) {
    ParamValues params;
    params.set("n", std::int64_t{1000});
    params.set("seed", seed);
    params.set("file", std::string());
    return input_values(params, ".");
  };
  const std::vector<Word> one = values(1);
  EXPECT_EQ(one, values(1));
  EXPECT_NE(one, values(2));
  EXPECT_EQ(one.size(), 1000u);
  for (const Word v : one) {
    EXPECT_GE(v, -kInputMagnitude);
    EXPECT_LE(v, kInputMagnitude);
  }
  EXPECT_NE(std::adjacent_find(one.begin(), one.end(), std::not_equal_to<>()), one.end());
}

// Bad input: a located InputError that says what would do.
std::string error_of(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  try {
    run_yaml(yaml, overrides);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Sums, RejectsWhatTheAlgorithmsCannotTake) {
  const Machine m{8, 4};
  EXPECT_EQ(error_of(testbench("sum_simple", 100, m)),
            "program.params.n: n = 100 is not a power of two; 64 or 128 would be (Simple halves "
            "the array)");
  EXPECT_EQ(error_of(testbench("prefix_simple_tree", 8, m)),
            "program.params.n: n = 8 is too small: Simple-Tree's n/2 threads fill whole warps of "
            "w = 8 only for n >= 16 (the one_warp programs take n <= w)");
  EXPECT_EQ(error_of(testbench("sum_one_warp", 16, m)),
            "program.params.n: n = 16 exceeds w = 8: One-Warp sums at most w numbers (sum_simple "
            "takes more)");
  EXPECT_EQ(error_of(testbench("sum_tree", 96, m)),
            "program.params.n: n = 96 is not a power of two; 64 or 128 would be, nor is it a power "
            "of w = 8 (Tree's groups of w)");
  EXPECT_EQ(error_of(testbench("prefix_tree", 4, m)),
            "program.params.n: n = 4: Tree's n threads fill whole warps of w = 8 only when n is a "
            "multiple of w");
  EXPECT_EQ(error_of(testbench("sum_simple", 64, {6, 4})),
            "program.params.n: n/2 = 32 threads do not fill whole warps of w = 6 (Simple needs w "
            "to divide n/2)");
  EXPECT_EQ(error_of(testbench("sum_hybrid", 31, m)),
            "program.params.n: n = 31 is below w*l = 32: Hybrid's w*l threads each add up a "
            "column of the n/(w*l) x w*l array");
  EXPECT_EQ(error_of(testbench("sum_simple", 512, m, ", drop_sync: 6")),
            "program.params.drop_sync: expected 0 (none) or a syncthreads from 1 to 5, got 6");
  EXPECT_EQ(error_of(testbench("sum_simple", 0, m)),
            "program.params.n: give n (the number of inputs) or params.file");
}

TEST(Sums, MachineThreadsMustBeTheAlgorithmsOwn) {
  const Machine m{8, 4};
  EXPECT_EQ(error_of(testbench("sum_simple", 512, m, "", ", threads: 128")),
            "machine.threads: sum_simple uses p = n/2 = 256 threads (Nakano 2012 (asynchronous), "
            "Table 1), not 128; leave machine.threads out to get them");
  EXPECT_EQ(error_of(testbench("sum_hybrid", 512, m, "", ", threads: 64")),
            "machine.threads: sum_hybrid uses p = w*l = 32 threads (Nakano 2012 (asynchronous), "
            "Table 1), not 64; leave machine.threads out to get them");
  // Given and right, it is accepted.
  EXPECT_TRUE(
      run_yaml(testbench("sum_tree", 512, m, "", ", threads: 512")).verified.value_or(false));
}

TEST(Sums, BadInputFiles) {
  TempDir dir;
  dir.write("bad.txt", "1 2\n3 x4\n");
  dir.write("three.txt", "1 2 3\n");
  const auto bench = [&](const std::string& params) {
    return dir.write("t.yaml",
                     "machine: {model: umm, width: 2, latency: 3}\n"
                     "program: {name: sum_simple, params: {" +
                         params + "}}\n");
  };
  try {
    run_testbench(load_testbench(bench("file: bad.txt")));
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.describe(), (dir / "bad.txt").string() + ":2:3: expected an integer, got 'x4'");
  }
  EXPECT_THROW(run_testbench(load_testbench(bench("file: three.txt, n: 4"))), InputError);
  EXPECT_THROW(run_testbench(load_testbench(bench("file: three.txt"))), InputError);  // no power
  EXPECT_THROW(run_testbench(load_testbench(bench("file: none.txt"))), InputError);
}

}  // namespace
}  // namespace mmsim::test
