// mmsim run: report, exit status, statistics JSON, --set overrides, outputs.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/command.hpp"

namespace mmsim::test {
namespace {

const std::string kConfigs = std::string(MMSIM_SOURCE_DIR) + "/configs/";

TEST(RunCommand, ReportsTheFiguresAndExitsZeroWhenVerified) {
  const CommandResult r = mmsim("run " + kConfigs + "dmm_fig4.yaml");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("  cycles       5\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  stages       3  (total congestion; largest dispatch 2)"),
            std::string::npos);
  EXPECT_NE(r.out.find("  verified     yes"), std::string::npos);
  EXPECT_EQ(r.err, "");
}

TEST(RunCommand, ReportsTheAddressMapAndTheShiftTable) {
  TempDir dir;
  const auto stats = dir / "s.json";
  const CommandResult r =
      mmsim("run " + kConfigs + "superwarp_fig7_rsdmm.yaml --stats '" + stats.string() + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("  address map  random_shift  (shift table r_j = 0 1 1 2 2 1)"),
            std::string::npos)
      << r.out;
  const auto json = nlohmann::json::parse(read_file(stats));
  EXPECT_EQ(json["address_map"], "random_shift");
  EXPECT_EQ(json["rsu"]["shifts"], (std::vector<int>{0, 1, 1, 2, 2, 1}));
  EXPECT_EQ(json["super_warp"], 3);
  // A drawn table is reported by its seed (machine.seed unless rsu.seed is given).
  const CommandResult drawn = mmsim("run " + kConfigs +
                                    "superwarp_fig6_sdmm.yaml --set machine.model=rsdmm "
                                    "--set machine.rsu.seed=12 --set expect={} --stats '" +
                                    stats.string() + "'");
  ASSERT_EQ(drawn.status, 0) << drawn.err;
  EXPECT_NE(drawn.out.find("(shift table drawn with seed 12)"), std::string::npos) << drawn.out;
  EXPECT_EQ(nlohmann::json::parse(read_file(stats))["rsu"]["seed"], 12);
}

TEST(RunCommand, ExitsOneWhenAnExpectationIsNotMet) {
  const CommandResult r = mmsim("run " + kConfigs + "dmm_fig4.yaml --set expect.cycles=6");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("expect       cycles = 6: NOT met (5)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  verified     NO"), std::string::npos);
}

TEST(RunCommand, SetOverridesChangeTheMachine) {
  // The same trace on the UMM (7 time units): override the model and the expectation.
  const CommandResult r = mmsim("run " + kConfigs +
                                "dmm_fig4.yaml --set machine.model=umm --set expect.cycles=7 "
                                "--set expect.stages=5");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
}

// The file's program.params, program.warps and expect were written for its program: --set of
// another program leaves them out, with a note, and the run takes --set's own.
TEST(RunCommand, SetOfAnotherProgramLeavesTheFilesParametersAndExpectationsOut) {
  const std::string note =
      "mmsim: note: --set runs program sum_tree, not the file's sum_simple: the file's "
      "program.params and expect (written for sum_simple) are left out; --set them too to keep "
      "them\n";
  // n is required by sum_tree: the file's n = 2^14 no longer counts.
  const CommandResult bare =
      mmsim("run " + kConfigs + "sum_simple.yaml --set program.name=sum_tree");
  EXPECT_EQ(bare.status, 2);
  EXPECT_EQ(bare.err, note + "mmsim: " + kConfigs +
                          "sum_simple.yaml:13:3: program.params.n: give n (the number of inputs) "
                          "or params.file\n");
  // With n given: 2^10 numbers summed (the file's expect, syncthreads = 8 for 2^14, left out).
  const CommandResult r = mmsim("run " + kConfigs +
                                "sum_simple.yaml --set program.name=sum_tree "
                                "--set program.params.n=2^10 --set expect.cycles=1");
  EXPECT_EQ(r.err, note);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("  expect       cycles = 1: NOT met"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("expect       syncthreads"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  data         1 element checked, all correct"), std::string::npos);
  // A trace's warps go with it; the same program keeps everything.
  const CommandResult trace = mmsim(
      "run " + kConfigs + "dmm_fig4.yaml --set program.name=sum_simple --set program.params.n=16");
  EXPECT_EQ(trace.status, 0) << trace.err;
  EXPECT_NE(trace.err.find("the file's program.warps and expect (written for trace)"),
            std::string::npos)
      << trace.err;
  const CommandResult same = mmsim("run " + kConfigs + "dmm_fig4.yaml --set program.name=trace");
  EXPECT_EQ(same.status, 0) << same.err;
  EXPECT_EQ(same.err, "");
  // Set whole, a section is --set's: nothing of the file's is left out.
  const CommandResult whole = mmsim("run " + kConfigs +
                                    "dmm_fig4.yaml --set 'program={name: sum_simple, params: "
                                    "{n: 16}}' --set expect={}");
  EXPECT_EQ(whole.status, 0) << whole.err;
  EXPECT_EQ(whole.err, "");
}

// After --set of the machine or the program, the file's description may not fit what ran.
TEST(RunCommand, TheReportSaysTheDescriptionIsTheFilesWhenSetChangedTheRun) {
  const CommandResult r =
      mmsim("run " + kConfigs + "dmm_fig4.yaml --set machine.model=umm --set expect={}");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')),
            "dmm-fig4 - Nakano 2012, Fig. 4 on the DMM (5 time units)  (as the file describes "
            "it; run with --set machine.model=umm)");
  EXPECT_NE(r.out.find("  machine      umm  w=4  l=3  p=8  (2 warps)"), std::string::npos);
  const CommandResult expect_only = mmsim("run " + kConfigs + "dmm_fig4.yaml --set expect={}");
  EXPECT_EQ(expect_only.out.substr(0, expect_only.out.find('\n')),
            "dmm-fig4 - Nakano 2012, Fig. 4 on the DMM (5 time units)");
}

// The testbench as it ran (testbench.yaml of --out-dir) holds the overrides as its own values:
// its description still says what --set changed, so that a run made again from it, with no
// --set, begins with the same line.
TEST(RunCommand, ARunMadeAgainFromItsFolderSaysSetChangedTheDescription) {
  TempDir dir;
  const CommandResult first =
      mmsim("run " + kConfigs + "dmm_fig4.yaml --set machine.latency=5 --set expect.cycles=7" +
            " --out-dir " + shell_word(dir / "first"));
  ASSERT_EQ(first.status, 0) << first.err;
  const std::string title =
      "dmm-fig4 - Nakano 2012, Fig. 4 on the DMM (5 time units)  (as the file describes it; run "
      "with --set machine.latency=5)";
  EXPECT_EQ(first.out.substr(0, first.out.find('\n')), title);
  const std::string resolved = read_file(dir / "first/testbench.yaml");
  EXPECT_NE(resolved.find("description: \"Nakano 2012, Fig. 4 on the DMM (5 time units)  (as the "
                          "file describes it; run with --set machine.latency=5)\"\n"),
            std::string::npos)
      << resolved;
  EXPECT_NE(resolved.find("  latency: 5\n"), std::string::npos) << resolved;
  const CommandResult again = mmsim("run " + shell_word(dir / "first/testbench.yaml") +
                                    " --out-dir " + shell_word(dir / "again"));
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_EQ(again.out.substr(0, again.out.find('\n')), title);
  EXPECT_NE(again.out.find("\n  cycles       7\n"), std::string::npos) << again.out;
  EXPECT_EQ(read_file(dir / "again/testbench.yaml"), resolved);
}

// One of a thing is singular, in messages and reports.
TEST(RunCommand, OneOfAThingIsSingular) {
  TempDir dir;
  const auto file = dir.write("one.yaml",
                              "machine: {model: dmm, width: 4, latency: 1, threads: 4}\n"
                              "program:\n  name: trace\n  warps: [[{read: [0, 1, 2, 3]}]]\n");
  const CommandResult r = mmsim("run " + shell_word(file));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("  (1 warp)  dispatch round_robin"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(memory 4 words)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" time units (1 warp)"), std::string::npos) << r.out;
  const CommandResult wrong = mmsim("run " + shell_word(file) + " --set machine.threads=8");
  EXPECT_EQ(wrong.status, 2);
  EXPECT_NE(wrong.err.find("the trace has 1 warp but the machine has p/w = 8/4 = 2"),
            std::string::npos)
      << wrong.err;
}

TEST(RunCommand, WritesTheStatisticsJson) {
  TempDir dir;
  const auto stats = dir / "s.json";
  const CommandResult r =
      mmsim("run " + kConfigs + "contiguous_dmm.yaml --stats '" + stats.string() + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto json = nlohmann::json::parse(read_file(stats));
  for (const char* key :
       {"cycles", "dispatches", "stages", "requests", "syncthreads", "verified", "model", "width",
        "latency", "threads", "super_warp", "program", "bounds"})
    EXPECT_TRUE(json.contains(key)) << key;
  EXPECT_EQ(json["cycles"], 2063);
  EXPECT_EQ(json["dispatches"], 2048);
  EXPECT_EQ(json["stages"], 2048);
  EXPECT_EQ(json["requests"], 65536);
  EXPECT_EQ(json["verified"], true);
  EXPECT_EQ(json["model"], "dmm");
  EXPECT_EQ(json["program"], "contiguous_access");
  EXPECT_EQ(json["bounds"]["time_lower"]["value"], 2063);
  EXPECT_EQ(json["bounds"]["time_exact"]["ratio"], 1.0);
  EXPECT_FALSE(std::filesystem::exists(stats.string() + ".partial"));
}

TEST(RunCommand, TraceWithoutChecksIsNotApplicable) {
  TempDir dir;
  const auto file = dir.write("t.yaml",
                              "machine: {model: umm, width: 2, latency: 4}\n"
                              "program:\n  name: trace\n  warps: [[{read: [0, 1]}, {sync: true}, "
                              "{write: [1, null], values: [7, 0]}]]\n");
  const auto stats = dir / "s.json";
  const CommandResult r = mmsim("run '" + file.string() + "' --stats '" + stats.string() + "'");
  EXPECT_EQ(r.status, 0) << r.err;
  const auto json = nlohmann::json::parse(read_file(stats));
  EXPECT_TRUE(json["verified"].is_null());
  EXPECT_EQ(json["threads"], 2);  // one warp in the trace
  EXPECT_EQ(json["syncthreads"], 1);
  EXPECT_EQ(json["cycles"], 8);
}

TEST(RunCommand, ReplaysACsvTrace) {
  TempDir dir;
  dir.write("t.csv", "# Nakano 2012, Fig. 4\n0,read,0,1,5,10\n1,read,8,9,14,15\n");
  const auto file = dir.write("t.yaml",
                              "machine: {model: dmm, width: 4, latency: 3}\n"
                              "program: {name: trace, params: {file: t.csv}}\n"
                              "expect: {cycles: 5, dispatches: 2}\n");
  const CommandResult r = mmsim("run '" + file.string() + "'");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
}

TEST(RunCommand, PoliciesAllPrintsATableOfOneRunPerPolicy) {
  const CommandResult r = mmsim("run " + kConfigs + "sum_simple.yaml --policies all");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("sum-simple: sum_simple on umm  w=32  l=32  p=8192, one run per dispatch "
                       "policy\n  policy              cycles  syncthreads  dispatches   races  "
                       "verified\n"),
            std::string::npos)
      << r.out;
  for (const char* policy :
       {"round_robin", "lowest_ready", "oldest_ready", "random", "adversarial"})
    EXPECT_NE(r.out.find(std::string("\n  ") + policy), std::string::npos) << policy;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 7);
  EXPECT_NE(r.out.find("  adversarial           2736            8"), std::string::npos) << r.out;
}

TEST(RunCommand, PoliciesWritesOneStatisticsFilePerPolicy) {
  TempDir dir;
  const auto stats = dir / "s.json";
  const CommandResult r =
      mmsim("run " + kConfigs + "sum_tree.yaml --policies random,adversarial --stats '" +
            stats.string() + "'");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(std::filesystem::exists(stats));
  for (const std::string policy : {"random", "adversarial"}) {
    const auto json = nlohmann::json::parse(read_file(dir / ("s." + policy + ".json")));
    EXPECT_EQ(json["dispatch"], policy);
    EXPECT_EQ(json["syncthreads"], 3);
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "s.round_robin.json"));
}

TEST(RunCommand, PoliciesFailsWhenOneRunFails) {
  const CommandResult broken = mmsim("run " + kConfigs +
                                     "sum_simple.yaml --policies all "
                                     "--set program.params.drop_sync=1");
  EXPECT_EQ(broken.status, 1);
  EXPECT_NE(broken.out.find("  round_robin: 4096 races, the first: m["), std::string::npos)
      << broken.out;
  EXPECT_NE(broken.out.find("; expect syncthreads = 8: measured 7\n"), std::string::npos)
      << broken.out;
  const CommandResult unknown =
      mmsim("run " + kConfigs + "sum_simple.yaml --policies round_robin,randon");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_EQ(unknown.err,
            "mmsim: --policies: unknown dispatch policy 'randon' (did you mean 'random'?) "
            "(or all)\n");
}

TEST(RunCommand, ListShowsModelsPoliciesAndPrograms) {
  const CommandResult r = mmsim("list");
  EXPECT_EQ(r.status, 0);
  for (const char* name :
       {"dmm",           "umm",           "bpram",           "round_robin", "lowest_ready",
        "oldest_ready",  "random",        "adversarial",     "trace",       "contiguous_access",
        "stride_access", "sum_simple",    "sum_one_warp",    "sum_tree",    "sum_simple_tree",
        "sum_hybrid",    "prefix_simple", "prefix_one_warp", "prefix_tree", "prefix_simple_tree",
        "prefix_hybrid"})
    EXPECT_NE(r.out.find(name), std::string::npos) << name;
  EXPECT_NE(r.out.find("      n            integer           required"), std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace mmsim::test
