// What the papers leave open and docs/semantics.md decides, each decision with its worked
// example (docs/semantics.md §9, "Decisions, by example").
#include <gtest/gtest.h>

#include "support/replay_kernel.hpp"

namespace mmsim::test {
namespace {

RefInstruction access(RefInstruction::Kind kind, Space space, std::vector<Address> addresses,
                      Word value = 5) {
  RefInstruction in;
  in.kind = kind;
  in.space = space;
  in.values.assign(addresses.size(), value);
  in.addresses = std::move(addresses);
  return in;
}
RefInstruction read(std::vector<Address> addresses, Space space = Space::global) {
  return access(RefInstruction::read, space, std::move(addresses));
}
RefInstruction write(std::vector<Address> addresses, Space space = Space::global) {
  return access(RefInstruction::write, space, std::move(addresses));
}
RefInstruction barrier(RefInstruction::Kind kind) {
  RefInstruction in;
  in.kind = kind;
  return in;
}

MachineConfig hmm_one_sm(unsigned w, unsigned warps, unsigned l, unsigned l_s) {
  MachineConfig m = machine("hmm", w, l, std::uint64_t{w} * warps, 16);
  m.shared.latency = l_s;
  m.shared.words = 16;
  return m;
}

// An instruction with no active lane takes no time and no turn: DMM, w = 2, l = 2, p = 4,
// round robin. W(0): read [-, -], then write 5 to [0, -]; W(1): read [0, -]. W(0)'s empty read
// is skipped, so W(0) writes at 0 (completes at 1) and W(1) reads at 1 (completes at 2) and
// gets 5: 3 time units, 2 dispatches. (Had the empty read used W(0)'s turn, W(1) would have
// read at 0 and got 0.)
TEST(SemanticsDecisions, AnInstructionWithNoActiveLaneTakesNoTimeAndNoTurn) {
  RefProgram program;
  program.warps = {{read({kInactive, kInactive}), write({0, kInactive})}, {read({0, kInactive})}};
  const Replayed got = replay(machine("dmm", 2, 2, 4, 4), program);
  EXPECT_EQ(got.result.cycles(), 3u);
  EXPECT_EQ(got.result.counters.dispatches, 2u);
  EXPECT_EQ(got.reads[1], (std::vector<Word>{5}));
  // The same on each memory of the hierarchical machine: the shared memory's turn.
  program.warps = {{read({kInactive, kInactive}, Space::shared), write({0, kInactive}, Space::shared)},
                   {read({0, kInactive}, Space::shared)}};
  const Replayed shared = replay(hmm_one_sm(2, 2, 7, 2), program);
  EXPECT_EQ(shared.result.cycles(), 3u);
  EXPECT_EQ(shared.reads[1], (std::vector<Word>{5}));
}

// A barrier opened by a warp that finishes: the release is the time the last other warp's
// program ended, that is the first time unit at which it could have sent another instruction
// (its last completion + 1). DMM, w = 2, l = 5, p = 4: W(0) waits at syncthreads from 0;
// W(1) reads at 0, completes at 4 and ends at 5; the barrier opens at 5 (+ barrier_latency),
// W(0) reads then and completes at 9: 10 time units; 12 with barrier_latency = 2.
TEST(SemanticsDecisions, ABarrierOpenedByAWarpThatFinishes) {
  RefProgram program;
  program.warps = {{barrier(RefInstruction::sync), read({0, 1})}, {read({2, 3})}};
  MachineConfig m = machine("dmm", 2, 5, 4, 4);
  const Replayed got = replay(m, program);
  EXPECT_EQ(got.result.cycles(), 10u);
  EXPECT_EQ(got.result.syncthreads, 1u);
  EXPECT_EQ(got.result.warp_times[0].barrier, 5u);
  m.barrier_latency = 2;
  EXPECT_EQ(replay(m, program).result.cycles(), 12u);
}

// One warp of a block at syncthreads, another at grid_sync: the grid_sync counts as arrived at
// the block's barrier, which opens; the warp at grid_sync waits on for the whole machine.
// HMM d = 1, w = 2, l = 3, p = 4: both barriers are reached at 0; the block's opens at 0 and
// W(0) reads at 0 (completes at 2, ends at 3); the grid barrier opens at 3 (kernel_latency 0)
// and W(1) reads then (completes at 5): 6 time units, one block step, one grid step.
TEST(SemanticsDecisions, SyncthreadsAndGridSyncInOneBlock) {
  RefProgram program;
  program.warps = {{barrier(RefInstruction::sync), read({0, 1})},
                   {barrier(RefInstruction::grid_sync), read({2, 3})}};
  const Replayed got = replay(hmm_one_sm(2, 2, 3, 1), program);
  EXPECT_EQ(got.result.cycles(), 6u);
  EXPECT_EQ(got.result.block_syncthreads, (std::vector<std::uint64_t>{1}));
  EXPECT_EQ(got.result.grid_syncs, 1u);
  EXPECT_EQ(got.result.warp_times[1].barrier, 3u);
}

// The same within one super warp: the block's barrier lets through only its warps at
// syncthreads. HMM d = 1, shared sdmm with s = 2, w = 2, p = 4 (one super warp), l = l_s = 1.
// W(0) reaches grid_sync and W(1) syncthreads at 0; the block's barrier opens at 0 and W(1)
// reads its shared memory at 0 (W(0)'s lanes inactive; completes at 0, ends at 1); the grid
// barrier opens at 1 and W(0) reads at 1: 2 time units, two dispatches.
TEST(SemanticsDecisions, SyncthreadsReleasesOnlyItsOwnWarpsOfASuperWarp) {
  MachineConfig m = hmm_one_sm(2, 2, 1, 1);
  m.shared.model = "sdmm";
  m.super_warp = 2;
  RefProgram program;
  program.warps = {{barrier(RefInstruction::grid_sync), read({0, kInactive}, Space::shared)},
                   {barrier(RefInstruction::sync), read({1, kInactive}, Space::shared)}};
  const Replayed got = replay(m, program);
  EXPECT_EQ(got.result.cycles(), 2u);
  EXPECT_EQ(got.result.memories[1].counters.dispatches, 2u);
  EXPECT_EQ(got.result.block_syncthreads, (std::vector<std::uint64_t>{1}));
  EXPECT_EQ(got.result.grid_syncs, 1u);
  EXPECT_EQ(got.result.warp_times[0].barrier, 1u);
}

}  // namespace
}  // namespace mmsim::test
