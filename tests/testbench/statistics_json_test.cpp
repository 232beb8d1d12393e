// The statistics of mmsim run as files: provenance (version, command, resolved testbench, date,
// host), the counters beyond the totals, --stats -, --out-dir and --stats-interval; the
// provenance of plan statistics and sweep results.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <numeric>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "support/command.hpp"

namespace mmsim::test {
namespace {

using nlohmann::json;

const std::string kConfigs = std::string(MMSIM_SOURCE_DIR) + "/configs/";

std::string host() {
  std::array<char, 256> name{};
  gethostname(name.data(), name.size() - 1);
  return name.data();
}

std::uint64_t sum(const json& list) {
  std::uint64_t total = 0;
  for (const json& x : list) total += x.get<std::uint64_t>();
  return total;
}

// The keys two runs of one testbench may differ in: when, where, by which command, how fast.
json without_circumstances(json stats) {
  for (const char* key : {"wall_seconds", "date", "host", "command", "testbench"}) stats.erase(key);
  return stats;
}

TEST(StatisticsJson, RecordsVersionCommandDateHostAndTheResolvedTestbench) {
  TempDir dir;
  const auto stats = dir / "s.json";
  const std::string arguments = "run " + kConfigs +
                                "dmm_fig4.yaml --set machine.latency=4 --set expect={} --stats " +
                                shell_word(stats);
  ASSERT_EQ(mmsim(arguments).status, 0);
  const json s = json::parse(read_file(stats));
  const std::string version = mmsim("--version").out;
  EXPECT_EQ("mmsim " + s["version"].get<std::string>() + "\n", version);
  EXPECT_EQ(s["command"], std::string(MMSIM_BINARY) + " run " + kConfigs +
                              "dmm_fig4.yaml --set machine.latency=4 --set 'expect={}' --stats " +
                              stats.string());
  EXPECT_TRUE(std::regex_match(s["date"].get<std::string>(),
                               std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")))
      << s["date"];
  EXPECT_EQ(s["host"], host());
  // The testbench as it ran: the override, every default, the trace's instructions.
  const json& r = s["resolved"];
  EXPECT_EQ(r["name"], "dmm-fig4");
  EXPECT_EQ(r["machine"]["latency"], 4);
  EXPECT_EQ(r["machine"]["threads"], 8);
  EXPECT_EQ(r["machine"]["memory"], 16);
  EXPECT_EQ(r["machine"]["dispatch"], "round_robin");
  EXPECT_EQ(r["machine"]["address_map"], "interleaved");
  EXPECT_EQ(r["program"]["params"]["init"], "address");
  EXPECT_EQ(r["program"]["warps"][0][0]["read"], json({0, 1, 5, 10}));
  EXPECT_FALSE(r.contains("expect"));
  EXPECT_FALSE(r.contains("outputs"));
}

// One name per quantity (docs/statistics.md, "The machine's keys"): every value of the machine
// in the testbench as it ran is the statistics' key of its name, nested as it is; the names
// before are kept beside; the figures a testbench expects are the statistics' keys of their
// names.
TEST(StatisticsJson, NamesTheMachinesKeysAsTheTestbenchDoes) {
  TempDir dir;
  const auto stats = dir / "s.json";
  ASSERT_EQ(mmsim("run " + kConfigs +
                  "hmm_design_example.yaml --set machine.ports=2 --set machine.shared.ports=3 "
                  "--set machine.kernel_latency=4 --set expect={} --stats " +
                  shell_word(stats))
                .status,
            0);
  json s = json::parse(read_file(stats));  // not const: a key it lacks reads as null
  const json machine = s["resolved"]["machine"];
  std::size_t compared = 0;
  for (const auto& [key, value] : machine.items()) {
    if (value.is_object()) {
      for (const auto& [inner, item] : value.items()) {
        if (item.is_object()) continue;  // a shift table: rsu
        EXPECT_EQ(s[key][inner], item) << key << "." << inner;
        ++compared;
      }
      continue;
    }
    EXPECT_EQ(s[key], value) << key;
    ++compared;
  }
  EXPECT_GE(compared, 20U);
  EXPECT_EQ((std::array{s["ports"], s["shared"]["ports"], s["kernel_latency"]}),
            (std::array{json(2), json(3), json(4)}));
  EXPECT_EQ(s["memory_words"], s["memory"]);
  EXPECT_EQ(s["shared"]["memory_words"], s["shared"]["memory"]);
  EXPECT_EQ(s["global_width"], s["global"]["width"]);
  // The testbench's own expectations: cycles, stages, dispatches.
  ASSERT_EQ(
      mmsim("run " + kConfigs + "hmm_design_example.yaml --stats " + shell_word(stats)).status, 0);
  s = json::parse(read_file(stats));
  const json expected = s["verification"]["expect"];
  EXPECT_EQ(expected.size(), 3U);
  for (const auto& [figure, check] : expected.items())
    EXPECT_EQ(s[figure], check["measured"]) << figure;
}

// Fig. 4 of Nakano 2012 on the DMM, by hand: W(0) takes stages 0 and 1 (banks 0, 1, 1, 2), W(1)
// one stage at 2; W(1) waited 2 for its turn.
TEST(StatisticsJson, CountsStagesBanksAndWaitingTimes) {
  TempDir dir;
  const auto stats = dir / "s.json";
  ASSERT_EQ(mmsim("run " + kConfigs + "dmm_fig4.yaml --stats " + shell_word(stats)).status, 0);
  const json s = json::parse(read_file(stats));
  EXPECT_EQ(s["stage_histogram"], json({0, 1, 1}));
  EXPECT_EQ(s["bank_requests"], json({2, 3, 2, 1}));
  EXPECT_EQ(s["group_requests"], json::array());
  EXPECT_EQ(s["waiting"],
            json({{"turn", 2}, {"memory", 7}, {"compute", 0}, {"barrier", 0}, {"total", 9}}));
  EXPECT_EQ(s["warp_time"]["turn"], json({0, 2}));
  EXPECT_EQ(s["warp_time"]["finish"], json({4, 5}));
  EXPECT_EQ(s["time_series"], nullptr);
  ASSERT_EQ(s["memories"].size(), 1u);
  EXPECT_EQ(s["memories"][0]["stage_histogram"], json({0, 1, 1}));
  EXPECT_EQ(s["memories"][0]["waiting"], json({{"turn", 2}, {"memory", 7}}));
}

// A larger run: the counters agree with the totals, and each warp's time adds up.
TEST(StatisticsJson, CountersAgreeWithTheTotals) {
  TempDir dir;
  const auto stats = dir / "s.json";
  for (const std::string testbench : {"sum_simple.yaml", "stride_umm_gcd1.yaml",
                                      "transpose_naive_sdmm.yaml", "hmm_design_example.yaml"}) {
    ASSERT_EQ(mmsim("run " + kConfigs + testbench + " --set machine.compute_latency=3 " +
                    "--set expect={} --stats-interval 100 --stats " + shell_word(stats))
                  .status,
              0)
        << testbench;
    const json s = json::parse(read_file(stats));
    const json& k = s["stage_histogram"];
    std::uint64_t stages = 0;
    for (std::size_t j = 0; j < k.size(); ++j) stages += j * k[j].get<std::uint64_t>();
    EXPECT_EQ(sum(k), s["dispatches"]) << testbench;
    EXPECT_EQ(stages, s["stages"]) << testbench;
    EXPECT_EQ(k.size(), s["max_stages"].get<std::size_t>() + 1) << testbench;
    const json& groups = s["group_requests"];
    for (const json& memory : s["memories"]) {  // banked memories: every request in its bank
      if (!memory["bank_requests"].empty()) {
        EXPECT_EQ(sum(memory["bank_requests"]), memory["requests"]) << testbench;
      }
    }
    std::uint64_t carried = 0;
    for (std::size_t j = 0; j < groups.size(); ++j) carried += j * groups[j].get<std::uint64_t>();
    if (s["model"] == "umm") {
      EXPECT_EQ(sum(groups), s["stages"]) << testbench;
      EXPECT_EQ(carried, s["requests"]) << testbench;
    }
    const json& w = s["warp_time"];
    ASSERT_EQ(w["finish"].size(), s["threads"].get<std::size_t>() / s["width"].get<std::size_t>());
    for (std::size_t i = 0; i < w["finish"].size(); ++i)
      EXPECT_EQ(w["finish"][i],
                w["turn"][i].get<std::uint64_t>() + w["memory"][i].get<std::uint64_t>() +
                    w["compute"][i].get<std::uint64_t>() + w["barrier"][i].get<std::uint64_t>())
          << testbench << " warp " << i;
    EXPECT_EQ(s["waiting"]["compute"], 3 * sum(w["dispatches"])) << testbench;
    // The counters over time end with the totals; the memories' series add up to them.
    const json& t = s["time_series"];
    EXPECT_EQ(t["interval"], 100);
    EXPECT_EQ(t["cycle"].back(), s["cycles"]) << testbench;
    EXPECT_EQ(t["dispatches"].back(), s["dispatches"]) << testbench;
    EXPECT_EQ(t["stages"].back(), s["stages"]) << testbench;
    EXPECT_EQ(t["syncthreads"].back(), s["syncthreads"]) << testbench;
    EXPECT_EQ(t["waiting_turn"].back(), s["waiting"]["turn"]) << testbench;
    std::uint64_t last = 0;
    for (const json& memory : s["memories"])
      last += memory["time_series"]["requests"].back().get<std::uint64_t>();
    EXPECT_EQ(last, s["requests"]) << testbench;
    for (std::size_t i = 1; i < t["cycle"].size(); ++i)
      EXPECT_LE(t["dispatches"][i - 1], t["dispatches"][i]);
  }
}

TEST(StatisticsJson, DashWritesOneLineToStandardOutputAndTheReportToStandardError) {
  const CommandResult r = mmsim("run " + kConfigs + "dmm_fig4.yaml --stats -");
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  EXPECT_EQ(json::parse(r.out)["cycles"], 5);
  EXPECT_NE(r.err.find("  cycles       5\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("  statistics   standard output\n"), std::string::npos) << r.err;
  // One line per run with --policies; the table on standard error.
  const CommandResult all = mmsim("run " + kConfigs + "dmm_fig4.yaml --policies all --stats -");
  ASSERT_EQ(all.status, 0) << all.err;
  std::istringstream lines(all.out);
  std::vector<std::string> policies;
  for (std::string line; std::getline(lines, line);)
    policies.push_back(json::parse(line)["dispatch"]);
  EXPECT_EQ(policies, (std::vector<std::string>{"round_robin", "lowest_ready", "oldest_ready",
                                                "random", "adversarial"}));
  EXPECT_NE(all.err.find("one run per dispatch policy"), std::string::npos) << all.err;
}

// mmsim run of the testbench --out-dir wrote gives the same statistics, and the same resolved
// testbench (a fixed point).
void expect_reproduced(const std::string& testbench, const std::string& options) {
  TempDir dir;
  const CommandResult first = mmsim("run " + shell_word(testbench) + " " + options + " --out-dir " +
                                    shell_word(dir / "run"));
  ASSERT_EQ(first.status, 0) << testbench << ": " << first.err;
  EXPECT_TRUE(std::filesystem::exists(dir / "run" / "testbench.yaml"));
  const auto again = dir / "again.json";
  const CommandResult second =
      mmsim("run " + shell_word(dir / "run" / "testbench.yaml") + " --stats " + shell_word(again));
  ASSERT_EQ(second.status, 0) << testbench << ": " << second.err
                              << read_file(dir / "run" / "testbench.yaml");
  const json a = json::parse(read_file(dir / "run" / "stats.json"));
  const json b = json::parse(read_file(again));
  EXPECT_EQ(without_circumstances(a), without_circumstances(b))
      << testbench << "\n"
      << read_file(dir / "run" / "testbench.yaml");
}

TEST(OutDir, TheResolvedTestbenchReproducesTheRun) {
  expect_reproduced(kConfigs + "dmm_fig4.yaml", "--set machine.barrier_latency=2");
  expect_reproduced(kConfigs + "hmm_design_example.yaml", "");
  expect_reproduced(kConfigs + "sum_hybrid.yaml", "--set machine.dispatch=random");  // threads w*l
  expect_reproduced(kConfigs + "contiguous_pram.yaml", "");       // one unit of p/w warps
  expect_reproduced(kConfigs + "superwarp_fig7_rsdmm.yaml", "");  // a shift table
  expect_reproduced(kConfigs + "transpose_naive_rsdmm.yaml", "--set machine.rsu.seed=5");
  expect_reproduced(kConfigs + "transpose_umm_rotating.yaml", "");  // local memory
  expect_reproduced(kConfigs + "permute_straightforward_random.yaml", "");
  expect_reproduced(kConfigs + "hmm_gpgpu_thesis.yaml",
                    "--set program.params.n=2^14 --set expect={}");
  expect_reproduced(kConfigs + "dmm_fig4.yaml", "--set machine.model=bpram --set expect={}");
}

// A file a parameter names is found from the resolved testbench's folder too.
TEST(OutDir, FilesOfParametersBecomeAbsolutePaths) {
  TempDir dir;
  dir.write("t.csv", "0,read,0,1,5,10\n1,read,8,9,14,15\n");
  const auto testbench = dir.write("tb.yaml",
                                   "machine: {model: dmm, width: 4, latency: 3, threads: 8}\n"
                                   "program: {name: trace, params: {file: t.csv}}\n"
                                   "outputs: {vcd: w.vcd}\n");
  std::filesystem::create_directory(dir / "runs");
  ASSERT_EQ(
      mmsim("run " + shell_word(testbench) + " --out-dir " + shell_word(dir / "runs" / "a")).status,
      0);
  // outputs.vcd asked for a waveform: trace.vcd, in the folder, not w.vcd, with its GTKWave
  // save file and the save file's translate filters.
  EXPECT_EQ(TempDir::names_of(dir / "runs" / "a"),
            (std::vector<std::string>{"stats.json", "testbench.yaml", "trace.gtkw",
                                      "trace.gtkw.space.txt", "trace.gtkw.state.txt",
                                      "trace.gtkw.unit.txt", "trace.vcd"}));
  EXPECT_FALSE(std::filesystem::exists(dir / "w.vcd"));
  const std::string resolved = read_file(dir / "runs" / "a" / "testbench.yaml");
  EXPECT_NE(resolved.find("file: \"" + (dir / "t.csv").string() + "\""), std::string::npos)
      << resolved;
  expect_reproduced(testbench.string(), "");
}

TEST(OutDir, IsMadeOnlyForARunAndIsLeftAloneOnErrors) {
  TempDir dir;
  // A parent that is a file, an invalid testbench (its missing parents too), --stats with
  // --out-dir: exit 2, no folder.
  dir.write("file", "");
  const CommandResult blocked =
      mmsim("run " + kConfigs + "dmm_fig4.yaml --out-dir " + shell_word(dir / "file" / "run"));
  EXPECT_EQ(blocked.status, 2);
  EXPECT_NE(blocked.err.find("mmsim: --out-dir: cannot make the folder " +
                             (dir / "file" / "run").string()),
            std::string::npos)
      << blocked.err;
  std::filesystem::remove(dir / "file");
  const CommandResult invalid =
      mmsim("run " + kConfigs + "dmm_fig4.yaml --set machine.width=0 --out-dir " +
            shell_word(dir / "no" / "run"));
  EXPECT_EQ(invalid.status, 2);
  const CommandResult failing =
      mmsim("run " + kConfigs + "contiguous_dmm.yaml --set program.params.n=1000 " + "--out-dir " +
            shell_word(dir / "run"));
  EXPECT_EQ(failing.status, 2) << failing.err;
  const CommandResult both = mmsim("run " + kConfigs + "dmm_fig4.yaml --stats x.json --out-dir " +
                                   shell_word(dir / "run"));
  EXPECT_EQ(both.status, 2);
  EXPECT_NE(both.err.find("--out-dir"), std::string::npos) << both.err;
  EXPECT_TRUE(dir.names().empty());
  // One folder per run with --policies.
  ASSERT_EQ(mmsim("run " + kConfigs + "dmm_fig4.yaml --policies round_robin,random --out-dir " +
                  shell_word(dir / "run"))
                .status,
            0);
  EXPECT_EQ(TempDir::names_of(dir / "run"), (std::vector<std::string>{"random", "round_robin"}));
  EXPECT_EQ(json::parse(read_file(dir / "run" / "random" / "stats.json"))["dispatch"], "random");
}

// The folder's missing parents are made too (the tour's --out-dir runs/fig4-l5 in a fresh clone).
TEST(OutDir, MakesMissingParents) {
  TempDir dir;
  ASSERT_EQ(mmsim("run " + kConfigs + "dmm_fig4.yaml --out-dir " +
                  shell_word(dir / "runs" / "fig4" / "a"))
                .status,
            0);
  EXPECT_EQ(TempDir::names_of(dir / "runs" / "fig4" / "a"),
            (std::vector<std::string>{"stats.json", "testbench.yaml"}));
}

TEST(Provenance, PlanStatisticsAndSweepResultsRecordIt) {
  TempDir dir;
  const auto stats = dir / "plan.json";
  ASSERT_EQ(mmsim("plan --n 256 --width 16 --permutation bit_reversal --stats " + shell_word(stats))
                .status,
            0);
  const json plan = json::parse(read_file(stats));
  EXPECT_EQ(plan["resolved"], json({{"n", 256},
                                    {"width", 16},
                                    {"machine", "dmm"},
                                    {"permutation", "bit_reversal"},
                                    {"seed", 1},
                                    {"algorithm", "automatic"}}));
  EXPECT_NE(plan["command"].get<std::string>().find(" plan --n 256 --width 16"), std::string::npos);
  EXPECT_EQ(plan["host"], host());
  EXPECT_EQ("mmsim " + plan["version"].get<std::string>() + "\n", mmsim("--version").out);

  dir.write("base.yaml",
            "machine: {model: dmm, width: 4, latency: 3, threads: 16}\n"
            "program: {name: contiguous_access, params: {n: 64}}\n");
  const auto sweep = dir.write("s.yaml", "testbench: base.yaml\ngrid: {machine.latency: [1, 2]}\n");
  const CommandResult r =
      mmsim("sweep " + shell_word(sweep) + " --results " + shell_word(dir / "r.jsonl") +
            " --json " + shell_word(dir / "t.json") + " --markdown " + shell_word(dir / "t.md"));
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream lines(read_file(dir / "r.jsonl"));
  for (std::string line; std::getline(lines, line);) {
    const json record = json::parse(line);
    EXPECT_EQ(record["stats"]["command"], record["command"]);  // the run's own command
    EXPECT_EQ(record["stats"]["resolved"]["machine"]["latency"],
              record["values"]["machine.latency"]);
  }
  const json table = json::parse(read_file(dir / "t.json"));
  EXPECT_EQ(table["host"], host());
  EXPECT_EQ(table["version"], plan["version"]);
  const std::string markdown = read_file(dir / "t.md");
  EXPECT_NE(
      markdown.find("`.\nmmsim " + plan["version"].get<std::string>() + " on " + host() + ", "),
      std::string::npos)
      << markdown;
}

// scripts/plot_stats draws the histograms and the counters over time of a flat machine and of
// the hmm (per memory).
TEST(PlotStats, DrawsThePngOfARunsStatistics) {
  const CommandResult probe = run_command("/usr/bin/python3 -c 'import matplotlib'");
  ASSERT_EQ(probe.status, 0) << "Debian's python3-matplotlib is needed: run scripts/setup";
  TempDir dir;
  const std::string script = std::string(MMSIM_SOURCE_DIR) + "/scripts/plot_stats ";
  for (const std::string testbench : {"sum_simple.yaml", "hmm_gpgpu_thesis.yaml"}) {
    const auto stats = dir / (testbench + ".json");
    const auto png = dir / (testbench + ".png");
    ASSERT_EQ(mmsim("run " + kConfigs + testbench +
                    " --set program.params.n=2^12 --set expect={} --stats-interval 50 --stats " +
                    shell_word(stats))
                  .status,
              0);
    const CommandResult r = run_command(script + shell_word(stats) + " " + shell_word(png));
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string image = read_file(png);
    EXPECT_GT(image.size(), 10000u) << testbench;
    EXPECT_EQ(image.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  }
  const CommandResult bad =
      run_command(script + shell_word(dir / "none.json") + " " + shell_word(dir / "x.png"));
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("scripts/plot_stats: cannot read"), std::string::npos) << bad.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "x.png"));
}

}  // namespace
}  // namespace mmsim::test
