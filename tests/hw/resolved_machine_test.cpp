// A machine is resolved once (hw/machine/resolved_machine.hpp): the model's rules, the thread
// count, the checks; and the MMU alone says when an accepted dispatch completes.
#include <gtest/gtest.h>

#include "hw/machine/resolved_machine.hpp"
#include "hw/support/errors.hpp"
#include "support/replay_kernel.hpp"

namespace mmsim::test {
namespace {

TEST(ResolvedMachine, TheModelFixesTheLatencyOfUnitLatencyModelsAndThePramsSuperWarp) {
  const ResolvedMachine pram = resolve_machine(machine("pram", 4, 9, 16, 16));
  EXPECT_EQ(pram->latency, 1u);      // docs/semantics.md: the PRAM's latency is 1
  EXPECT_EQ(pram->super_warp, 4u);   // all p/w = 16/4 warps dispatch as one unit
  EXPECT_EQ(resolve_machine(machine("bpram", 4, 9, 8, 16))->latency, 1u);
  EXPECT_EQ(resolve_machine(machine("dmm", 4, 9, 8, 16))->latency, 9u);
}

TEST(ResolvedMachine, TheDefaultThreadCountSeesTheLatencyTheModelFixes) {
  MachineConfig c = machine("bpram", 4, 9, 0, 16);
  std::vector<unsigned> seen;
  const ResolvedMachine m = resolve_machine(c, [&](const MachineConfig& ruled) {
    seen.push_back(ruled.latency);
    return std::uint64_t{ruled.width} * ruled.latency;  // w*l threads, as sum_hybrid asks
  });
  EXPECT_EQ(seen, std::vector<unsigned>{1});  // asked once, with l = 1
  EXPECT_EQ(m->threads, 4u);
  c.threads = 8;  // given: not asked
  resolve_machine(c, [&](const MachineConfig&) -> std::uint64_t {
    ADD_FAILURE() << "asked for a thread count the testbench gives";
    return 0;
  });
}

TEST(ResolvedMachine, AnInvalidMachineIsRefusedAtItsKey) {
  try {
    resolve_machine(machine("dmm", 4, 2, 6, 16));
    FAIL() << "p = 6 accepted with w = 4";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "threads");
    EXPECT_STREQ(e.what(), "p = 6 is not a multiple of w = 4");
  }
}

TEST(ResolvedMachine, MemorySizesChosenLaterAreCheckedThen) {
  MachineConfig c = machine("rsdmm", 4, 2, 4, 0);
  c.mapping.rsu_shifts = {0, 3, 1};  // 3 rows: 9 to 12 words
  const ResolvedMachine m = resolve_machine(c);  // the size is not known yet
  EXPECT_EQ(m.with_memory({.words = 10, .shared_words = 0, .local_words = 2})->local_words, 2u);
  try {
    m.with_memory({.words = 16, .shared_words = 0, .local_words = 0});
    FAIL() << "3 shifts accepted for 4 rows";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "rsu.shifts");
  }
  EXPECT_THROW(m.with_memory({.words = (std::uint64_t{1} << 32) + 1, .shared_words = 0,
                              .local_words = 0}),
               ConfigError);
}

// Nakano 2012, Fig. 4 on the DMM (w = 4, l = 3): W(0) occupies 2 stages from time 0 and
// completes at 0 + 2 + 3 - 2 = 3; W(1), accepted at 2 for 1 stage, completes at 2 + 1 + 3 - 2 = 4.
TEST(ResolvedMachine, TheMmuReportsWhenAnAcceptedDispatchCompletes) {
  Simulation simulation(resolve_machine(machine("dmm", 4, 3, 8, 16)));
  Mmu& mmu = simulation.memory();
  std::vector<WarpUnit*> units = simulation.machine().units();
  const std::vector<std::vector<Address>> fig4 = {{0, 1, 5, 10}, {8, 9, 14, 15}};
  class Reads : public Kernel {
   public:
    explicit Reads(const std::vector<std::vector<Address>>& a) : a_(a) {}
    Task run(Warp& warp) override { co_await warp.read(a_[warp.index()]); }

   private:
    const std::vector<std::vector<Address>>& a_;
  } kernel(fig4);
  simulation.machine().load(kernel);
  for (WarpUnit* unit : units) unit->resume(0, simulation.machine().barrier());
  const Mmu::Accepted first = mmu.dispatch(*units[0], 0);
  EXPECT_EQ(first.stages, 2u);
  EXPECT_EQ(first.completion, 3u);
  const Mmu::Accepted second = mmu.dispatch(*units[1], 2);
  EXPECT_EQ(second.stages, 1u);
  EXPECT_EQ(second.completion, 4u);
  EXPECT_EQ(mmu.counters().cycles(), 5u);  // as the whole run takes (Timing, ...Fig4...)
}

}  // namespace
}  // namespace mmsim::test
