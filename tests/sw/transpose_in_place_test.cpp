// Nakano 2012, section IV: the in-place transposes (the diagonal one of Lemma 2 through a work
// array, and the straightforward exchange as printed and corrected).
#include <gtest/gtest.h>

#include "hw/machine/simulation.hpp"
#include "support/testbench_text.hpp"
#include "sw/program/data_pattern.hpp"
#include "sw/programs/catalogue.hpp"

namespace mmsim::test {
namespace {

std::string testbench(const std::string& program, const std::string& model, unsigned w, unsigned l,
                      std::uint64_t p, std::uint64_t n, const std::string& extra = "",
                      const std::string& dispatch = "round_robin") {
  return "machine: {model: " + model + ", width: " + std::to_string(w) +
         ", latency: " + std::to_string(l) + ", threads: " + std::to_string(p) +
         ", dispatch: " + dispatch + "}\nprogram: {name: " + program +
         ", params: {n: " + std::to_string(n) + extra + "}}\n";
}

double figure(const RunOutcome& o, const std::string& key) {
  for (const ProgramFigure& f : o.figures)
    if (f.key == key) return f.value;
  ADD_FAILURE() << "no figure " << key;
  return -1;
}

TEST(TransposeDiagonalInPlace, BothPassesAreConflictFreeOnTheDmm) {
  for (const unsigned w : {4u, 8u, 32u})
    for (const std::uint64_t side : {std::uint64_t{w}, std::uint64_t{4} * w}) {
      const std::uint64_t n = side * side;
      const std::uint64_t p = std::min<std::uint64_t>(n, 4 * w);
      const auto o = run_yaml(testbench("transpose_diagonal_in_place", "dmm", w, 7, p, n));
      const std::string where = "w=" + std::to_string(w) + " n=" + std::to_string(n);
      ASSERT_TRUE(o.verified.value_or(false)) << where << ": " << o.first_mismatch;
      EXPECT_EQ(o.elements_checked, n);
      EXPECT_EQ(o.result.counters.stages, 4 * n / w) << where;  // Lemma 2: 4n/w stages
      EXPECT_EQ(o.result.counters.max_stages, 1u) << where;
      EXPECT_EQ(o.result.syncthreads, 1u);
      EXPECT_EQ(static_cast<double>(o.result.cycles()), find_bound(o, "time_exact")->value)
          << where;
    }
}

TEST(TransposeDiagonalInPlace, TheBarrierKeepsItCorrectUnderEveryPolicy) {
  for (const std::string policy :
       {"round_robin", "lowest_ready", "oldest_ready", "random", "adversarial"}) {
    const auto o =
        run_yaml(testbench("transpose_diagonal_in_place", "dmm", 4, 9, 16, 32 * 32, "", policy),
                 {"machine.race_check=true"});
    EXPECT_TRUE(o.verified.value_or(false)) << policy << ": " << o.first_mismatch;
    EXPECT_EQ(o.race_count, 0u) << policy;
  }
}

TEST(TransposeExchange, AsPrintedItReturnsTheInputWhenEveryRowHasARoundOfItsOwn) {
  // p divides sqrt(n): a round holds one row, so the threads of (j, k) and (k, j) run in
  // different rounds and exchange the pair twice. The memory afterwards, cell by cell:
  const std::uint64_t side = 32;
  for (const std::uint64_t p : {8u, 16u, 32u}) {
    MachineConfig m;
    m.model = "dmm";
    m.width = 8;
    m.latency = 5;
    m.threads = p;
    ProgramArgs args;
    args.params.set("n", std::int64_t(side * side));
    args.params.set("variant", std::string("as_printed"));
    const auto program = find_program("transpose_exchange")->make(args);
    program->configure(m);
    m.memory_words = program->memory_words();
    Simulation simulation(resolve_machine(m));
    program->initialize(simulation.memory());
    simulation.run(*program);
    for (Address a = 0; a < side * side; ++a)
      ASSERT_EQ(simulation.memory().peek(a), data_pattern(a)) << "p=" << p << " m[" << a << "]";
    EXPECT_TRUE(program->figures().at(0).value == 0) << "no pair shares a round";
  }
}

TEST(TransposeExchange, AsPrintedItTransposesOnlyThePairsWhoseThreadsShareARound) {
  const std::uint64_t side = 16;
  const std::uint64_t n = side * side;
  // p = n: one round, every pair exchanged once, by both threads at once: the transpose.
  const auto all =
      run_yaml(testbench("transpose_exchange", "umm", 4, 3, n, n, ", variant: as_printed"));
  ASSERT_TRUE(all.verified.value_or(false)) << all.first_mismatch;
  EXPECT_EQ(figure(all, "pairs_transposed"), side * (side - 1) / 2);
  // p = 4 rows: only the pairs inside a band of 4 rows, 6 per band.
  const auto bands =
      run_yaml(testbench("transpose_exchange", "umm", 4, 3, 4 * side, n, ", variant: as_printed"));
  ASSERT_TRUE(bands.verified.value_or(false)) << bands.first_mismatch;
  EXPECT_EQ(figure(bands, "pairs_transposed"), side / 4 * 6);
}

TEST(TransposeExchange, CorrectedItTransposesOnEveryModelAndUnderEveryPolicy) {
  for (const std::string model : {"dmm", "sdmm", "rsdmm", "umm", "bpram", "pram"})
    for (const std::string policy : {"round_robin", "random", "adversarial"}) {
      const auto o = run_yaml(testbench("transpose_exchange", model, 4, 5, 16, 24 * 24, "", policy),
                              {"machine.race_check=true"});
      EXPECT_TRUE(o.verified.value_or(false)) << model << " " << policy << ": " << o.first_mismatch;
      EXPECT_EQ(o.race_count, 0u) << model << " " << policy;
      EXPECT_TRUE(o.figures.empty());
    }
}

TEST(TransposeExchange, CorrectedItSendsHalfTheRequests) {
  // sqrt(n) = 32, w = 8: the exchanges of the n - sqrt(n) off-diagonal cells' pairs, once each:
  // 4 * (n - sqrt(n))/2 requests, against 4n as printed.
  const std::uint64_t n = 32 * 32;
  const auto corrected = run_yaml(testbench("transpose_exchange", "dmm", 8, 5, 64, n));
  const auto printed =
      run_yaml(testbench("transpose_exchange", "dmm", 8, 5, 64, n, ", variant: as_printed"));
  ASSERT_TRUE(corrected.verified.value_or(false) && printed.verified.value_or(false));
  EXPECT_EQ(corrected.result.counters.requests, 2 * (n - 32));
  EXPECT_EQ(printed.result.counters.requests, 4 * n);
  // Each exchange of a warp goes down a column of a: one bank, one stage per active lane.
  EXPECT_EQ(printed.result.counters.stages, 2 * n / 8 + 2 * n);
}

TEST(TransposeInPlace, RejectsMatricesThatDoNotFit) {
  EXPECT_THROW(run_yaml(testbench("transpose_exchange", "dmm", 4, 2, 8, 48)), InputError);
  EXPECT_THROW(run_yaml(testbench("transpose_diagonal_in_place", "dmm", 4, 2, 12, 64)), InputError);
  EXPECT_THROW(run_yaml(testbench("transpose_exchange", "dmm", 4, 2, 8, 64, ", variant: twice")),
               InputError);
}

}  // namespace
}  // namespace mmsim::test
