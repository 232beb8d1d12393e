// The profile's totals are the run's statistics exactly, on every example testbench and, on
// testbenches with barriers, super warps, several memories and a GPU trace, under every
// dispatch policy; profiling changes no figure of the run.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "hw/dispatch/dispatch_policies.hpp"
#include "support/command.hpp"
#include "sw/program/external_program.hpp"
#include "testbench/input/testbench.hpp"
#include "testbench/run/profile_report.hpp"
#include "testbench/run/report.hpp"
#include "testbench/run/runner.hpp"
#include "testbench/run/stats_json.hpp"

namespace mmsim::test {
namespace {

std::string config(const std::string& name) {
  return std::string(MMSIM_SOURCE_DIR) + "/configs/" + name;
}

RunOutcome run(const std::string& file, const std::vector<std::string>& overrides, bool profile) {
  RunOptions options;
  options.outputs["profile"].on = profile;
  return run_testbench(load_testbench(file, overrides), options);
}

void expect_profile_is_the_statistics(const RunOutcome& o) {
  ASSERT_TRUE(o.profile.has_value());
  const RunResult& r = o.result;
  const SiteCounts total = o.profile->total();
  EXPECT_EQ(total.dispatches, r.counters.dispatches);
  EXPECT_EQ(total.stages, r.counters.stages);
  EXPECT_EQ(total.requests, r.counters.requests);
  EXPECT_EQ(total.max_stages, r.counters.max_stages);
  EXPECT_EQ(total.turn_wait, r.counters.turn_wait);
  EXPECT_EQ(total.memory_wait, r.counters.memory_wait);
  std::uint64_t instructions = 0, barriers = 0;
  Cycle turn = 0, memory = 0, barrier = 0;
  for (const WarpTime& t : r.warp_times) {
    instructions += t.dispatches;
    turn += t.turn;
    memory += t.memory;
    barrier += t.barrier;
  }
  for (const std::uint64_t b : r.warp_barriers) barriers += b;
  EXPECT_EQ(total.instructions, instructions);
  EXPECT_EQ(total.turn_wait, turn);
  EXPECT_EQ(total.memory_wait, memory);
  EXPECT_EQ(total.barriers, barriers);
  EXPECT_EQ(total.barrier_wait, barrier);
  // Per memory too.
  for (MemoryId m = 0; m < r.memories.size(); ++m) {
    SiteCounts of_memory;
    for (const ProfileRow& row : o.profile->rows)
      if (row.memory == m) of_memory += row.counts;
    const MemoryCounters& c = r.memories[m].counters;
    EXPECT_EQ(of_memory.dispatches, c.dispatches) << r.memories[m].label;
    EXPECT_EQ(of_memory.stages, c.stages) << r.memories[m].label;
    EXPECT_EQ(of_memory.requests, c.requests) << r.memories[m].label;
    EXPECT_EQ(of_memory.turn_wait, c.turn_wait) << r.memories[m].label;
    EXPECT_EQ(of_memory.memory_wait, c.memory_wait) << r.memories[m].label;
  }
  // The statistics JSON holds the same table.
  const nlohmann::json stats = stats_json(o);
  ASSERT_TRUE(stats.contains("profile"));
  EXPECT_EQ(stats["profile"]["rows"].size(), o.profile->rows.size());
  EXPECT_EQ(stats["profile"]["total"]["stages"], r.counters.stages);
  EXPECT_EQ(stats["profile"]["total"]["barrier_wait"], barrier);
}

void expect_same_run(const RunOutcome& a, const RunOutcome& b) {
  EXPECT_EQ(a.result.cycles(), b.result.cycles());
  EXPECT_EQ(a.result.counters.dispatches, b.result.counters.dispatches);
  EXPECT_EQ(a.result.counters.stages, b.result.counters.stages);
  EXPECT_EQ(a.result.counters.requests, b.result.counters.requests);
  EXPECT_EQ(a.result.counters.busy, b.result.counters.busy);
  EXPECT_EQ(a.result.counters.stage_histogram, b.result.counters.stage_histogram);
  EXPECT_EQ(a.result.block_syncthreads, b.result.block_syncthreads);
  ASSERT_EQ(a.result.warp_times.size(), b.result.warp_times.size());
  for (std::size_t w = 0; w < a.result.warp_times.size(); ++w) {
    EXPECT_EQ(a.result.warp_times[w].finish, b.result.warp_times[w].finish) << w;
    EXPECT_EQ(a.result.warp_times[w].turn, b.result.warp_times[w].turn) << w;
    EXPECT_EQ(a.result.warp_times[w].barrier, b.result.warp_times[w].barrier) << w;
  }
  EXPECT_EQ(a.verified, b.verified);
}

std::vector<std::string> example_testbenches() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(config("")))
    if (entry.path().extension() == ".yaml") files.push_back(entry.path().filename().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::string test_name(const std::string& file) {
  std::string name = file.substr(0, file.size() - 5);
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

class ProfiledExample : public ::testing::TestWithParam<std::string> {};

TEST_P(ProfiledExample, TotalsAreTheStatisticsAndTheRunIsUnchanged) {
  const RunOutcome plain = run(config(GetParam()), {}, false);
  const RunOutcome profiled = run(config(GetParam()), {}, true);
  EXPECT_FALSE(plain.profile.has_value());
  expect_profile_is_the_statistics(profiled);
  expect_same_run(plain, profiled);
}

INSTANTIATE_TEST_SUITE_P(Configs, ProfiledExample, ::testing::ValuesIn(example_testbenches()),
                         [](const auto& info) { return test_name(info.param); });

// Barriers (sum_tree), super warps (superwarp_fig6_sdmm), the hmm's memories (hmm_sum), a GPU
// trace on the hmm (gpu_trace_reduction_hmm), a trace program with sync (hmm_simultaneity).
class ProfiledPolicy : public ::testing::TestWithParam<std::string> {};

TEST_P(ProfiledPolicy, TotalsAreTheStatisticsUnderEveryPolicy) {
  for (const PolicyInfo& policy : dispatch_policies()) {
    SCOPED_TRACE(policy.name);
    const std::vector<std::string> overrides = {"machine.dispatch=" + policy.name};
    const RunOutcome plain = run(config(GetParam()), overrides, false);
    const RunOutcome profiled = run(config(GetParam()), overrides, true);
    expect_profile_is_the_statistics(profiled);
    expect_same_run(plain, profiled);
  }
}

INSTANTIATE_TEST_SUITE_P(Configs, ProfiledPolicy,
                         ::testing::Values("sum_tree.yaml", "superwarp_fig6_sdmm.yaml",
                                           "hmm_sum.yaml", "gpu_trace_reduction_hmm.yaml",
                                           "hmm_simultaneity.yaml"),
                         [](const auto& info) { return test_name(info.param); });

TEST(Profile, TheTraceProgramsSitesAreItsLines) {
  const RunOutcome o = run(config("dmm_fig4.yaml"), {}, true);
  ASSERT_TRUE(o.profile.has_value());
  for (const SiteInfo& site : o.profile->sites) {
    EXPECT_NE(site.file.find("dmm_fig4.yaml"), std::string::npos) << site.file;
    EXPECT_GT(site.line, 0u);
  }
}

}  // namespace
}  // namespace mmsim::test

namespace mmsim::test {
namespace {

const ProgramTable* table(const RunOutcome& o, const std::string& key) {
  for (const ProgramTable& t : o.tables)
    if (t.key == key) return &t;
  return nullptr;
}

std::uint64_t column_sum(const ProgramTable& t, const std::string& column) {
  const auto at = std::find(t.columns.begin(), t.columns.end(), column) - t.columns.begin();
  std::uint64_t sum = 0;
  for (const auto& row : t.rows) sum += std::get<std::uint64_t>(row.at(at));
  return sum;
}

// The gpu_trace program's tables per opcode and per PC (issue 26's) add up to the profile's rows
// at the trace's sites; the barriers the program adds between rounds are its own lines.
TEST(Profile, AGpuTracesTablesPerOpcodeAndPerPcAddUpToItsSites) {
  const RunOutcome o = run(config("gpu_trace_transpose_tiled_hmm.yaml"), {}, true);
  ASSERT_TRUE(o.profile.has_value());
  SiteCounts traced;
  std::set<std::string> pcs;
  for (const ProfileRow& row : o.profile->rows) {
    const SiteInfo& site = o.profile->sites[row.site];
    if (site.file != "transpose_tiled.traceg.xz") continue;
    traced += row.counts;
    pcs.insert(site.label);
  }
  ASSERT_GT(traced.instructions, 0u);
  const ProgramTable* opcodes = table(o, "trace_profile_opcodes");
  const ProgramTable* per_pc = table(o, "trace_profile_pcs");
  ASSERT_NE(opcodes, nullptr);
  ASSERT_NE(per_pc, nullptr);
  for (const ProgramTable* t : {opcodes, per_pc}) {
    EXPECT_EQ(column_sum(*t, "instructions"), traced.instructions + traced.barriers) << t->key;
    EXPECT_EQ(column_sum(*t, "requests"), traced.requests) << t->key;
    EXPECT_EQ(column_sum(*t, "stages"), traced.stages) << t->key;
    EXPECT_EQ(column_sum(*t, "turn"), traced.turn_wait) << t->key;
    EXPECT_EQ(column_sum(*t, "barrier"), traced.barrier_wait) << t->key;
  }
  EXPECT_EQ(per_pc->rows.size(), pcs.size());
  // The opcodes of the tiled transpose: global loads and stores, shared loads and stores, and
  // the barrier between them.
  std::set<std::string> names;
  for (const auto& row : opcodes->rows) names.insert(std::get<std::string>(row.at(0)));
  EXPECT_EQ(names,
            (std::set<std::string>{"BAR.SYNC.DEFER_BLOCKING", "LDG.E", "LDS", "STG.E", "STS"}));
}

}  // namespace
}  // namespace mmsim::test

namespace mmsim::test {
namespace {

// The statistics' profile reads back as the table it was written from.
TEST(ProfileJson, ReadsBackAsTheTable) {
  const RunOutcome o = run(config("hmm_sum.yaml"), {}, true);
  const ProfileTable back =
      profile_from_json(nlohmann::json::parse(stats_json(o).dump()).at("profile"), "s.json");
  ASSERT_EQ(back.sites, o.profile->sites);
  ASSERT_EQ(back.rows.size(), o.profile->rows.size());
  for (std::size_t i = 0; i < back.rows.size(); ++i) {
    EXPECT_EQ(back.rows[i].site, o.profile->rows[i].site);
    EXPECT_EQ(back.rows[i].memory, o.profile->rows[i].memory);
    EXPECT_EQ(nlohmann::json(stats_json(o)["profile"]["rows"][i]),
              profile_json(back, o.result)["rows"][i]);
  }
}

// Issue 40, item 7: what mmsim profile cannot read is a located error, exit status 2.
TEST(ProfileCommand, WhatItCannotReadIsALocatedError) {
  TempDir dir;
  const auto stats = dir / "s.json";
  ASSERT_EQ(
      mmsim("run " + config("dmm_fig4.yaml") + " --profile --stats " + shell_word(stats)).status,
      0);
  nlohmann::json json = nlohmann::json::parse(read_file(stats));
  json["profile"]["rows"][1]["site"] = 1000000000;
  dir.write("far.json", json.dump());
  json["profile"]["rows"][1]["site"] = -1;
  dir.write("negative.json", json.dump());
  json["profile"]["rows"][1].erase("site");
  dir.write("no_site.json", json.dump());
  std::filesystem::create_directory(dir / "folder");
  const std::string d = dir.path().string() + "/";
  for (const auto& [file, message] : std::vector<std::pair<std::string, std::string>>{
           {"folder", "folder: cannot be read: is a folder"},
           {"missing.json", "missing.json: cannot be read: No such file or directory"},
           {"far.json",
            "far.json: profile.rows[1].site: names site 1000000000; the profile has 2 sites"},
           {"negative.json",
            "negative.json: profile.rows[1].site: expected an integer from 0 to 4294967295, got "
            "-1"},
           {"no_site.json", "no_site.json: profile.rows[1]: missing key 'site'"}}) {
    const CommandResult r = mmsim("profile " + shell_word(dir / file));
    EXPECT_EQ(r.status, 2) << file;
    EXPECT_EQ(r.err, "mmsim: profile: " + d + message + "\n");
    EXPECT_EQ(r.out, "");
  }
  EXPECT_EQ(mmsim("profile " + shell_word(stats)).status, 0);
}

}  // namespace
}  // namespace mmsim::test

namespace mmsim::test {
namespace {

// Each warp reads its row of global memory, then writes four words of one bank of its SM's
// shared memory (k = 4).
class ReadThenConflict final : public WarpProgram {
 public:
  std::uint64_t memory_words() const override { return 64; }
  std::uint64_t shared_words() const override { return 16; }
  Task run(Warp& warp) override {
    std::vector<Address> row(4), column(4);
    const std::vector<Word> values(4, 1);
    for (std::size_t lane = 0; lane < 4; ++lane) {
      row[lane] = 4 * warp.index() + lane;
      column[lane] = 4 * lane;
    }
    co_await warp.read(row);
    co_await warp.write(column, values, Space::shared);
  }
};

// A row of the report's profile: its memory and its eight counts, the site left out.
std::vector<std::string> columns(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return {words.end() - 9, words.end()};
}

// Issue 45, item 3: the hmm's profile in the report has each shared-memory line once, summed
// over the SMs; --profile takes a sort key and a row count, and `memories` shows each memory.
// On the hmm with d = 2, w = 4, p = 8 (a warp per SM), l = 5, l_s = 1: W(0) reads global at 0
// (k = 1, done at 4), W(1) at 1 (done at 5: it waited 1); each then writes bank 0 of its shared
// memory four times (k = 4), W(0) at 5 (done at 8), W(1) at 6 (done at 9): 10 time units.
class HmmProfile : public ::testing::Test {
 protected:
  void SetUp() override {
    register_program_loader(ExternalProgram::Kind::library, [](const ExternalProgram&) {
      auto info = std::make_shared<ProgramInfo>();
      info->name = "read_then_conflict";
      info->make = [](const ProgramArgs&) { return std::make_unique<ReadThenConflict>(); };
      return std::shared_ptr<const ProgramInfo>(info);
    });
    // A real library, as mmsim checks it before loading; the test's loader makes the program.
    dir_.copy(MMSIM_TEST_PLUGIN, "lib.so");
    testbench_ = dir_.write("tb.yaml",
                            "machine: {model: hmm, multiprocessors: 2, width: 4, latency: 5, "
                            "threads: 8, shared: {latency: 1}}\n"
                            "program: {library: lib.so, name: read_then_conflict}\n");
  }
  // The report's profile lines under --profile=`view`: its header, and each row's columns.
  std::pair<std::string, std::vector<std::vector<std::string>>> profile(const std::string& view) {
    RunOptions options;
    options.outputs["profile"].shown = view;
    const RunOutcome o = run_testbench(load_testbench(testbench_), options);
    EXPECT_EQ(o.result.cycles(), 10u);
    std::istringstream report(format_report(o));
    std::vector<std::string> lines;
    for (std::string line; std::getline(report, line);)
      if (line.starts_with("  profile") || !lines.empty()) lines.push_back(line);
    std::vector<std::vector<std::string>> rows;
    for (std::size_t i = 2; i < lines.size() && lines[i].starts_with("    "); ++i)
      rows.push_back(columns(lines[i]));
    return {lines.at(0), rows};
  }
  TempDir dir_;
  std::filesystem::path testbench_;
};

using Row = std::vector<std::string>;
const Row kRead = {"global", "2", "8", "2", "1", "1.00", "1", "10", "0"};
const Row kWrite = {"shared", "2", "8", "8", "4", "4.00", "0", "8", "0"};

TEST_F(HmmProfile, EachSharedMemoryLineOnceByWarpTime) {
  const auto [header, rows] = profile("time");
  EXPECT_EQ(header,
            "  profile      2 sites; all by warp time (turn + memory + barrier, of 19 time units); "
            "each shared-memory line once over the 2 SMs");
  EXPECT_EQ(rows, (std::vector<Row>{kRead, kWrite}));
}

TEST_F(HmmProfile, ByStagesMeanOrMaxTheConflictingWriteComesFirst) {
  for (const std::string key : {"stages", "mean", "max"})
    EXPECT_EQ(profile(key).second, (std::vector<Row>{kWrite, kRead})) << key;
  const auto [header, rows] = profile("stages,1");
  EXPECT_EQ(header,
            "  profile      2 sites; the top 1 by stages (of 10); each shared-memory line once "
            "over the 2 SMs");
  EXPECT_EQ(rows, (std::vector<Row>{kWrite}));
}

TEST_F(HmmProfile, EachMemoryOnRequest) {
  const auto [header, rows] = profile("all,memories");
  EXPECT_EQ(header,
            "  profile      2 sites; all by warp time (turn + memory + barrier, of 19 time units)");
  EXPECT_EQ(rows, (std::vector<Row>{kRead,
                                    {"shared", "1", "4", "4", "4", "4.00", "0", "4", "0"},
                                    {"shared", "1", "4", "4", "4", "4.00", "0", "4", "0"}}));
}

TEST(ProfileOption, AWordItDoesNotKnowIsAnError) {
  const CommandResult r = mmsim("run " + config("dmm_fig4.yaml") + " --profile=fast,all");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "mmsim: --profile: expected a sort key (time, stages, mean, max), a row count (a "
            "number from 1, or all) or memories, got 'fast'\n");
  const CommandResult ok = mmsim("run " + config("dmm_fig4.yaml") + " --profile=stages,1");
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_NE(ok.out.find("  profile      2 sites; the top 1 by stages (of 3)\n"), std::string::npos)
      << ok.out;
}

}  // namespace
}  // namespace mmsim::test
