// Inputs the fuzz targets of fuzz/ found mishandled (docs/testing.md, "Fuzzing"), each kept as a
// test of what mmsim does with it now. The reproducers themselves are in
// fuzz/regressions/TARGET/, where scripts/fuzz replays them too.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <string>

#include "support/command.hpp"
#include "support/temp_dir.hpp"
#include "testbench/input/testbench.hpp"
#include "testbench/run/runner.hpp"
#include "testbench/run/stats_json.hpp"
#include "testbench/sweeps/sweep_expression.hpp"
#include "testbench/sweeps/sweep_results.hpp"

namespace mmsim::test {
namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

std::int64_t evaluate(const std::string& text, std::int64_t value) {
  return SweepExpression(text, {"sweep.yaml", 1, 1}).evaluate([&](const std::string&) {
    return value;
  });
}

// fuzz/regressions/testbench/leading_comma.yaml: yaml-cpp 0.7's LoadAll never returned on a
// ',' where a document's value should start, filling memory (about 0.5 GB a second); `timeout`
// keeps a relapse from doing so for long.
TEST(FuzzRegressions, ACommaWhereATestbenchShouldStartIsInvalidYaml) {
  TempDir dir;
  const auto file = dir.write("t.yaml", "# a testbench\n,independent of n.\nname: sum\n");
  const CommandResult r =
      run_command("timeout 3 '" + std::string(MMSIM_BINARY) + "' run '" + file.string() + "'");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "mmsim: " + file.string() + ":2:1: invalid YAML: ',' where a value was expected\n");
  EXPECT_EQ(r.out, "");
}

TEST(FuzzRegressions, ACommaAfterADocumentMarkerIsInvalidYamlToo) {
  TempDir dir;
  const auto file = dir.write("t.yaml", "--- ,\n");
  try {
    load_testbench(file);
    FAIL() << "loaded";
  } catch (const InputError& e) {
    EXPECT_EQ(e.describe(), file.string() + ":1:5: invalid YAML: ',' where a value was expected");
  }
}

// fuzz/regressions/sweep_expression/round_up_near_max: round_up(x, m) added x mod m to m before
// reducing it, past the largest integer for m near it (undefined behaviour).
TEST(FuzzRegressions, RoundUpToAMultipleNearTheLargestIntegerHasNoIntermediateOverflow) {
  EXPECT_EQ(evaluate("round_up(1024, m)", kMax), kMax);
  EXPECT_EQ(evaluate("round_up(-5, m)", kMax), 0);
  EXPECT_EQ(evaluate("round_up(m, m)", kMax), kMax);
  EXPECT_EQ(evaluate("round_up(m - 1, m)", kMax), kMax);
  EXPECT_EQ(evaluate("round_up(-7, 4)", 0), -4);
  EXPECT_EQ(evaluate("round_up(7, 4)", 0), 8);
  EXPECT_THROW(evaluate("round_up(m, m - 1)", kMax), std::domain_error);
}

// configs/sweeps/hmm_bounds.yaml, a seed of the sweep target: checking the sweep previews a
// run of hmm_sum, whose bounds measure the global memory's stages, which a preview (no run
// yet) has none of; that read the first element of an empty list.
TEST(FuzzRegressions, APreviewOfTheHierarchicalMachineMeasuresNoGlobalStagesYet) {
  const Testbench tb = load_testbench(std::string(MMSIM_SOURCE_DIR) + "/configs/hmm_sum.yaml");
  const RunOutcome preview = preview_testbench(tb);
  bool global = false;
  for (const Bound& b : preview.bounds)
    if (b.measure == Bound::Measure::global_stages) {
      global = true;
      EXPECT_EQ(measured(preview, b), 0.0) << b.key;
    }
  EXPECT_TRUE(global) << "hmm_sum no longer has a bound on the global stages";
  EXPECT_EQ(stats_json(preview).at("cycles"), 0);
}

// fuzz/regressions/results/number_overflow: a record whose index is 1e3080, beyond a double;
// nlohmann reports it as out_of_range, not as a parse error, and it escaped read_results.
TEST(FuzzRegressions, ANumberBeyondADoubleInAResultsFileIsAnErrorAtItsLine) {
  const std::filesystem::path file =
      std::string(MMSIM_SOURCE_DIR) + "/fuzz/regressions/results/number_overflow";
  try {
    read_results({file}, {"cycles"});
    FAIL() << "read";
  } catch (const InputError& e) {
    EXPECT_EQ(e.describe(),
              file.string() + ":1: not a run's record: a number too large for a double");
  }
}

}  // namespace
}  // namespace mmsim::test
