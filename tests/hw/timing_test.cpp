// The timing rules of docs/semantics.md §3 on the papers' worked examples and small cases.
#include <gtest/gtest.h>

#include "support/replay_kernel.hpp"

namespace mmsim::test {
namespace {

RefInstruction read(std::vector<Address> a) { return {RefInstruction::read, std::move(a), {}}; }
RefInstruction write(std::vector<Address> a, std::vector<Word> v) {
  return {RefInstruction::write, std::move(a), std::move(v)};
}
RefInstruction sync() { return {RefInstruction::sync, {}, {}}; }

const RefProgram fig4{{{read({0, 1, 5, 10})}, {read({8, 9, 14, 15})}}};

TEST(Timing, Nakano2012Fig4OnTheDmmTakesFiveTimeUnits) {
  const auto run = replay(machine("dmm", 4, 3, 8, 16), fig4);
  EXPECT_EQ(run.result.cycles(), 5u);
  EXPECT_EQ(run.result.counters.stages, 3u);
  EXPECT_EQ(run.result.counters.dispatches, 2u);
  EXPECT_EQ(run.reads[0], (std::vector<Word>{0, 1, 5, 10}));
  EXPECT_EQ(run.reads[1], (std::vector<Word>{8, 9, 14, 15}));
}

TEST(Timing, Nakano2012Fig4OnTheUmmTakesSevenTimeUnits) {
  const auto run = replay(machine("umm", 4, 3, 8, 16), fig4);
  EXPECT_EQ(run.result.cycles(), 7u);
  EXPECT_EQ(run.result.counters.stages, 5u);
}

TEST(Timing, Nakano2012AsynchronousFig2OnTheUmmTakesNineTimeUnits) {
  const RefProgram fig2{{{read({7, 5, 15, 0})}, {read({10, 11, 12, 9})}}};
  const auto run = replay(machine("umm", 4, 5, 8, 16), fig2);
  EXPECT_EQ(run.result.cycles(), 3u + 2u + 4u);
}

TEST(Timing, BpramTakesCeilRequestsOverWAtLatencyOne) {
  const RefProgram program{{{read({0, 4, 8, 12})}, {read({1, 1, 1, 1})}}};
  auto c = machine("bpram", 4, 9, 8, 16);
  const auto run = replay(c, program);
  EXPECT_EQ(run.result.counters.stages, 2u);  // 4 distinct, then 1 merged request
  EXPECT_EQ(run.result.cycles(), 2u);         // latency forced to 1
}

// Nakano and Matsumae 2013, Lemma 1: one warp running T rounds with total congestion C
// takes C + (l-1)T.
TEST(Timing, OneWarpTakesTotalCongestionPlusLatencyPerRound) {
  for (const unsigned l : {1u, 2u, 7u, 64u}) {
    RefProgram program{{{}}};
    std::uint64_t congestion = 0;
    for (unsigned t = 0; t < 9; ++t) {
      // t+1 distinct addresses in bank 0 and the rest conflict-free: congestion t%4 + 1
      std::vector<Address> a(8);
      const unsigned c = t % 4 + 1;
      for (unsigned lane = 0; lane < 8; ++lane) a[lane] = lane < c ? lane * 8 : lane;
      congestion += c;
      program.warps[0].push_back(t % 2 ? write(a, std::vector<Word>(8, t)) : read(a));
    }
    const auto run = replay(machine("dmm", 8, l, 8, 64), program);
    EXPECT_EQ(run.result.counters.stages, congestion);
    EXPECT_EQ(run.result.cycles(), congestion + (l - 1) * 9) << "l = " << l;
  }
}

TEST(Timing, RequestsToOneAddressAreMergedAndTheHighestLaneWritesByDefault) {
  const RefProgram program{{{write({3, 3, 3, 3}, {10, 11, 12, 13}), read({3, 3, 6, 9})}}};
  auto c = machine("dmm", 4, 2, 4, 16);
  const auto run = replay(c, program);
  EXPECT_EQ(run.result.counters.stages, 2u);  // one request, then three banks
  EXPECT_EQ(run.memory[3], 13);
  EXPECT_EQ(run.reads[0], (std::vector<Word>{13, 13, 6, 9}));
  c.write_conflict = WriteConflict::lowest_lane;
  EXPECT_EQ(replay(c, program).memory[3], 10);
}

// With lanes inactive the rule still picks the write that lands: DMM, w = 4, lanes 1 and 2 write
// 11 and 12 to m[3], lanes 0 and 3 send nothing. The highest active lane (2) wins by default,
// the lowest (1) under lowest_lane; m[0] and m[7], which the inactive lanes would have reached
// had they been read as addresses, keep their values.
TEST(Timing, WithLanesInactiveTheRuleStillChoosesTheWriteThatLands) {
  const RefProgram program{{{write({kInactive, 3, 3, kInactive}, {10, 11, 12, 13}),
                             read({kInactive, 3, kInactive, 5})}}};
  auto c = machine("dmm", 4, 2, 4, 16);
  const auto run = replay(c, program);
  EXPECT_EQ(run.memory[3], 12);
  EXPECT_EQ(run.memory[0], 0);
  EXPECT_EQ(run.memory[7], 7);
  EXPECT_EQ(run.reads[0], (std::vector<Word>{12, 5}));
  c.write_conflict = WriteConflict::lowest_lane;
  const auto lowest = replay(c, program);
  EXPECT_EQ(lowest.memory[3], 11);
  EXPECT_EQ(lowest.reads[0], (std::vector<Word>{11, 5}));
}

// A lane that sends nothing keeps its register (it starts as the thread's number): a read of
// m[6] and m[7] by lanes 1 and 3, then a write of the registers to m[8..11], gives 0, 6, 2, 7.
class ReadSomeLanesThenWriteRegisters final : public Kernel {
 public:
  Task run(Warp& warp) override {
    co_await warp.read(some_);
    co_await warp.write(out_);
  }

 private:
  const std::vector<Address> some_{kInactive, 6, kInactive, 7};
  const std::vector<Address> out_{8, 9, 10, 11};
};

TEST(Timing, AnInactiveLaneKeepsItsRegisterThroughARead) {
  Simulation simulation(resolve_machine(machine("dmm", 4, 2, 4, 16)), {});
  Mmu& memory = simulation.memory(0);
  for (Address a = 0; a < memory.words(); ++a) memory.poke(a, static_cast<Word>(a));
  ReadSomeLanesThenWriteRegisters kernel;
  simulation.run(kernel);
  EXPECT_EQ(memory.peek(8), 0);
  EXPECT_EQ(memory.peek(9), 6);
  EXPECT_EQ(memory.peek(10), 2);
  EXPECT_EQ(memory.peek(11), 7);
}

TEST(Timing, ADispatchWithNoActiveLaneTakesNoTime) {
  const RefProgram program{
      {{read({kInactive, kInactive}), read({0, 1}), read({kInactive, kInactive})}}};
  const auto run = replay(machine("dmm", 2, 5, 2, 4), program);
  EXPECT_EQ(run.result.counters.dispatches, 1u);
  EXPECT_EQ(run.result.cycles(), 5u);
  EXPECT_EQ(run.result.counters.requests, 2u);
}

TEST(Timing, NothingSentMeansZeroTime) {
  const RefProgram program{{{}, {sync()}}};
  const auto run = replay(machine("umm", 2, 5, 4, 4), program);
  EXPECT_EQ(run.result.cycles(), 0u);
  EXPECT_EQ(run.result.counters.dispatches, 0u);
}

TEST(Timing, RoundRobinHoldsTheTurnForAWaitingWarp) {
  // W(0) sends twice, W(1) once. With l = 4: W0 at 0, W1 at 1, W0 again at 4 (it holds the
  // turn from time 2 until its request completes at 3): last completion 4 + 3 = 7.
  const RefProgram program{{{read({0, 1}), read({2, 3})}, {read({4, 5})}}};
  const auto run = replay(machine("dmm", 2, 4, 4, 8), program);
  EXPECT_EQ(run.result.cycles(), 8u);
}

TEST(Timing, BarrierReleasesWhenTheLastWarpArrivesPlusItsLatency) {
  // W0: read, sync, read; W1: read, read, sync, read. l = 3, w = 2, conflict-free.
  const RefProgram program{
      {{read({0, 1}), sync(), read({0, 1})}, {read({2, 3}), read({2, 3}), sync(), read({2, 3})}}};
  for (const Cycle latency : {0u, 5u}) {
    auto c = machine("dmm", 2, 3, 4, 4);
    c.barrier_latency = latency;
    const auto run = replay(c, program);
    // W0 at 0 (free at 3), W1 at 1 (free at 4), W1 again at 4 (free at 7): barrier opens at
    // 7 + latency; W0 dispatches then, W1 one cycle later and completes 2 later.
    EXPECT_EQ(run.result.syncthreads, 1u);
    EXPECT_EQ(run.result.cycles(), 7 + latency + 1 + 2 + 1) << "barrier latency " << latency;
  }
}

TEST(Timing, ComputeLatencyDelaysTheNextInstruction) {
  const RefProgram program{{{read({0, 1}), read({0, 1})}}};
  auto c = machine("dmm", 2, 3, 2, 2);
  c.compute_latency = 10;
  // first completes at 2, next issues at 2 + 1 + 10 = 13, completes at 15
  EXPECT_EQ(replay(c, program).result.cycles(), 16u);
}

TEST(Timing, AnAddressOutsideMemoryIsAnError) {
  const RefProgram program{{{read({0, 99})}}};
  EXPECT_THROW(replay(machine("dmm", 2, 3, 2, 8), program), SimulationError);
  // The largest address before kInactive, then an inactive lane: the lanes look like a run of
  // consecutive addresses, but the first is outside the memory.
  const RefProgram edge{{{read({kInactive - 1, kInactive})}}};
  EXPECT_THROW(replay(machine("dmm", 2, 3, 2, 8), edge), SimulationError);
  // Beside an inactive lane (which lies beyond every memory too), the first word beyond the 8 is
  // found; the last word is in range.
  const RefProgram beside{{{read({kInactive, 8})}}};
  EXPECT_THROW(replay(machine("dmm", 2, 3, 2, 8), beside), SimulationError);
  const RefProgram last{{{read({kInactive, 7})}}};
  EXPECT_EQ(replay(machine("dmm", 2, 3, 2, 8), last).result.counters.requests, 1u);
}

}  // namespace
}  // namespace mmsim::test
