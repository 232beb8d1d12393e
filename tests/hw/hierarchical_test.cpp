// The hierarchical machine (docs/semantics.md, section 7): d streaming multiprocessors with
// a shared memory each over one global memory; every memory with its own pipeline and turn;
// syncthreads per block, grid_sync over the machine.
#include <gtest/gtest.h>

#include <random>

#include "support/random_program.hpp"
#include "support/reference_checks.hpp"
#include "support/reference_hmm.hpp"
#include "support/replay_kernel.hpp"
#include "support/testbench_text.hpp"

namespace mmsim::test {
namespace {

MachineConfig hmm(unsigned d, unsigned w, unsigned warps, unsigned l, unsigned l_s) {
  MachineConfig m;
  m.model = "hmm";
  m.multiprocessors = d;
  m.width = w;
  m.threads = std::uint64_t{w} * warps;
  m.latency = l;
  m.shared.latency = l_s;
  m.memory_words = 64;
  m.shared.words = 64;
  return m;
}

RefInstruction access(RefInstruction::Kind kind, Space space, std::vector<Address> addresses) {
  RefInstruction in;
  in.kind = kind;
  in.space = space;
  in.values.assign(addresses.size(), 7);
  in.addresses = std::move(addresses);
  return in;
}
RefInstruction read(Space space, std::vector<Address> addresses) {
  return access(RefInstruction::read, space, std::move(addresses));
}
RefInstruction barrier(RefInstruction::Kind kind) {
  RefInstruction in;
  in.kind = kind;
  return in;
}

// The example of docs/semantics.md §9, checked by hand (w = 4, d = 2, p = 8, l = 5, l_s = 1).
TEST(Hierarchical, TwoWarpsOnTwoMultiprocessorsShareTheGlobalPipeline) {
  const MachineConfig m = hmm(2, 4, 2, 5, 1);
  RefProgram program;
  // W(0) (SM 0) reads global m[0..3], W(1) (SM 1) global m[8..11]: W(0) enters at 0, W(1) at
  // 1; completions at 4 and 5: 6 time units.
  program.warps = {{read(Space::global, {0, 1, 2, 3})}, {read(Space::global, {8, 9, 10, 11})}};
  const Replayed both = replay(m, program);
  EXPECT_EQ(both.result.cycles(), 6u);
  EXPECT_EQ(both.result.memories[0].counters.dispatches, 2u);
  EXPECT_EQ(both.result.memories[0].counters.busy, 6u);  // groups in the pipeline at 0..5
  // W(1) reads its shared memory at [0, 4, 8, 12] instead: bank 0 four times (k = 4), in
  // parallel with W(0): its groups enter at 0..3 and complete at 0..3; W(0) completes at 4.
  program.warps[1] = {read(Space::shared, {0, 4, 8, 12})};
  const Replayed mixed = replay(m, program);
  EXPECT_EQ(mixed.result.cycles(), 5u);
  const MemoryCounters& shared = mixed.result.memories[2].counters;  // SM 1's
  EXPECT_EQ(mixed.result.memories[2].label, "SM 1 shared");
  EXPECT_EQ(shared.stages, 4u);
  EXPECT_EQ(shared.max_stages, 4u);
  EXPECT_EQ(shared.busy, 4u);
  EXPECT_EQ(shared.cycles(), 4u);
  EXPECT_EQ(mixed.result.memories[1].counters.dispatches, 0u);  // SM 0's shared memory
  EXPECT_EQ(mixed.result.memories[0].counters.cycles(), 5u);
}

// Shared memories work in parallel: d SMs each running a 4-way bank conflict take the time of
// one; one SM running all of them serialises them in its one pipeline.
TEST(Hierarchical, SharedMemoriesOfDifferentMultiprocessorsWorkInParallel) {
  RefProgram program;
  for (int i = 0; i < 4; ++i) program.warps.push_back({read(Space::shared, {0, 4, 8, 12})});
  // d = 4: each dispatch occupies 4 stages of its own pipeline (l_s = 2): completes at 4.
  EXPECT_EQ(replay(hmm(4, 4, 4, 5, 2), program).result.cycles(), 5u);
  // d = 1: 16 stages in one pipeline: the last group enters at 15, completes at 16.
  EXPECT_EQ(replay(hmm(1, 4, 4, 5, 2), program).result.cycles(), 17u);
}

// Global memory of width w_g: a warp's w = 8 consecutive words touch 8 / w_g address groups.
TEST(Hierarchical, GlobalAddressGroupsHaveTheGlobalWidth) {
  MachineConfig m = hmm(1, 8, 1, 3, 1);
  RefProgram program;
  program.warps = {{read(Space::global, {0, 1, 2, 3, 4, 5, 6, 7})}};
  m.global_width = 2;
  EXPECT_EQ(replay(m, program).result.counters.stages, 4u);
  EXPECT_EQ(replay(m, program).result.cycles(), 6u);  // 4 + l - 1
  m.global_width = 8;
  EXPECT_EQ(replay(m, program).result.cycles(), 3u);
}

// Round robin keeps one turn per memory: a warp waiting for its shared-memory request holds
// the global turn, so global memory idles although the other warp is ready for it; an
// asynchronous policy lets the other warp go.
TEST(Hierarchical, AWarpWaitingForSharedMemoryHoldsTheGlobalTurnUnderRoundRobin) {
  MachineConfig m = hmm(1, 4, 2, 2, 4);
  RefProgram program;
  program.warps = {{read(Space::shared, {0, 1, 2, 3}), read(Space::global, {0, 1, 2, 3})},
                   {read(Space::global, {4, 5, 6, 7}), read(Space::global, {8, 9, 10, 11})}};
  // t = 0: W(1) to global (done at 1, back at 2), W(0) to shared (done at 3, back at 4). At 2
  // the global turn is W(0)'s, which waits: global idles until W(0) goes at 4 (done at 5);
  // W(1) follows at 5 (done at 6).
  EXPECT_EQ(replay(m, program).result.cycles(), 7u);
  m.dispatch = "oldest_ready";  // W(1) goes at 2 (done at 3), W(0) at 4 (done at 5)
  EXPECT_EQ(replay(m, program).result.cycles(), 6u);
}

// syncthreads waits for the warps of its own block only: SM 1's barrier opens while SM 0's
// warps are still busy.
TEST(Hierarchical, SyncthreadsWaitsForTheWarpsOfItsBlockOnly) {
  MachineConfig m = hmm(2, 2, 4, 3, 1);
  m.dispatch = "oldest_ready";
  const auto sync = barrier(RefInstruction::sync);
  RefProgram program;
  std::vector<RefInstruction> chain(5, read(Space::shared, {0, 1}));
  chain.push_back(sync);
  program.warps = {{sync, read(Space::global, {0, 1})},                               // SM 0
                   chain,                                                             // SM 0
                   {read(Space::global, {2, 3}), sync, read(Space::global, {4, 5})},  // SM 1
                   {sync, read(Space::global, {6, 7})}};                              // SM 1
  // W(2)'s read is back at 3: SM 1's barrier opens at 3 and W(2), W(3) go at 3 and 4 (done at
  // 5 and 6). W(1)'s five shared reads end at 5: SM 0's barrier opens then, W(0) goes at 5
  // (done at 7): 8 time units. One barrier that waited for all four warps would open at 5.
  const Replayed got = replay(m, program);
  EXPECT_EQ(got.result.cycles(), 8u);
  EXPECT_EQ(got.result.block_syncthreads, (std::vector<std::uint64_t>{1, 1}));
  EXPECT_EQ(got.result.syncthreads, 1u);
  EXPECT_EQ(got.result.grid_syncs, 0u);
  m.dispatch = "round_robin";  // W(1)'s shared chain holds the global turn at 4: W(2) goes at 6
  EXPECT_EQ(replay(m, program).result.cycles(), 9u);
}

// grid_sync waits for every warp of the machine and opens kernel_latency after the last one.
TEST(Hierarchical, GridSyncWaitsForEveryWarpAndTheKernelLatency) {
  MachineConfig m = hmm(2, 2, 2, 3, 1);
  m.kernel_latency = 10;
  const auto grid = barrier(RefInstruction::grid_sync);
  RefProgram program;
  program.warps = {{access(RefInstruction::write, Space::global, {0, 1}), grid},
                   {grid, read(Space::global, {0, 1})}};
  // W(0)'s write is back at 3, the barrier opens at 13, W(1)'s read completes at 15.
  const Replayed got = replay(m, program);
  EXPECT_EQ(got.result.cycles(), 16u);
  EXPECT_EQ(got.result.grid_syncs, 1u);
  EXPECT_EQ(got.reads[1], (std::vector<Word>{7, 7}));  // what W(0) wrote
}

// Each multiprocessor's shared memory is its own address space.
TEST(Hierarchical, SharedMemoriesAreSeparateAddressSpaces) {
  MachineConfig m = hmm(2, 2, 2, 3, 1);
  const auto grid = barrier(RefInstruction::grid_sync);
  RefProgram program;
  program.warps = {
      {access(RefInstruction::write, Space::shared, {0, 1}), grid, read(Space::shared, {0, 1})},
      {grid, read(Space::shared, {0, 1})}};
  const Replayed got = replay(m, program);
  EXPECT_EQ(got.reads[0], (std::vector<Word>{7, 7}));
  EXPECT_EQ(got.reads[1], (std::vector<Word>{0, 1}));  // SM 1's memory was never written
  EXPECT_EQ(got.memories[1][0], 7);
  EXPECT_EQ(got.memories[2][0], 0);
}

// Random programs over both spaces, with syncthreads and grid_syncs, give the same cycles,
// stages per memory, barrier steps, memories and read values as the reference machine.
struct HmmShape {
  unsigned width, blocks, block_warps, global_width, latency, shared_latency;
  bool pram;
};

class HierarchicalReference : public ::testing::TestWithParam<std::string> {};

TEST_P(HierarchicalReference, RandomProgramsMatchTheReferenceMachine) {
  const std::vector<HmmShape> shapes = {{4, 2, 2, 4, 5, 1, false}, {4, 3, 1, 2, 3, 2, false},
                                        {2, 2, 3, 4, 1, 1, false}, {8, 2, 2, 8, 9, 3, false},
                                        {4, 1, 4, 4, 4, 1, false}, {4, 2, 2, 2, 6, 2, true},
                                        {3, 3, 2, 5, 2, 4, true}};
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    for (const HmmShape& s : shapes) {
      std::mt19937_64 rng(seed * 7919 + s.width * 31 + s.blocks);
      const std::uint64_t global_words = std::uint64_t{s.width} * 6;
      const std::uint64_t shared_words = std::uint64_t{s.width} * 3;
      const unsigned warps = s.blocks * s.block_warps;
      const RefProgram program = random_program(rng, s.width, warps, global_words, shared_words);
      RefHmmConfig ref{.width = s.width,
                       .blocks = s.blocks,
                       .global_width = s.global_width,
                       .latency = s.latency,
                       .shared_latency = s.shared_latency,
                       .shared_pram = s.pram,
                       .dispatch = GetParam(),
                       .barrier_latency = seed % 3,
                       .kernel_latency = seed % 4,
                       .global_words = global_words,
                       .shared_words = shared_words};
      MachineConfig m = hmm(s.blocks, s.width, warps, s.latency, s.shared_latency);
      m.global_width = s.global_width;
      m.shared.model = s.pram ? "pram" : "dmm";
      m.dispatch = GetParam();
      m.barrier_latency = ref.barrier_latency;
      m.kernel_latency = ref.kernel_latency;
      m.memory_words = global_words;
      m.shared.words = shared_words;
      const RefHmmResult expected = run_reference_hmm(ref, program);
      const Replayed got = replay(m, program);
      const std::string where = "w=" + std::to_string(s.width) + " d=" + std::to_string(s.blocks) +
                                " seed=" + std::to_string(seed);
      ASSERT_NO_FATAL_FAILURE(expect_reference_run(got, expected, where));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Policies, HierarchicalReference,
                         ::testing::Values("round_robin", "lowest_ready", "oldest_ready",
                                           "adversarial"));

// An hmm with one multiprocessor whose programs use only global memory is the umm, cycle for
// cycle, under every policy (the random policy included: the global memory's stream is the
// umm's).
TEST(Hierarchical, OneMultiprocessorUsingGlobalMemoryOnlyIsTheUmm) {
  for (const std::string policy :
       {"round_robin", "lowest_ready", "oldest_ready", "random", "adversarial"}) {
    for (std::uint64_t seed = 1; seed <= 25; ++seed) {
      std::mt19937_64 rng(seed * 104729);
      const unsigned w = seed % 2 ? 4 : 8;
      const unsigned warps = 1 + seed % 5;
      RefProgram program = random_program(rng, w, warps, std::uint64_t{w} * 8, 1);
      for (auto& warp : program.warps)
        for (RefInstruction& in : warp) {
          in.space = Space::global;
          if (in.kind == RefInstruction::grid_sync) in.kind = RefInstruction::sync;
        }
      MachineConfig umm;
      umm.model = "umm";
      umm.width = w;
      umm.latency = 1 + seed % 7;
      umm.threads = std::uint64_t{w} * warps;
      umm.dispatch = policy;
      umm.barrier_latency = seed % 3;
      umm.compute_latency = seed % 4 == 0 ? 2 : 0;
      umm.memory_words = std::uint64_t{w} * 8;
      MachineConfig h = umm;
      h.model = "hmm";
      h.shared.latency = 3;
      h.shared.words = 16;
      const Replayed a = replay(umm, program);
      const Replayed b = replay(h, program);
      const std::string where = policy + " seed=" + std::to_string(seed);
      ASSERT_EQ(b.result.cycles(), a.result.cycles()) << where;
      ASSERT_EQ(b.result.counters.stages, a.result.counters.stages) << where;
      ASSERT_EQ(b.result.counters.dispatches, a.result.counters.dispatches) << where;
      ASSERT_EQ(b.result.syncthreads, a.result.syncthreads) << where;
      ASSERT_EQ(b.memory, a.memory) << where;
      ASSERT_EQ(b.reads, a.reads) << where;
    }
  }
}

}  // namespace
}  // namespace mmsim::test

namespace mmsim::test {
namespace {

// An instruction acts when it is awaited, not when it is made: a conditional expression that
// makes both (GCC 12 evaluates both operands of `?:` under co_await) issues only the one awaited,
// and an instruction never awaited issues nothing.
class ChooseBarrier final : public Kernel {
 public:
  Task run(Warp& warp) override {
    std::vector<Address> lanes(warp.width(), 0);
    const auto unused = warp.read(lanes);  // made, never awaited
    (void)unused;
    co_await (warp.index() < 100 ? warp.grid_sync() : warp.sync());
    co_await warp.read(lanes);
  }
};

TEST(Hierarchical, AnInstructionActsWhenAwaited) {
  MachineConfig m = hmm(2, 2, 4, 3, 1);
  Simulation simulation(resolve_machine(m));
  ChooseBarrier kernel;
  const RunResult r = simulation.run(kernel);
  EXPECT_EQ(r.grid_syncs, 1u);
  EXPECT_EQ(r.block_syncthreads, (std::vector<std::uint64_t>{0, 0}));
  EXPECT_EQ(r.counters.dispatches, 4u);  // one read per warp: the unawaited one issued nothing
  EXPECT_EQ(r.warp_barriers, (std::vector<std::uint64_t>{1, 1, 1, 1}));
}

}  // namespace
}  // namespace mmsim::test

namespace mmsim::test {
namespace {

// docs/semantics.md §7, simultaneity: in each time unit every memory chooses its dispatch from
// the state at the start of that time unit, so a warp the global memory dispatches at t is, for
// its shared memory at t, still ready for the global memory (passed over), and the other way
// round.
const std::vector<std::string> kPolicies = {"round_robin", "lowest_ready", "oldest_ready", "random",
                                            "adversarial"};

// One SM, w = 2, l = l_s = 1: W(0) reads global [0, -], W(1) reads shared [0, -]. Both are
// dispatched at time 0, each by its memory, and complete at 0: 1 time unit, whichever warp
// reads which memory, under every policy.
TEST(HierarchicalSimultaneity, TwoMemoriesDispatchInTheSameTimeUnitBothWaysRound) {
  for (const std::string& policy : kPolicies) {
    MachineConfig m = hmm(1, 2, 2, 1, 1);
    m.dispatch = policy;
    RefProgram program;
    program.warps = {{read(Space::global, {0, kInactive})}, {read(Space::shared, {0, kInactive})}};
    const Replayed one = replay(m, program);
    EXPECT_EQ(one.result.cycles(), 1u) << policy;
    EXPECT_EQ(one.result.memories[0].counters.dispatches, 1u) << policy;
    EXPECT_EQ(one.result.memories[1].counters.dispatches, 1u) << policy;
    std::swap(program.warps[0], program.warps[1]);
    EXPECT_EQ(replay(m, program).result.cycles(), 1u) << policy;
  }
}

// The hand-checked example of docs/semantics.md §9 on one SM (d = 1, p = 8, w = 4, l = 5,
// l_s = 1): W(0) reads global m[0..3] (one group: enters at 0, completes at 4), W(1) reads its
// shared memory at [0, 4, 8, 12] (bank 0 four times: enters at 0..3, completes at 0..3), both
// from time 0: 5 time units.
TEST(HierarchicalSimultaneity, TheHandExampleOnOneMultiprocessor) {
  for (const std::string& policy : kPolicies) {
    MachineConfig m = hmm(1, 4, 2, 5, 1);
    m.dispatch = policy;
    RefProgram program;
    program.warps = {{read(Space::global, {0, 1, 2, 3})}, {read(Space::shared, {0, 4, 8, 12})}};
    const Replayed got = replay(m, program);
    EXPECT_EQ(got.result.cycles(), 5u) << policy;
    EXPECT_EQ(got.result.memories[1].counters.cycles(), 4u) << policy;  // last shared completion 3
  }
}

// A long global request does not hold up the shared memory in the time unit it is dispatched:
// w = 4, l = 500, l_s = 1, round robin. W(0) reads global memory at 0 (completes at 499);
// W(1), W(2), W(3) each read shared [0, 4, 1, 2] (bank 0 twice: k = 2): at 0 the shared turn
// passes over W(0), ready for the global memory at the start of time 0, and W(1) goes; W(2)
// goes at 2 and W(3) at 4 (the turn comes back to W(0), which then holds it, waiting for its
// request, with no one left to wait). They complete at 1, 3 and 5: 500 time units, the global
// request alone. (When the global memory went first, W(0) held the shared turn from time 0 and
// the shared reads waited for its completion: 506.)
TEST(HierarchicalSimultaneity, AGlobalRequestDispatchedAtTheSameTimeDoesNotHoldTheSharedTurn) {
  MachineConfig m = hmm(1, 4, 4, 500, 1);
  RefProgram program;
  program.warps = {{read(Space::global, {0, 1, 2, 3})}};
  for (int i = 0; i < 3; ++i) program.warps.push_back({read(Space::shared, {0, 4, 1, 2})});
  const Replayed got = replay(m, program);
  EXPECT_EQ(got.result.cycles(), 500u);
  EXPECT_EQ(got.result.memories[1].counters.stages, 6u);
  EXPECT_EQ(got.result.memories[1].counters.cycles(), 6u);  // last shared completion at 5
}

// Shapes of hierarchical machines for the metamorphic tests: shared model and super warps too.
struct VisitShape {
  unsigned width, blocks, block_warps, global_width, latency, shared_latency, super_warp;
  std::string shared_model;
};

// The order in which the dispatcher visits the memories never changes a run: visiting them in
// reverse gives the same cycles, counters, barrier steps, memories, values read and per-warp
// times on random programs, under every policy.
TEST(HierarchicalSimultaneity, VisitingTheMemoriesInReverseChangesNothing) {
  const std::vector<VisitShape> shapes = {
      {4, 2, 2, 4, 5, 1, 1, "dmm"},  {4, 3, 1, 2, 3, 2, 1, "dmm"},  {2, 1, 3, 4, 1, 1, 1, "dmm"},
      {8, 2, 2, 8, 9, 3, 1, "dmm"},  {4, 1, 4, 4, 4, 1, 1, "pram"}, {4, 2, 4, 4, 3, 2, 2, "sdmm"},
      {2, 2, 4, 2, 7, 1, 2, "rsdmm"}};
  for (const std::string& policy : kPolicies) {
    for (std::uint64_t seed = 1; seed <= 25; ++seed) {
      for (const VisitShape& s : shapes) {
        std::mt19937_64 rng(seed * 6151 + s.width * 17 + s.blocks);
        const std::uint64_t global_words = std::uint64_t{s.width} * 6;
        const std::uint64_t shared_words = std::uint64_t{s.width} * 3;
        const unsigned warps = s.blocks * s.block_warps;
        RefProgram program = random_program(rng, s.width, warps, global_words, shared_words);
        // The warps of a super warp send each dispatch to one memory: super warps take turns
        // at reading global and shared memory only.
        if (s.super_warp > 1)
          for (std::size_t v = 0; v < program.warps.size(); ++v)
            for (RefInstruction& in : program.warps[v]) {
              in.space = v / s.super_warp % 2 ? Space::shared : Space::global;
              for (Address& a : in.addresses)
                if (a != kInactive) a %= shared_words;
            }
        MachineConfig m = hmm(s.blocks, s.width, warps, s.latency, s.shared_latency);
        m.global_width = s.global_width;
        m.shared.model = s.shared_model;
        m.super_warp = s.super_warp;
        m.dispatch = policy;
        m.seed = seed;
        m.barrier_latency = seed % 3;
        m.kernel_latency = seed % 4;
        m.compute_latency = seed % 5 == 0 ? 2 : 0;
        m.memory_words = global_words;
        m.shared.words = shared_words;
        const std::string where = policy + " w=" + std::to_string(s.width) +
                                  " d=" + std::to_string(s.blocks) + " " + s.shared_model +
                                  " seed=" + std::to_string(seed);
        SCOPED_TRACE(where);
        SimulationOptions reversed;
        reversed.dispatch.visit_order = MemoryVisitOrder::descending;
        const Replayed a = replay(m, program);
        const Replayed b = replay(m, program, reversed);
        ASSERT_EQ(b.result.cycles(), a.result.cycles()) << where;
        for (std::size_t mem = 0; mem < a.result.memories.size(); ++mem) {
          const MemoryCounters& x = a.result.memories[mem].counters;
          const MemoryCounters& y = b.result.memories[mem].counters;
          ASSERT_EQ(y.dispatches, x.dispatches) << where;
          ASSERT_EQ(y.stages, x.stages) << where;
          ASSERT_EQ(y.busy, x.busy) << where;
          ASSERT_EQ(y.cycles(), x.cycles()) << where;
        }
        ASSERT_EQ(b.result.block_syncthreads, a.result.block_syncthreads) << where;
        ASSERT_EQ(b.result.grid_syncs, a.result.grid_syncs) << where;
        ASSERT_EQ(b.memories, a.memories) << where;
        ASSERT_EQ(b.reads, a.reads) << where;
        for (std::size_t v = 0; v < a.result.warp_times.size(); ++v) {
          ASSERT_EQ(b.result.warp_times[v].turn, a.result.warp_times[v].turn) << where;
          ASSERT_EQ(b.result.warp_times[v].finish, a.result.warp_times[v].finish) << where;
        }
      }
    }
  }
}

// An hmm with one multiprocessor whose programs use only shared memory is the dmm with
// latency l_s, cycle for cycle, under every policy.
TEST(HierarchicalSimultaneity, OneMultiprocessorUsingSharedMemoryOnlyIsTheDmm) {
  for (const std::string& policy : kPolicies) {
    for (std::uint64_t seed = 1; seed <= 25; ++seed) {
      std::mt19937_64 rng(seed * 15485863);
      const unsigned w = seed % 2 ? 4 : 8;
      const unsigned warps = 1 + seed % 5;
      RefProgram flat = random_program(rng, w, warps, std::uint64_t{w} * 4, std::uint64_t{w} * 4);
      for (auto& warp : flat.warps)
        for (RefInstruction& in : warp) {
          in.space = Space::global;
          if (in.kind == RefInstruction::grid_sync) in.kind = RefInstruction::sync;
        }
      RefProgram shared = flat;
      for (auto& warp : shared.warps)
        for (RefInstruction& in : warp) in.space = Space::shared;
      MachineConfig dmm;
      dmm.model = "dmm";
      dmm.width = w;
      dmm.latency = 1 + seed % 6;
      dmm.threads = std::uint64_t{w} * warps;
      dmm.dispatch = policy;
      dmm.seed = seed;
      dmm.barrier_latency = seed % 3;
      dmm.compute_latency = seed % 4 == 0 ? 2 : 0;
      dmm.memory_words = std::uint64_t{w} * 4;
      MachineConfig h = dmm;
      h.model = "hmm";
      h.latency = 9;  // the global memory's: unused
      h.memory_words = 1;
      h.shared.latency = dmm.latency;
      // The random policy of memory m draws from the stream of machine.seed + m
      // (docs/semantics.md §4): SM 0's shared memory is memory 1, the dmm's memory 0.
      h.seed = dmm.seed - 1;
      h.shared.words = dmm.memory_words;
      const Replayed a = replay(dmm, flat);
      const Replayed b = replay(h, shared);
      const std::string where = policy + " seed=" + std::to_string(seed);
      ASSERT_EQ(b.result.cycles(), a.result.cycles()) << where;
      ASSERT_EQ(b.result.memories[1].counters.stages, a.result.counters.stages) << where;
      ASSERT_EQ(b.result.memories[1].counters.dispatches, a.result.counters.dispatches) << where;
      ASSERT_EQ(b.result.syncthreads, a.result.syncthreads) << where;
      ASSERT_EQ(b.memories[1], a.memories[0]) << where;
      ASSERT_EQ(b.reads, a.reads) << where;
    }
  }
}

}  // namespace
}  // namespace mmsim::test
