// mmsim sweep: cases x grid, a row per run, invalid combinations explained.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/command.hpp"

namespace mmsim::test {
namespace {

TEST(Sweep, RunsEveryCaseForEveryCombination) {
  TempDir dir;
  dir.write("base.yaml",
            "machine: {model: dmm, width: 4, latency: 3, threads: 16}\n"
            "program: {name: contiguous_access, params: {n: 64}}\n");
  const auto sweep = dir.write("s.yaml",
                               "name: tiny\ntestbench: base.yaml\n"
                               "cases:\n  - {label: contiguous}\n"
                               "  - {label: stride, set: {program.name: stride_access}}\n"
                               "grid:\n  machine.model: [dmm, umm]\n  program.params.n: [64, 60]\n"
                               "columns: [cycles, stages, verified]\n");
  const auto json_file = dir / "s.json";
  const CommandResult r = mmsim("sweep '" + sweep.string() + "' --json '" + json_file.string() +
                                "' --csv '" + (dir / "s.csv").string() + "'");
  EXPECT_EQ(r.status, 0) << r.err;
  // 2 cases x 2 models x 2 sizes; n = 60 is not a multiple of p = 16.
  const auto rows = nlohmann::json::parse(read_file(json_file));
  ASSERT_EQ(rows.size(), 8u);
  EXPECT_EQ(rows[0]["case"], "contiguous");
  EXPECT_EQ(rows[0]["values"]["machine.model"], "dmm");
  EXPECT_EQ(rows[0]["stats"]["cycles"], 4 * 4 + 2);  // (n/p - 1)*max(4, 3) + 4 + 2
  EXPECT_EQ(rows[1]["values"]["program.params.n"], "60");
  EXPECT_NE(rows[1]["error"].get<std::string>().find("must be a multiple of p = 16"),
            std::string::npos);
  EXPECT_EQ(rows[4]["case"], "stride");
  EXPECT_EQ(rows[4]["stats"]["stages"], 16 * 4);  // n/p = 4 = w: every warp in one bank
  EXPECT_NE(r.out.find("| contiguous | dmm | 64 | 18 | 16 | yes |"), std::string::npos) << r.out;
  EXPECT_NE(
      read_file(dir / "s.csv").find("case,machine.model,program.params.n,cycles,stages,verified\n"),
      std::string::npos);
}

TEST(Sweep, AnInvalidSweepFileIsLocated) {
  TempDir dir;
  dir.write("base.yaml",
            "machine: {model: dmm, width: 4, latency: 3, threads: 16}\n"
            "program: {name: contiguous_access, params: {n: 64}}\n");
  const auto sweep = dir.write("s.yaml", "testbench: base.yaml\ngird: {machine.latency: [1, 2]}\n");
  const CommandResult r = mmsim("sweep '" + sweep.string() + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "mmsim: " + sweep.string() +
                       ":2:1: unknown key 'gird' in sweep (did you mean 'grid'?)\n");
}

TEST(Sweep, ThePermutationSweepRuns) {
  const CommandResult r =
      mmsim("sweep " + std::string(MMSIM_SOURCE_DIR) + "/configs/sweeps/permutation.yaml");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("| DMM Theorem 6 | 2^16 | 16414 | 16384 | 1 |"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace mmsim::test
