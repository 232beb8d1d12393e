// Banks of k ports (machine.ports, docs/semantics.md §10): the worked example of Nakano 2012,
// Fig. 4 with k = 2 on the DMM and the UMM, stride access with half the stages, and random traces
// on every model against the reference machines, which place each request in its stage group by
// §10's table.
#include <gtest/gtest.h>

#include <random>

#include "hw/memory/random_shift_map.hpp"
#include "support/random_program.hpp"
#include "support/reference_checks.hpp"
#include "support/reference_hmm.hpp"
#include "support/replay_kernel.hpp"
#include "support/testbench_text.hpp"

namespace mmsim::test {
namespace {

RefInstruction read(std::vector<Address> a) { return {RefInstruction::read, std::move(a), {}}; }

const RefProgram fig4{{{read({0, 1, 5, 10})}, {read({8, 9, 14, 15})}}};

MachineConfig ported(const std::string& model, unsigned ports) {
  MachineConfig m = machine(model, 4, 3, 8, 16);
  m.ports = ports;
  return m;
}

// Bank 1's m[1] and m[5] go through its two ports in one stage group: W(0) enters at 0 and
// completes at 2, W(1) enters at 1 and completes at 3.
TEST(BankPorts, Fig4OnTheDmmWithTwoPortsTakesFourTimeUnits) {
  const Replayed run = replay(ported("dmm", 2), fig4);
  EXPECT_EQ(run.result.cycles(), 4u);
  EXPECT_EQ(run.result.counters.stages, 2u);
  EXPECT_EQ(run.result.counters.max_stages, 1u);
  EXPECT_EQ(run.result.counters.dispatches, 2u);
  EXPECT_EQ(run.reads[0], (std::vector<Word>{0, 1, 5, 10}));
  EXPECT_EQ(run.reads[1], (std::vector<Word>{8, 9, 14, 15}));
  // One port per bank is the papers' machine: 5 time units, 3 stages.
  EXPECT_EQ(replay(ported("dmm", 1), fig4).result.cycles(), 5u);
}

// W(0)'s address groups A[0], A[1] enter together at 0, A[2] at 1 (completing at 3); W(1)'s A[2]
// and A[3] enter together at 2 and complete at 4.
TEST(BankPorts, Fig4OnTheUmmWithTwoPortsTakesFiveTimeUnits) {
  const Replayed run = replay(ported("umm", 2), fig4);
  EXPECT_EQ(run.result.cycles(), 5u);
  EXPECT_EQ(run.result.counters.stages, 3u);
  EXPECT_EQ(run.result.counters.max_stages, 2u);
  EXPECT_EQ(run.reads[0], (std::vector<Word>{0, 1, 5, 10}));
  EXPECT_EQ(replay(ported("umm", 1), fig4).result.cycles(), 7u);
  // Three ports take W(0)'s three address groups at once: entries at 0 and 1, completion at 3.
  EXPECT_EQ(replay(ported("umm", 3), fig4).result.cycles(), 4u);
}

// A warp of w requests takes one stage of the BPRAM with any ports; a super warp of the SDMM
// sending two requests to every bank takes one stage through two ports, as many as the BPRAM of
// bandwidth 2w would.
TEST(BankPorts, TwoPortsServeTwiceTheRequestsOfASuperWarp) {
  const RefProgram two_warps{{{read({0, 1, 2, 3})}, {read({4, 5, 6, 7})}}};
  MachineConfig bpram = machine("bpram", 4, 1, 8, 16);
  bpram.ports = 2;
  EXPECT_EQ(replay(bpram, two_warps).result.counters.stages, 2u);
  MachineConfig sdmm = machine("sdmm", 4, 1, 8, 16);
  sdmm.super_warp = 2;
  EXPECT_EQ(replay(sdmm, two_warps).result.counters.stages, 2u);
  sdmm.ports = 2;
  EXPECT_EQ(replay(sdmm, two_warps).result.counters.stages, 1u);
  EXPECT_EQ(replay(sdmm, two_warps).result.cycles(), 1u);
}

// The PRAM has no banks: one stage for any dispatch, whatever the ports.
TEST(BankPorts, ThePramTakesOneStageWhateverThePorts) {
  std::mt19937_64 rng(11);
  const RefProgram program = random_program(rng, 4, 6, 24, 0, {.grid_syncs = 0, .shared = 0});
  MachineConfig m = machine("pram", 4, 1, 24, 24);
  const Replayed one = replay(m, program);
  m.ports = 3;
  const Replayed three = replay(m, program);
  EXPECT_EQ(three.result.cycles(), one.result.cycles());
  EXPECT_EQ(three.result.counters.stages, one.result.counters.stages);
  EXPECT_EQ(three.result.counters.stages, three.result.counters.dispatches);
  EXPECT_EQ(three.memory, one.memory);
}

// configs/stride_dmm_gcdw.yaml: every warp's 32 requests lie in one bank. Two ports take them
// 16 stages per warp instead of 32; round robin over 32 warps for 64 rounds then takes
// 63*max(32*16, 16 + 15) + 32*16 + 15 time units.
TEST(BankPorts, TwoPortsHalveTheStagesOfStrideAccessOnTheDmm) {
  const std::string yaml = R"(machine: {model: dmm, width: 32, latency: 16, threads: 1024}
program: {name: stride_access, params: {n: 65536}}
)";
  const RunOutcome one = run_yaml(yaml);
  const RunOutcome two = run_yaml(yaml, {"machine.ports=2"});
  EXPECT_EQ(one.result.counters.stages, 65536u);
  EXPECT_EQ(two.result.counters.stages, 32768u);
  EXPECT_EQ(one.result.counters.max_stages, 32u);
  EXPECT_EQ(two.result.counters.max_stages, 16u);
  EXPECT_EQ(one.result.cycles(), 63u * 1024 + 1024 + 15);
  EXPECT_EQ(two.result.cycles(), 63u * 512 + 512 + 15);
  EXPECT_EQ(two.verified, true);
}

struct FlatShape {
  std::string model;
  unsigned width, latency, warps, rows, super_warp, ports;
  std::string map = "interleaved";
};

// Random traces (runs among them, to take the coalesced paths) on the SystemC machine with
// banks of k ports and on the reference machine: the same cycles, stages, dispatches, barrier
// steps, memory and reads.
void compare_flat(const std::vector<FlatShape>& shapes, const std::string& policy) {
  for (std::uint64_t seed = 1; seed <= 15; ++seed) {
    for (const FlatShape& s : shapes) {
      std::mt19937_64 rng(seed * 6151 + s.width * 17 + s.ports);
      const std::uint64_t words = std::uint64_t{s.width} * s.rows;
      const RefProgram program = random_program(rng, s.width, s.warps, words, 0,
                                                {.grid_syncs = 0, .shared = 0, .runs = 0.3});
      RefConfig ref;
      ref.model = s.model;
      ref.width = s.width;
      ref.super_warp = s.super_warp;
      ref.map = s.map;
      ref.latency = s.latency;
      ref.ports = s.ports;
      ref.dispatch = policy;
      ref.barrier_latency = seed % 2;
      ref.memory_words = words;
      MachineConfig m =
          machine(s.model, s.width, s.latency, std::uint64_t{s.width} * s.warps, words);
      m.super_warp = s.super_warp;
      m.ports = s.ports;
      m.dispatch = policy;
      m.barrier_latency = ref.barrier_latency;
      if (s.map != "interleaved" && s.model != "rsdmm") m.mapping.address_map = s.map;
      if (s.map == "random_shift") {
        const auto drawn = random_shifts(s.width, s.rows, seed);
        ref.shifts.assign(drawn.begin(), drawn.end());
        m.mapping.rsu_shifts = ref.shifts;
      }
      const RefResult expected = run_reference(ref, program);
      const Replayed got = replay(m, program, {}, nullptr, true);
      const std::string where = s.model + " map=" + s.map + " w=" + std::to_string(s.width) +
                                " s=" + std::to_string(s.super_warp) +
                                " ports=" + std::to_string(s.ports) +
                                " seed=" + std::to_string(seed);
      ASSERT_NO_FATAL_FAILURE(expect_reference_run(got, expected, where));
    }
  }
}

class BankPortsReference : public ::testing::TestWithParam<std::string> {};

TEST_P(BankPortsReference, RandomTracesOnEveryFlatModelMatchTheReferenceMachine) {
  compare_flat({{"dmm", 4, 3, 4, 4, 1, 2},
                {"dmm", 8, 5, 3, 400, 1, 3},
                {"dmm", 32, 9, 3, 64, 1, 4},
                {"dmm", 4, 2, 4, 6, 1, 2, "skew"},
                {"dmm", 8, 2, 3, 12, 1, 2, "xor"},
                {"dmm", 4, 3, 4, 6, 1, 3, "random_shift"},
                {"sdmm", 4, 3, 6, 4, 2, 2},
                {"sdmm", 8, 4, 8, 5, 4, 3},
                {"rsdmm", 4, 3, 6, 4, 3, 2, "random_shift"},
                {"rsdmm", 8, 6, 4, 8, 2, 5, "random_shift"},
                {"umm", 4, 3, 4, 4, 1, 2},
                {"umm", 8, 6, 4, 16, 1, 3},
                {"bpram", 4, 1, 4, 4, 1, 2},
                {"bpram", 8, 1, 3, 6, 1, 3}},
               GetParam());
}

struct HmmShape {
  unsigned width, blocks, block_warps, global_width, latency, shared_latency;
  unsigned ports, shared_ports;
  bool pram = false;
};

TEST_P(BankPortsReference, RandomProgramsOnTheHierarchicalMachineMatchTheReference) {
  const std::vector<HmmShape> shapes = {{4, 2, 2, 4, 5, 1, 2, 2},
                                        {4, 3, 1, 2, 3, 2, 1, 3},
                                        {8, 2, 2, 8, 9, 3, 3, 1},
                                        {4, 1, 4, 4, 4, 1, 2, 4},
                                        {4, 2, 2, 2, 6, 2, 2, 3, true}};
  for (std::uint64_t seed = 1; seed <= 15; ++seed) {
    for (const HmmShape& s : shapes) {
      std::mt19937_64 rng(seed * 7907 + s.width * 13 + s.ports * 5 + s.shared_ports);
      const std::uint64_t global_words = std::uint64_t{s.width} * 6;
      const std::uint64_t shared_words = std::uint64_t{s.width} * 3;
      const unsigned warps = s.blocks * s.block_warps;
      const RefProgram program =
          random_program(rng, s.width, warps, global_words, shared_words, {.runs = 0.3});
      const RefHmmConfig ref{.width = s.width,
                             .blocks = s.blocks,
                             .global_width = s.global_width,
                             .latency = s.latency,
                             .shared_latency = s.shared_latency,
                             .ports = s.ports,
                             .shared_ports = s.shared_ports,
                             .shared_pram = s.pram,
                             .dispatch = GetParam(),
                             .barrier_latency = seed % 3,
                             .kernel_latency = seed % 2,
                             .global_words = global_words,
                             .shared_words = shared_words};
      MachineConfig m =
          machine("hmm", s.width, s.latency, std::uint64_t{s.width} * warps, global_words);
      m.multiprocessors = s.blocks;
      m.global_width = s.global_width;
      m.ports = s.ports;
      m.shared.model = s.pram ? "pram" : "dmm";
      m.shared.latency = s.shared_latency;
      m.shared.words = shared_words;
      m.shared.ports = s.shared_ports;
      m.dispatch = GetParam();
      m.barrier_latency = ref.barrier_latency;
      m.kernel_latency = ref.kernel_latency;
      const RefHmmResult expected = run_reference_hmm(ref, program);
      const Replayed got = replay(m, program, {}, nullptr, true);
      const std::string where = "w=" + std::to_string(s.width) + " d=" + std::to_string(s.blocks) +
                                " ports=" + std::to_string(s.ports) + "/" +
                                std::to_string(s.shared_ports) + " seed=" + std::to_string(seed);
      ASSERT_NO_FATAL_FAILURE(expect_reference_run(got, expected, where));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Policies, BankPortsReference,
                         ::testing::Values("round_robin", "lowest_ready", "oldest_ready",
                                           "adversarial"));

}  // namespace
}  // namespace mmsim::test
