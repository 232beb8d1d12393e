// The timeline (--timeline, Chrome Trace Event JSON) parsed back: one slice per instruction and
// per barrier wait, as many as the statistics count, never overlapping on a warp's track, all
// within the run; a window keeps what overlaps it; the size guard refuses and leaves no file;
// recording changes no figure of the run.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

#include "support/temp_dir.hpp"
#include "testbench/input/testbench.hpp"
#include "testbench/run/runner.hpp"

namespace mmsim::test {
namespace {

std::string config(const std::string& name) {
  return std::string(MMSIM_SOURCE_DIR) + "/configs/" + name;
}

struct Slice {
  std::uint64_t ts;
  std::uint64_t dur;
  std::string name;
};

struct Parsed {
  std::map<std::pair<int, std::uint64_t>, std::vector<Slice>> memory;   // (pid, tid)
  std::map<std::pair<int, std::uint64_t>, std::vector<Slice>> barrier;  // (pid, tid)
  std::size_t counters = 0;
  std::size_t count(const decltype(memory)& tracks) const {
    std::size_t n = 0;
    for (const auto& [track, slices] : tracks) n += slices.size();
    return n;
  }
};

Parsed parse(const std::filesystem::path& file) {
  const nlohmann::json trace = nlohmann::json::parse(read_file(file));
  Parsed out;
  for (const nlohmann::json& e : trace.at("traceEvents")) {
    const std::string ph = e.at("ph");
    if (ph == "C") ++out.counters;
    if (ph != "X") continue;
    auto& tracks = e.at("cat") == "barrier" ? out.barrier : out.memory;
    tracks[{e.at("pid").get<int>(), e.at("tid").get<std::uint64_t>()}].push_back(
        {e.at("ts"), e.at("dur"), e.at("name")});
  }
  return out;
}

RunOutcome run(const std::string& file, const RunOptions& options) {
  return run_testbench(load_testbench(file), options);
}

void expect_timeline_is_the_run(const Parsed& p, const RunOutcome& o) {
  std::uint64_t instructions = 0, barriers = 0;
  for (const WarpTime& t : o.result.warp_times) instructions += t.dispatches;
  for (const std::uint64_t b : o.result.warp_barriers) barriers += b;
  EXPECT_EQ(p.count(p.memory), instructions);
  EXPECT_EQ(p.count(p.barrier), barriers);
  std::map<std::pair<int, std::uint64_t>, std::vector<Slice>> tracks = p.memory;
  for (const auto& [track, slices] : p.barrier)
    tracks[track].insert(tracks[track].end(), slices.begin(), slices.end());
  for (auto& [track, slices] : tracks) {
    std::sort(slices.begin(), slices.end(), [](const Slice& a, const Slice& b) {
      return std::pair(a.ts, a.ts + a.dur) < std::pair(b.ts, b.ts + b.dur);
    });
    for (std::size_t i = 0; i < slices.size(); ++i) {
      EXPECT_LE(slices[i].ts + slices[i].dur, o.result.cycles()) << slices[i].name;
      if (i > 0) {
        EXPECT_LE(slices[i - 1].ts + slices[i - 1].dur, slices[i].ts)
            << "warp " << track.second << ": " << slices[i - 1].name << " overlaps "
            << slices[i].name;
      }
    }
  }
}

TEST(Timeline, Fig4OnTheDmmIsTwoSlices) {
  TempDir dir;
  RunOptions options;
  options.timeline = (dir / "fig4.json").string();
  const RunOutcome o = run(config("dmm_fig4.yaml"), options);
  const Parsed p = parse(dir / "fig4.json");
  ASSERT_EQ(p.memory.size(), 2u);
  // W(0): dispatched at 0, k = 2, completes at 3: [0, 4). W(1): dispatched at 2, k = 1: [2, 5).
  const std::vector<Slice>& w0 = p.memory.at({0, 0});
  const std::vector<Slice>& w1 = p.memory.at({0, 1});
  ASSERT_EQ(w0.size(), 1u);
  ASSERT_EQ(w1.size(), 1u);
  EXPECT_EQ(w0[0].ts, 0u);
  EXPECT_EQ(w0[0].dur, 4u);
  EXPECT_EQ(w1[0].ts, 2u);
  EXPECT_EQ(w1[0].dur, 3u);
  EXPECT_NE(w0[0].name.find("read "), std::string::npos) << w0[0].name;
  EXPECT_NE(w0[0].name.find("dmm_fig4.yaml:"), std::string::npos) << w0[0].name;
  EXPECT_GT(p.counters, 0u);
  EXPECT_EQ(o.timeline_file, options.timeline);
}

class TimelineOf : public ::testing::TestWithParam<std::string> {};

TEST_P(TimelineOf, SlicesAreTheInstructionsAndBarriersAndTheRunIsUnchanged) {
  TempDir dir;
  RunOptions options;
  options.timeline = (dir / "t.json").string();
  const RunOutcome timed = run(config(GetParam()), options);
  const RunOutcome plain = run(config(GetParam()), {});
  expect_timeline_is_the_run(parse(dir / "t.json"), timed);
  EXPECT_EQ(timed.result.cycles(), plain.result.cycles());
  EXPECT_EQ(timed.result.counters.stages, plain.result.counters.stages);
  EXPECT_EQ(timed.result.counters.turn_wait, plain.result.counters.turn_wait);
  EXPECT_EQ(timed.verified, plain.verified);
}

INSTANTIATE_TEST_SUITE_P(Configs, TimelineOf,
                         ::testing::Values("sum_tree.yaml", "superwarp_fig6_sdmm.yaml",
                                           "hmm_sum.yaml", "gpu_trace_transpose_tiled_hmm.yaml",
                                           "transpose_naive_dmm.yaml"),
                         [](const auto& info) {
                           return info.param.substr(0, info.param.size() - 5);
                         });

TEST(Timeline, AWindowKeepsWhatOverlapsIt) {
  TempDir dir;
  RunOptions options;
  options.timeline = (dir / "all.json").string();
  run(config("transpose_naive_dmm.yaml"), options);
  const Parsed all = parse(dir / "all.json");
  options.timeline = (dir / "window.json").string();
  options.timeline_from = 100;
  options.timeline_to = 200;
  run(config("transpose_naive_dmm.yaml"), options);
  const Parsed window = parse(dir / "window.json");
  std::size_t expected = 0;
  for (const auto& [track, slices] : all.memory)
    for (const Slice& s : slices) expected += s.ts + s.dur - 1 >= 100 && s.ts <= 200;
  EXPECT_EQ(window.count(window.memory), expected);
  EXPECT_GT(expected, 0u);
  EXPECT_LT(expected, all.count(all.memory));
}

TEST(Timeline, PastItsLimitTheRunIsRefusedAndNoFileIsLeft) {
  TempDir dir;
  RunOptions options;
  options.timeline = (dir / "big.json").string();
  options.timeline_limit = 1000;
  EXPECT_THROW(run(config("transpose_naive_dmm.yaml"), options), InputError);
  EXPECT_TRUE(dir.names().empty());
}

}  // namespace
}  // namespace mmsim::test
