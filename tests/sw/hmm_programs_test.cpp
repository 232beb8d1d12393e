// The programs of the hierarchical machine (hmm_sum, hmm_convolution, hmm_transpose): right and
// free of races under every dispatch policy, with the exact stage and barrier counts the timing
// rules give, never below their lower bounds, within stated constants of the HMM paper's
// bounds, and refusing what they cannot run with a located message.
#include <gtest/gtest.h>

#include <algorithm>

#include "hw/dispatch/dispatch_policies.hpp"
#include "support/program_checks.hpp"

namespace mmsim::test {
namespace {

struct Hmm {
  unsigned d;      // multiprocessors
  unsigned w;      // lanes and banks
  unsigned warps;  // per multiprocessor
  unsigned l;      // global latency
  unsigned l_s;    // shared latency
  unsigned w_g;    // global width
  std::string shared = "dmm";
  std::string dispatch = "round_robin";

  std::uint64_t p() const { return std::uint64_t{d} * w * warps; }
  std::string yaml(const std::string& program, const std::string& params) const {
    return "machine: {model: hmm, multiprocessors: " + std::to_string(d) +
           ", width: " + std::to_string(w) + ", latency: " + std::to_string(l) +
           ", threads: " + std::to_string(p()) + ", global: {width: " + std::to_string(w_g) +
           "}, shared: {model: " + shared + ", latency: " + std::to_string(l_s) +
           "}, dispatch: " + dispatch + ", race_check: true}\nprogram: {name: " + program +
           ", params: {" + params + "}}\n";
  }
  std::string str() const {
    return "d=" + std::to_string(d) + " w=" + std::to_string(w) +
           " warps=" + std::to_string(warps) + " l=" + std::to_string(l) +
           " l_s=" + std::to_string(l_s) + " w_g=" + std::to_string(w_g) + " " + shared + " " +
           dispatch;
  }
};

// Machines with one and several warps per SM, w_g below, equal to and above w, d not a power of
// two, and conflict-free (pram) and randomly shifted (rsdmm) shared memories.
const std::vector<Hmm> kMachines = {
    {.d = 1, .w = 4, .warps = 2, .l = 7, .l_s = 1, .w_g = 4},
    {.d = 2, .w = 4, .warps = 3, .l = 9, .l_s = 2, .w_g = 2},
    {.d = 4, .w = 8, .warps = 4, .l = 20, .l_s = 3, .w_g = 16},
    {.d = 3, .w = 8, .warps = 1, .l = 5, .l_s = 2, .w_g = 8},
    {.d = 2, .w = 4, .warps = 2, .l = 6, .l_s = 2, .w_g = 4, .shared = "pram"},
    {.d = 2, .w = 8, .warps = 2, .l = 6, .l_s = 1, .w_g = 8, .shared = "rsdmm"},
};

struct ProgramRun {
  std::string program;
  std::string params;
};

// Parameters for each program on a machine of width w.
std::vector<ProgramRun> runs_for(unsigned w) {
  std::vector<ProgramRun> runs;
  for (const int n : {1, 37, 1000}) runs.push_back({"hmm_sum", "n: " + std::to_string(n)});
  for (const auto& [n, m] : std::vector<std::pair<int, int>>{{1, 5}, {29, 7}, {200, 3}, {8, 40}})
    runs.push_back({"hmm_convolution", "n: " + std::to_string(n) + ", m: " + std::to_string(m)});
  for (const unsigned tiles : {2u, 3u})
    for (const std::string arrangement : {"padded", "diagonal", "naive"})
      runs.push_back({"hmm_transpose", "n: " + std::to_string(tiles * w * tiles * w) +
                                           ", arrangement: " + arrangement});
  return runs;
}

RunOutcome checked(const Hmm& machine, const ProgramRun& run) {
  const RunOutcome o = run_yaml(machine.yaml(run.program, run.params));
  expect_sound(o, run.program + " {" + run.params + "} on " + machine.str());
  return o;
}

std::uint64_t global_stages(const RunOutcome& o) { return o.result.memories[0].counters.stages; }
std::uint64_t shared_stages(const RunOutcome& o) {
  std::uint64_t stages = 0;
  for (std::size_t i = 1; i < o.result.memories.size(); ++i)
    stages += o.result.memories[i].counters.stages;
  return stages;
}
TEST(HmmPrograms, RightAndRaceFreeUnderEveryPolicyWithTheirExactFigures) {
  for (Hmm machine : kMachines)
    for (const PolicyInfo& policy : dispatch_policies()) {
      machine.dispatch = policy.name;
      for (const ProgramRun& run : runs_for(machine.w)) {
        const RunOutcome o = checked(machine, run);
        // Consecutive words and broadcasts are conflict-free on the interleaved DMM; the naive
        // tile arrangement reads a column from one bank.
        if (machine.shared == "dmm" || machine.shared == "pram") {
          const bool conflicts =
              run.params.find("naive") != std::string::npos && machine.shared == "dmm";
          EXPECT_EQ(largest_shared_dispatch(o),
                    conflicts ? machine.w : std::min<std::uint64_t>(shared_stages(o), 1))
              << run.program << " {" << run.params << "} on " << machine.str();
          EXPECT_NE(find_bound(o, "shared_stages_exact") == nullptr,
                    run.program != "hmm_convolution");
        }
      }
    }
}

TEST(HmmPrograms, SumTakesTheGlobalGroupsOfItsNumbersAndTwoBarrierLevels) {
  // d = 4 SMs of 32 threads, w = 8, w_g = 4: the 4096 numbers in 1024 groups, 4 partial sums
  // written (4) and read back (1 group), the sum written (1).
  const Hmm m{.d = 4, .w = 8, .warps = 4, .l = 30, .l_s = 2, .w_g = 4};
  const RunOutcome o = checked(m, {"hmm_sum", "n: 4096"});
  EXPECT_EQ(global_stages(o), 1024u + 4 + 1 + 1);
  // Each SM's tree of 32 values: 2 + 2 dispatches at 32 values, then 1 + 1 at 16, 8, 4 and 2;
  // SM 0's tree of the 4 partial sums 1 + 1 twice.
  EXPECT_EQ(shared_stages(o), 4u * 12 + 4);
  EXPECT_EQ(o.result.syncthreads, 2u);  // the levels of 32 and 16 values: more than w
  EXPECT_EQ(o.result.grid_syncs, 1u);
  EXPECT_EQ(o.elements_checked, 4u + 1);  // the partial sums and the sum
  // With n <= p/d only SM 0 holds numbers: no partial sums, no grid_sync.
  const RunOutcome small = checked(m, {"hmm_sum", "n: 20"});
  EXPECT_EQ(global_stages(small), 5u + 1);
  EXPECT_EQ(small.result.grid_syncs, 0u);
  EXPECT_EQ(small.result.syncthreads, 2u);  // the levels of 20 and 10 values
}

TEST(HmmPrograms, SumOfOneNumberTakesARoundTripPerLevelOfMemory) {
  // Read it (l), write it (l): the lower bound 2l, met.
  const Hmm m{.d = 2, .w = 4, .warps = 1, .l = 11, .l_s = 3, .w_g = 4};
  const RunOutcome o = checked(m, {"hmm_sum", "n: 1"});
  EXPECT_EQ(o.result.cycles(), 22u);
  EXPECT_EQ(bound(o, "time_lower").value, 22.0);
}

TEST(HmmPrograms, ConvolutionStagesAAndAWindowOfBPerSm) {
  // d = 4, p/d = 32, w = w_g = 8, n = 256, m = 16: S = 64 outputs per SM, one thread each in
  // two rounds; per SM a (2 groups), its window of 79 numbers (10), its 64 outputs (8).
  const Hmm m{.d = 4, .w = 8, .warps = 4, .l = 20, .l_s = 2, .w_g = 8};
  const RunOutcome o = checked(m, {"hmm_convolution", "n: 256, m: 16"});
  EXPECT_EQ(global_stages(o), 4u * (2 + 10 + 8));
  // Shared: the staging's 2 + 10 writes, then 2 rounds x 4 warps x 16 coefficients x 2 reads.
  EXPECT_EQ(shared_stages(o), 4u * (12 + 2 * 4 * 16 * 2));
  EXPECT_EQ(o.result.syncthreads, 1u);
  EXPECT_EQ(o.result.grid_syncs, 0u);
  EXPECT_EQ(o.elements_checked, 256u);
}

TEST(HmmPrograms, ConvolutionSplitsTheCoefficientsWhenAnSmHasFewOutputs) {
  // n = 8 on d = 2: S = 4 outputs per SM of 32 threads, so q = 8 threads per output, each
  // taking every 8th of the 40 coefficients, then a tree of 32 values down to 4: levels of 32
  // and 16 values need a barrier (more than w = 8), that of 8 does not; one after the staging.
  const Hmm m{.d = 2, .w = 8, .warps = 4, .l = 10, .l_s = 2, .w_g = 8};
  const RunOutcome o = checked(m, {"hmm_convolution", "n: 8, m: 40"});
  EXPECT_EQ(o.result.syncthreads, 3u);
  EXPECT_EQ(largest_shared_dispatch(o), 1u);
  EXPECT_EQ(o.elements_checked, 8u);
}

TEST(HmmPrograms, TransposeCongestionPerArrangement) {
  // 96 x 96 on d = 4 SMs of 4 warps, w = 8, w_g = 4: 144 tiles, 36 per SM, one per batch.
  const Hmm m{.d = 4, .w = 8, .warps = 4, .l = 16, .l_s = 2, .w_g = 4};
  const std::uint64_t n = 96 * 96;
  for (const std::string arrangement : {"padded", "diagonal", "naive"}) {
    const RunOutcome o = checked(m, {"hmm_transpose", "n: 9216, arrangement: " + arrangement});
    EXPECT_EQ(global_stages(o), 2 * n / 4) << arrangement;  // every tile row, 2 groups of 4
    // Rows written whole; columns read whole, or (naive) from one bank: w stages each.
    EXPECT_EQ(shared_stages(o), arrangement == "naive" ? n / 8 + n : 2 * n / 8) << arrangement;
    EXPECT_EQ(o.result.syncthreads, 36u) << arrangement;
    EXPECT_EQ(o.elements_checked, 2 * n);  // every value read, every cell of b
  }
  // Blocks of 16 warps take 2 tiles per batch (w^2 = 64 rows for 16 warps: ceil(128/64) = 2).
  const Hmm wide{.d = 2, .w = 8, .warps = 16, .l = 16, .l_s = 2, .w_g = 8};
  EXPECT_EQ(checked(wide, {"hmm_transpose", "n: 9216"}).result.syncthreads, 36u);
  // One warp per SM reads back its own rows: no barrier.
  const Hmm narrow{.d = 4, .w = 8, .warps = 1, .l = 16, .l_s = 2, .w_g = 8};
  EXPECT_EQ(checked(narrow, {"hmm_transpose", "n: 9216"}).result.syncthreads, 0u);
}

TEST(HmmPrograms, WithinStatedConstantsOfTheHmmBounds) {
  // The regime of the bounds: n at least p; the convolution's m*d at most n (every SM's copy
  // of a no larger than its window of b); the transpose's tiles at least d. Measured: at most
  // 1.87 (sum: at n = p its four global round trips against the bound's nl/p + l = 2l), 2.53
  // (convolution: two shared reads per product against mn/(dw)) and 1.99 (transpose: a read and
  // a write per element against nl/p).
  double sum_ratio = 0;
  double convolution_ratio = 0;
  double transpose_ratio = 0;
  for (const unsigned d : {2u, 8u})
    for (const unsigned l : {16u, 100u})
      for (const std::string dispatch : {"round_robin", "adversarial"}) {
        Hmm m{.d = d, .w = 8, .warps = 32 / d, .l = l, .l_s = 2, .w_g = 4};
        m.dispatch = dispatch;
        for (const std::uint64_t n : {m.p(), 8 * m.p()}) {
          const auto ratio = [](const RunOutcome& o) {
            return measured(o, bound(o, "time_order")) / bound(o, "time_order").value;
          };
          sum_ratio =
              std::max(sum_ratio, ratio(checked(m, {"hmm_sum", "n: " + std::to_string(n)})));
          for (const std::uint64_t coefficients : {4u, 32u})
            convolution_ratio = std::max(
                convolution_ratio,
                ratio(checked(m, {"hmm_convolution", "n: " + std::to_string(n) +
                                                         ", m: " + std::to_string(coefficients)})));
          const std::uint64_t side = n == m.p() ? 32 : 64;
          transpose_ratio =
              std::max(transpose_ratio,
                       ratio(checked(m, {"hmm_transpose", "n: " + std::to_string(side * side)})));
        }
      }
  EXPECT_LE(sum_ratio, 2.0);
  EXPECT_LE(convolution_ratio, 3.0);
  EXPECT_LE(transpose_ratio, 2.5);
}

TEST(HmmPrograms, RefuseFlatMachinesAndSuperWarps) {
  for (const std::string program : {"hmm_sum", "hmm_convolution", "hmm_transpose"}) {
    const std::string params = program == "hmm_convolution" ? "n: 16, m: 2" : "n: 64";
    EXPECT_EQ(input_error_of("machine:\n  model: umm\n  width: 4\n  latency: 2\n  threads: 8\n"
                             "program: {name: " +
                             program + ", params: {" + params + "}}\n"),
              ":2:10: machine.model: " + program +
                  " runs on the hierarchical machine (model hmm): streaming multiprocessors "
                  "with shared memories over a global memory; model umm is flat");
    EXPECT_EQ(input_error_of("machine:\n  model: hmm\n  width: 4\n  latency: 2\n  threads: 16\n"
                             "  shared: {model: sdmm}\n  super_warp: 2\n"
                             "program: {name: " +
                             program + ", params: {" + params + "}}\n"),
              ":7:15: machine.super_warp: " + program +
                  " dispatches single warps (the warps of a super warp would send one step to "
                  "different memories); leave super_warp out");
  }
  // Without threads on a flat machine it still says what is wrong.
  EXPECT_NE(input_error_of("machine: {model: dmm, width: 4, latency: 2}\n"
                           "program: {name: hmm_sum, params: {n: 8}}\n")
                .find("machine.model: hmm_sum runs on the hierarchical machine"),
            std::string::npos);
}

TEST(HmmPrograms, RefuseBadParametersWhereTheyAreWritten) {
  const auto bench = [](const std::string& program, const std::string& params) {
    return "machine: {model: hmm, multiprocessors: 2, width: 8, latency: 4, threads: 32}\n"
           "program:\n  name: " +
           program + "\n  params: {" + params + "}\n";
  };
  EXPECT_EQ(input_error_of(bench("hmm_transpose", "n: 1000")),
            ":4:15: program.params.n: n = 1000 is not a perfect square (the matrix is sqrt(n) x "
            "sqrt(n)); 961 or 1024 would be");
  EXPECT_EQ(input_error_of(bench("hmm_transpose", "n: 1296")),
            ":4:15: program.params.n: sqrt(n) = 36 is not a multiple of w = 8 (the matrix is cut "
            "into w x w tiles); n = 1024 or n = 1600 would be");
  EXPECT_EQ(input_error_of(bench("hmm_transpose", "n: 16")),
            ":4:15: program.params.n: sqrt(n) = 4 is not a multiple of w = 8 (the matrix is cut "
            "into w x w tiles); n = 64 would be");
  EXPECT_EQ(input_error_of(bench("hmm_transpose", "n: 64, arrangement: skewed")),
            ":4:32: program.params.arrangement: expected padded, diagonal or naive, got 'skewed'");
  EXPECT_EQ(input_error_of(bench("hmm_convolution", "n: 16, m: 0")),
            ":4:22: program.params.m: m must be at least 1 (got 0)");
  EXPECT_EQ(input_error_of(bench("hmm_convolution", "m: 3")),
            ":4:11: program hmm_convolution needs parameter 'n' (outputs c[0..n); b holds m + n - "
            "1 numbers)");
  EXPECT_EQ(input_error_of(bench("hmm_sum", "n: 0")),
            ":4:15: program.params.n: give n (the number of inputs) or params.file");
}

}  // namespace
}  // namespace mmsim::test
