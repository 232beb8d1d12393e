// Determinism: the same testbench and seed give the same statistics (wall-clock figures aside)
// and the same waveform (its $date aside), byte for byte, run after run, under every machine
// model and every dispatch policy. Each run is a fresh mmsim process, as a user's would be, so
// that nothing one process happens to share between its runs can hide a difference.
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "hw/dispatch/dispatch_policies.hpp"
#include "hw/machine/machine_models.hpp"
#include "support/command.hpp"
#include "support/statistics_json.hpp"

namespace mmsim::test {
namespace {

struct Case {
  std::string label;
  std::string model;  // which machine model it runs
  std::string yaml;   // machine.dispatch is set per run; every random choice has its seed here
};

void PrintTo(const Case& c, std::ostream* out) { *out << c.label; }

// Small runs with contention, barriers and the race detector; between them every model, super
// warps, the random shift unit (its table drawn from a seed, on the rsdmm and as an address map
// of the dmm), the hierarchical machine with an rsdmm shared memory, and permutations drawn at
// random (planned offline, and not).
const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {"dmm", "dmm",
       "machine: {model: dmm, width: 4, latency: 3, seed: 7, race_check: true}\n"
       "program: {name: sum_simple, params: {n: 64, seed: 3}}\n"},
      {"dmm_random_shift_map", "dmm",
       "machine: {model: dmm, width: 4, latency: 2, threads: 16, seed: 7, "
       "address_map: random_shift, rsu: {seed: 11}}\n"
       "program: {name: transpose_naive, params: {n: 64}}\n"},
      {"sdmm_super_warps", "sdmm",
       "machine: {model: sdmm, width: 4, latency: 3, super_warp: 2, seed: 7}\n"
       "program: {name: sum_simple, params: {n: 64, seed: 3}}\n"},
      {"rsdmm_random_shifts", "rsdmm",
       "machine: {model: rsdmm, width: 4, latency: 2, threads: 16, super_warp: 2, seed: 7, "
       "rsu: {seed: 5}}\n"
       "program: {name: transpose_diagonal, params: {n: 64}}\n"},
      {"umm", "umm",
       "machine: {model: umm, width: 4, latency: 3, seed: 7, race_check: true}\n"
       "program: {name: prefix_simple, params: {n: 32, seed: 3}}\n"},
      {"umm_random_permutation", "umm",
       "machine: {model: umm, width: 4, latency: 2, threads: 16, seed: 7}\n"
       "program: {name: permute_straightforward, params: {n: 64, permutation: random, seed: 9}}\n"},
      {"dmm_planned_random_permutation", "dmm",
       "machine: {model: dmm, width: 4, latency: 2, threads: 16, seed: 7}\n"
       "program: {name: permute_dmm_conflict_free, "
       "params: {n: 64, permutation: random, seed: 9}}\n"},
      {"bpram", "bpram",
       "machine: {model: bpram, width: 4, latency: 1, seed: 7}\n"
       "program: {name: sum_tree, params: {n: 64, seed: 3}}\n"},
      {"pram", "pram",
       "machine: {model: pram, width: 4, latency: 1, seed: 7}\n"
       "program: {name: sum_simple, params: {n: 64, seed: 3}}\n"},
      {"hmm", "hmm",
       "machine: {model: hmm, multiprocessors: 2, width: 4, latency: 5, threads: 32, seed: 7, "
       "shared: {model: rsdmm, latency: 2, rsu: {seed: 3}}, race_check: true}\n"
       "program: {name: hmm_sum, params: {n: 200, seed: 3}}\n"},
  };
  return all;
}

// The waveform without its "$date ... $end" section (the time the file was written).
std::string without_date(const std::string& vcd) {
  const std::size_t start = vcd.find("$date");
  if (start == std::string::npos) return vcd;
  const std::size_t end = vcd.find("$end", start);
  if (end == std::string::npos) return vcd;
  return vcd.substr(0, start) + vcd.substr(end + 4);
}

std::vector<std::string> policy_names() {
  std::vector<std::string> names;
  for (const PolicyInfo& p : dispatch_policies()) names.push_back(p.name);
  return names;
}

class Determinism : public ::testing::TestWithParam<std::tuple<Case, std::string>> {};

TEST_P(Determinism, TwoRunsGiveTheSameStatisticsAndWaveform) {
  const auto& [c, policy] = GetParam();
  TempDir dir;
  const auto testbench = dir.write("testbench.yaml", c.yaml);
  std::vector<nlohmann::json> stats;
  std::vector<std::string> vcds;
  for (const std::string run : {"first", "second"}) {
    const auto json_file = dir / (run + ".json");
    const auto vcd_file = dir / (run + ".vcd");
    const CommandResult r =
        mmsim("run '" + testbench.string() + "' --set machine.dispatch=" + policy + " --stats '" +
              json_file.string() + "' --vcd '" + vcd_file.string() + "'");
    ASSERT_EQ(r.status, 0) << r.err << r.out;
    stats.push_back(nlohmann::json::parse(read_file(json_file)));
    vcds.push_back(read_file(vcd_file));
  }
  // The runs did what the case says, and the comparison has something to compare.
  EXPECT_EQ(stats[0].at("model"), c.model);
  EXPECT_EQ(stats[0].at("dispatch"), policy);
  EXPECT_EQ(stats[0].at("verified"), true);
  EXPECT_GT(stats[0].at("cycles").get<std::uint64_t>(), 0u);
  ASSERT_NE(vcds[0].find("$date"), std::string::npos);
  ASSERT_NE(vcds[0].find("#1\n"), std::string::npos);  // a waveform with time steps

  EXPECT_EQ(without_wall_clock(stats[0]).dump(2), without_wall_clock(stats[1]).dump(2));
  EXPECT_TRUE(without_date(vcds[0]) == without_date(vcds[1]))
      << "the waveforms of two runs differ beyond their $date";
}

INSTANTIATE_TEST_SUITE_P(EveryModelAndPolicy, Determinism,
                         ::testing::Combine(::testing::ValuesIn(cases()),
                                            ::testing::ValuesIn(policy_names())),
                         [](const auto& info) {
                           return std::get<0>(info.param).label + "_" + std::get<1>(info.param);
                         });

TEST(Determinism, CoversEveryMachineModel) {
  for (const MachineModel& model : machine_models()) {
    bool covered = false;
    for (const Case& c : cases()) covered = covered || c.model == model.name;
    EXPECT_TRUE(covered) << "no determinism case runs model " << model.name;
  }
}

TEST(Determinism, TheComparisonIgnoresOnlyWallClockAndHostFigures) {
  const auto stats = nlohmann::json::parse(
      R"({"cycles": 5, "wall_seconds": 0.1, "program_figures": {"plan_seconds": 0.2},
          "memories": [{"stages": 3, "date": "today"}], "host": "a", "version": "0.1"})");
  EXPECT_EQ(without_wall_clock(stats),
            nlohmann::json::parse(
                R"({"cycles": 5, "program_figures": {}, "memories": [{"stages": 3}]})"));
  EXPECT_EQ(without_date("$date\n  Nov 23, 2026 15:32:40\n$end\n$version x $end\n#0\n"),
            "\n$version x $end\n#0\n");
}

}  // namespace
}  // namespace mmsim::test
