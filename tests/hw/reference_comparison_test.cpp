// Randomised traces (fixed seeds) give the same cycles, congestion, barrier steps, memory and
// read values on the SystemC model as on the independent reference machine.
#include <gtest/gtest.h>

#include <random>

#include "hw/memory/random_shift_map.hpp"
#include "support/reference_checks.hpp"
#include "support/replay_kernel.hpp"
#include "support/temp_dir.hpp"

namespace mmsim::test {
namespace {

struct Shape {
  std::string model;
  unsigned width;
  unsigned latency;
  unsigned warps;
  unsigned rows;
  unsigned super_warp = 1;
  std::string map = "interleaved";
};

RefProgram random_program(std::mt19937_64& rng, const Shape& s) {
  const std::uint64_t words = std::uint64_t{s.width} * s.rows;
  std::uniform_int_distribution<unsigned> length(0, 10);
  std::uniform_real_distribution<double> coin(0, 1);
  std::uniform_int_distribution<Address> address(0, words - 1);
  std::uniform_int_distribution<Word> value(-1000, 1000);
  RefProgram program;
  program.warps.resize(s.warps);
  for (auto& warp : program.warps) {
    const unsigned n = length(rng);
    for (unsigned i = 0; i < n; ++i) {
      RefInstruction in;
      const double kind = coin(rng);
      if (kind < 0.12) {
        in.kind = RefInstruction::sync;
      } else {
        in.kind = kind < 0.56 ? RefInstruction::read : RefInstruction::write;
        for (unsigned lane = 0; lane < s.width; ++lane) {
          in.addresses.push_back(coin(rng) < 0.8 ? address(rng) : kInactive);
          in.values.push_back(value(rng));
        }
      }
      warp.push_back(std::move(in));
    }
  }
  return program;
}

// The same random traces on the SystemC machine and on the reference machine, `seeds` of them
// per shape, with barrier and compute latencies, write-conflict rules and shift tables varied.
void compare(const std::vector<Shape>& shapes, const std::string& policy, std::uint64_t seeds) {
  for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
    for (const Shape& s : shapes) {
      std::mt19937_64 rng(seed * 7919 + s.width * 31 + s.warps);
      const RefProgram program = random_program(rng, s);
      RefConfig ref;
      ref.model = s.model;
      ref.width = s.width;
      ref.latency = s.latency;
      ref.super_warp = s.super_warp;
      ref.map = s.map;
      ref.dispatch = policy;
      ref.barrier_latency = seed % 3;
      ref.compute_latency = seed % 4 == 0 ? 2 : 0;
      ref.lowest_lane_wins = seed % 5 == 0;
      ref.memory_words = std::uint64_t{s.width} * s.rows;
      MachineConfig m;
      m.model = s.model;
      m.width = s.width;
      m.latency = s.latency;
      m.threads = std::uint64_t{s.width} * s.warps;
      m.super_warp = s.super_warp;
      m.dispatch = policy;
      m.barrier_latency = ref.barrier_latency;
      m.compute_latency = ref.compute_latency;
      m.write_conflict =
          ref.lowest_lane_wins ? WriteConflict::lowest_lane : WriteConflict::highest_lane;
      m.memory_words = ref.memory_words;
      if (s.map != "interleaved" && s.model != "rsdmm") m.mapping.address_map = s.map;
      if (s.map == "random_shift") {
        // Half the runs give the table, half let the machine draw it from a seed.
        const auto drawn = random_shifts(s.width, s.rows, seed);
        ref.shifts.assign(drawn.begin(), drawn.end());
        if (seed % 2)
          m.mapping.rsu_shifts = ref.shifts;
        else
          m.mapping.rsu_seed = seed;
      }

      const RefResult expected = run_reference(ref, program);
      const Replayed got = replay(m, program);
      const std::string where =
          s.model + " map=" + s.map + " w=" + std::to_string(s.width) +
          " s=" + std::to_string(s.super_warp) + " l=" + std::to_string(s.latency) +
          " warps=" + std::to_string(s.warps) + " seed=" + std::to_string(seed);
      ASSERT_NO_FATAL_FAILURE(expect_reference_run(got, expected, where));
    }
  }
}

class ReferenceComparison : public ::testing::TestWithParam<std::string> {};

TEST_P(ReferenceComparison, RandomTracesMatchTheReferenceMachine) {
  compare({{"dmm", 4, 3, 3, 4},
           {"dmm", 8, 1, 5, 2},
           {"dmm", 1, 4, 4, 8},
           {"dmm", 4, 20, 6, 3},
           {"umm", 4, 3, 3, 4},
           {"umm", 8, 6, 4, 16},
           {"umm", 2, 1, 5, 3},
           {"bpram", 4, 1, 4, 4},
           {"bpram", 8, 5, 3, 2},
           {"dmm", 32, 9, 4, 64},
           {"umm", 32, 9, 4, 64}},
          GetParam(), 30);
}

// Super warps (s warps dispatched as one unit, packed together) and the bank maps.
TEST_P(ReferenceComparison, SuperWarpsAndAddressMapsMatchTheReferenceMachine) {
  compare({{"sdmm", 4, 3, 6, 4, 2},
           {"sdmm", 4, 7, 6, 6, 3},
           {"sdmm", 8, 2, 8, 3, 4},
           {"sdmm", 6, 5, 4, 5, 2},
           {"rsdmm", 4, 3, 6, 4, 3, "random_shift"},
           {"rsdmm", 8, 9, 4, 8, 2, "random_shift"},
           {"rsdmm", 5, 2, 6, 7, 3, "random_shift"},
           {"dmm", 4, 3, 4, 6, 1, "random_shift"},
           {"dmm", 4, 3, 4, 6, 1, "skew"},
           {"sdmm", 6, 4, 4, 9, 2, "skew"},
           {"dmm", 8, 2, 3, 12, 1, "xor"},
           {"sdmm", 4, 6, 6, 5, 3, "xor"},
           {"rsdmm", 32, 9, 8, 64, 4, "random_shift"}},
          GetParam(), 20);
}

// Nakano and Matsumae 2013: the SDMM with one warp per super warp is the DMM, cycle for cycle.
TEST_P(ReferenceComparison, DmmIsSdmmWithSuperWarpsOfOneWarp) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    for (const Shape& s : std::vector<Shape>{{"dmm", 4, 3, 3, 4},
                                             {"dmm", 8, 6, 5, 3},
                                             {"dmm", 32, 9, 4, 64},
                                             {"dmm", 3, 1, 4, 5}}) {
      std::mt19937_64 rng(seed * 104729 + s.width);
      const RefProgram program = random_program(rng, s);
      MachineConfig m;
      m.width = s.width;
      m.latency = s.latency;
      m.threads = std::uint64_t{s.width} * s.warps;
      m.dispatch = GetParam();
      m.barrier_latency = seed % 2;
      m.memory_words = std::uint64_t{s.width} * s.rows;
      m.model = "dmm";
      const Replayed dmm = replay(m, program);
      m.model = "sdmm";
      const Replayed sdmm = replay(m, program);
      const std::string where = "w=" + std::to_string(s.width) + " seed=" + std::to_string(seed);
      ASSERT_EQ(dmm.result.cycles(), sdmm.result.cycles()) << where;
      ASSERT_EQ(dmm.result.counters.stages, sdmm.result.counters.stages) << where;
      ASSERT_EQ(dmm.result.counters.dispatches, sdmm.result.counters.dispatches) << where;
      ASSERT_EQ(dmm.result.counters.max_stages, sdmm.result.counters.max_stages) << where;
      ASSERT_EQ(dmm.result.syncthreads, sdmm.result.syncthreads) << where;
      ASSERT_EQ(dmm.memory, sdmm.memory) << where;
      ASSERT_EQ(dmm.reads, sdmm.reads) << where;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Policies, ReferenceComparison,
                         ::testing::Values("round_robin", "lowest_ready", "oldest_ready",
                                           "adversarial"));

}  // namespace
}  // namespace mmsim::test

namespace mmsim::test {
namespace {

// Temporal decoupling and tracing change how often the kernel runs, never the results.
TEST(Decoupling, QuantumAndTracingLeaveTheResultsAlone) {
  TempDir dir;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const Shape s{seed % 2 ? "dmm" : "umm", 4, 5, 6, 4};
    std::mt19937_64 rng(seed);
    const RefProgram program = random_program(rng, s);
    MachineConfig m;
    m.model = s.model;
    m.width = s.width;
    m.latency = s.latency;
    m.threads = std::uint64_t{s.width} * s.warps;
    m.barrier_latency = 2;
    m.memory_words = std::uint64_t{s.width} * s.rows;
    const Replayed reference = replay(m, program);
    for (const Cycle quantum : {Cycle{0}, Cycle{1}, Cycle{7}}) {
      SimulationOptions options;
      options.dispatch.quantum = quantum;
      const Replayed got = replay(m, program, options);
      EXPECT_EQ(got.result.cycles(), reference.result.cycles()) << "quantum " << quantum;
      EXPECT_EQ(got.memory, reference.memory);
      EXPECT_EQ(got.reads, reference.reads);
    }
    SimulationOptions traced;
    traced.vcd_base = (dir / ("run" + std::to_string(seed))).string();
    const Replayed got = replay(m, program, traced);
    EXPECT_EQ(got.result.cycles(), reference.result.cycles());
    EXPECT_EQ(got.result.counters.stages, reference.result.counters.stages);
    EXPECT_EQ(got.memory, reference.memory);
    EXPECT_TRUE(std::filesystem::exists(traced.vcd_base + ".vcd"));
  }
}

}  // namespace
}  // namespace mmsim::test
