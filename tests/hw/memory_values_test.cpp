// A memory without values (MachineConfig::memory_values = false: a program that carries no data,
// a GPU trace): it holds zeros and drops what is written. Timing does not depend on values, so
// random programs take the same cycles, counters, warp times and observed accesses as with
// values, on every flat model and on both memories of the hierarchical machine; every read
// returns 0 to its active lanes, an inactive lane keeps its register, and the memory reads 0
// after the program's writes and the backdoor's.
#include <gtest/gtest.h>

#include <random>

#include "hw/machine/simulation.hpp"
#include "support/access_log.hpp"
#include "support/replay_checks.hpp"

namespace mmsim::test {
namespace {

// The same time as with values; zeros read and left where values were not kept.
void expect_same_timing_and_zeros(const Replayed& without, const Replayed& with,
                                  const std::string& where) {
  expect_same_timing(without, with, where);
  // Zeros everywhere: what the reads returned, and the memories after the run.
  for (const std::vector<Word>& reads : without.reads)
    for (const Word value : reads) ASSERT_EQ(value, 0u) << where;
  for (const std::vector<Word>& words : without.memories)
    for (const Word value : words) ASSERT_EQ(value, 0u) << where;
  // With values, the same program reads and leaves other than zeros (m[i] = i at the start).
  bool nonzero = false;
  for (const std::vector<Word>& words : with.memories)
    for (const Word value : words) nonzero |= value != 0;
  EXPECT_TRUE(nonzero) << where;
}

TEST(MemoryValues, WithoutValuesEveryFlatModelRunsAlikeAndHoldsZeros) {
  const std::vector<std::pair<std::string, unsigned>> models = {
      {"dmm", 1}, {"umm", 1}, {"sdmm", 2}, {"rsdmm", 2}, {"bpram", 1}, {"pram", 1}};
  for (std::uint64_t seed = 1; seed <= 6; ++seed)
    for (const auto& [model, super_warp] : models) {
      std::mt19937_64 rng(seed * 7919 + super_warp);
      const RefProgram program = random_run_program(rng, 4, 6, 28, 0);
      MachineConfig m = machine(model, 4, 3, 4 * 6, 28);
      m.super_warp = super_warp;
      AccessLog with_log;
      AccessLog without_log;
      const Replayed with = replay(m, program, {}, &with_log, seed % 2 == 0);
      m.memory_values = false;
      const Replayed without = replay(m, program, {}, &without_log, seed % 2 == 0);
      const std::string where = model + " seed=" + std::to_string(seed);
      expect_same_timing_and_zeros(without, with, where);
      EXPECT_EQ(without_log.lines, with_log.lines) << where;
    }
}

TEST(MemoryValues, WithoutValuesBothMemoriesOfTheHierarchicalMachineHoldZeros) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    std::mt19937_64 rng(seed * 6151);
    MachineConfig m = two_sm_hmm();
    const RefProgram program = random_run_program(rng, 4, 6, m.memory_words, m.shared.words);
    const Replayed with = replay(m, program);
    m.memory_values = false;
    const Replayed without = replay(m, program);
    expect_same_timing_and_zeros(without, with, "hmm seed=" + std::to_string(seed));
  }
}

// One warp of 4 lanes whose registers hold 7 before a read with lanes 1 and 3 inactive: lanes 0
// and 2 read 0, lanes 1 and 3 keep 7.
class InactiveLanes final : public Kernel {
 public:
  Task run(Warp& warp) override {
    for (Word& r : warp.registers()) r = 7;
    const std::vector<Address> lanes = {2, kInactive, 3, kInactive};
    const auto values = co_await warp.read(lanes);
    got.assign(values.begin(), values.end());
  }
  std::vector<Word> got;
};

TEST(MemoryValues, AReadWithoutValuesZeroesItsActiveLanesOnly) {
  MachineConfig m = machine("dmm", 4, 2, 4, 8);
  m.memory_values = false;
  Simulation simulation(resolve_machine(m));
  simulation.memory(0).poke(2, 5);  // dropped
  EXPECT_EQ(simulation.memory(0).peek(2), 0u);
  InactiveLanes kernel;
  simulation.run(kernel);
  EXPECT_EQ(kernel.got, (std::vector<Word>{0, 7, 0, 7}));
}

}  // namespace
}  // namespace mmsim::test
