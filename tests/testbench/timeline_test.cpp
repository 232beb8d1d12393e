// The timeline (--timeline, Chrome Trace Event JSON) parsed back: one slice per instruction and
// per barrier wait, as many as the statistics count, never overlapping on a warp's track, all
// within the run; a window keeps what overlaps it; the size guard refuses and leaves no file;
// recording changes no figure of the run; the busy banks per time unit of hand-worked examples,
// and on whole runs as many busy time units as stages and as many busy banks as requests.
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

// A counter track: its value from each event's time on, the events in time order.
using Counter = std::vector<std::pair<std::uint64_t, double>>;

struct Parsed {
  std::map<std::pair<int, std::uint64_t>, std::vector<Slice>> memory;   // (pid, tid)
  std::map<std::pair<int, std::uint64_t>, std::vector<Slice>> barrier;  // (pid, tid)
  std::size_t counters = 0;
  std::map<std::string, Counter> tracks;  // by name ("memory banks"), the value of its one arg
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
    if (ph == "C") {
      ++out.counters;
      out.tracks[e.at("name")].emplace_back(e.at("ts"), e.at("args").begin()->get<double>());
    }
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

// A counter's value in each time unit from 0 to `end` (exclusive): 0 before its first event.
std::vector<double> per_time_unit(const Counter& track, std::uint64_t end) {
  std::vector<double> values(end, 0);
  for (std::size_t i = 0; i < track.size(); ++i) {
    const std::uint64_t until = i + 1 < track.size() ? track[i + 1].first : end;
    for (std::uint64_t t = track[i].first; t < std::min(until, end); ++t)
      values[t] = track[i].second;
  }
  return values;
}

// The busy banks of `label`'s memory per time unit, over the run and one time unit past it.
std::vector<double> busy_banks(const std::string& file, const std::string& label = "memory") {
  TempDir dir;
  RunOptions options;
  options.ask("timeline", (dir / "t.json").string());
  const RunOutcome o = run(file, options);
  const Parsed p = parse(dir / "t.json");
  EXPECT_EQ(p.tracks.at(label + " banks").back().second, 0) << "the track ends idle";
  return per_time_unit(p.tracks.at(label + " banks"), o.result.cycles() + 1);
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
  options.ask("timeline", (dir / "fig4.json").string());
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
  ASSERT_EQ(o.written.size(), 1u);
  EXPECT_EQ(o.written[0].label, "timeline");
  EXPECT_EQ(o.written[0].text, (dir / "fig4.json").string() + "  (open it in ui.perfetto.dev)");
}

// Nakano 2012, Fig. 4 on the DMM: W(0) reads m[0], m[1], m[5], m[10] (banks 0, 1, 1, 2) at 0;
// its group 0 sends to banks 0, 1, 2 and group 1 m[5] to bank 1. W(1) reads one address in
// each bank at 2. Then the pipeline only drains: no group enters.
TEST(Timeline, BusyBanksOfFig4OnTheDmm) {
  EXPECT_EQ(busy_banks(config("dmm_fig4.yaml")), (std::vector<double>{3, 1, 4, 0, 0, 0}));
}

// The same on the UMM: W(0)'s address groups A[0] (m[0], m[1]), A[1] (m[5]), A[2] (m[10]) at
// 0, 1, 2; W(1)'s A[2] (m[8], m[9]) and A[3] (m[14], m[15]) at 3, 4. The address line reaches
// every bank; busy are those that serve a request.
TEST(Timeline, BusyBanksOfFig4OnTheUmm) {
  EXPECT_EQ(busy_banks(config("umm_fig4.yaml")), (std::vector<double>{2, 1, 1, 2, 2, 0, 0, 0}));
}

// Fig. 4 with two ports per bank (docs/semantics.md §10). DMM: W(0)'s one stage group at 0 sends
// to banks 0, 1 (m[1] and m[5], through its two ports) and 2; W(1)'s at 1 to all four. UMM: the
// group at 0 carries A[0] and A[1] (banks 0 and 1), at 1 A[2] (bank 2), at 2 A[2] and A[3] (all
// four).
TEST(Timeline, BusyBanksOfFig4WithTwoPortsPerBank) {
  EXPECT_EQ(busy_banks(config("dmm_fig4_ports.yaml")), (std::vector<double>{3, 4, 0, 0, 0}));
  EXPECT_EQ(busy_banks(config("umm_fig4_ports.yaml")), (std::vector<double>{2, 1, 4, 0, 0, 0}));
}

// Nakano and Matsumae 2013, Fig. 6: the super warp's 12 requests packed; banks 0, 1, 2 get 2
// requests each, bank 3 six (m[7], m[11], m[3], m[15], m[19], m[23]). Groups 0 and 1 send to
// all four banks, groups 2 to 5 to bank 3 alone.
TEST(Timeline, BusyBanksOfFig6OnTheSdmmAfterPacking) {
  EXPECT_EQ(busy_banks(config("superwarp_fig6_sdmm.yaml")),
            (std::vector<double>{4, 4, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0}));
}

// Fig. 7: the same requests after the random shift unit (shifts 0, 1, 1, 2, 2, 1 per row): a
// bank is the one the cell was shifted to. Bank 0 gets m[7], m[11], m[23]; bank 1 m[4], m[15],
// m[19], m[1]; bank 2 m[16], m[2], m[9]; bank 3 m[3], m[6]: groups of 4, 4, 3 and 1 banks.
TEST(Timeline, BusyBanksOfFig7OnTheRsdmmAfterTheShift) {
  EXPECT_EQ(busy_banks(config("superwarp_fig7_rsdmm.yaml")),
            (std::vector<double>{4, 4, 3, 1, 0, 0, 0, 0, 0, 0, 0}));
}

// One warp of w = 4 reads a row (conflict free: 4 banks in one time unit), then, its request
// completed at 2, a column at 3 (every request to bank 0: 1 bank in each of 4 time units).
TEST(Timeline, AConflictFreeAccessBusiesWBanksAConflictedOneBankPerStage) {
  TempDir dir;
  const std::filesystem::path file = dir.write("rows_and_columns.yaml", R"(name: rows-and-columns
machine: {model: dmm, width: 4, latency: 3, threads: 4}
program:
  name: trace
  warps:
    - [ {read: [0, 1, 2, 3]}, {read: [0, 4, 8, 12]} ]
)");
  EXPECT_EQ(busy_banks(file.string()), (std::vector<double>{4, 0, 0, 1, 1, 1, 1, 0, 0, 0}));
}

class TimelineOf : public ::testing::TestWithParam<std::string> {};

TEST_P(TimelineOf, SlicesAreTheInstructionsAndBarriersAndTheRunIsUnchanged) {
  TempDir dir;
  RunOptions options;
  options.ask("timeline", (dir / "t.json").string());
  const RunOutcome timed = run(config(GetParam()), options);
  const RunOutcome plain = run(config(GetParam()), {});
  const Parsed p = parse(dir / "t.json");
  expect_timeline_is_the_run(p, timed);
  // Per memory, a bank is busy once per request (these programs never send two lanes of one
  // dispatch to one address), and a group enters in each of its stages' time units.
  for (const MemoryResult& memory : timed.result.memories) {
    if (memory.counters.dispatches == 0) continue;
    const std::vector<double> busy =
        per_time_unit(p.tracks.at(memory.label + " banks"), timed.result.cycles() + 1);
    double sum = 0;
    std::uint64_t busy_time_units = 0;
    for (const double banks : busy) {
      sum += banks;
      busy_time_units += banks > 0;
      EXPECT_LE(banks, memory.width) << memory.label;
    }
    EXPECT_EQ(sum, static_cast<double>(memory.counters.requests)) << memory.label;
    EXPECT_EQ(busy_time_units, memory.counters.stages) << memory.label;
  }
  EXPECT_EQ(timed.result.cycles(), plain.result.cycles());
  EXPECT_EQ(timed.result.counters.stages, plain.result.counters.stages);
  EXPECT_EQ(timed.result.counters.turn_wait, plain.result.counters.turn_wait);
  EXPECT_EQ(timed.verified, plain.verified);
}

INSTANTIATE_TEST_SUITE_P(Configs, TimelineOf,
                         ::testing::Values("sum_tree.yaml", "superwarp_fig6_sdmm.yaml",
                                           "hmm_sum.yaml", "gpu_trace_transpose_tiled_hmm.yaml",
                                           "transpose_naive_dmm.yaml", "transpose_naive_rsdmm.yaml",
                                           "stride_umm_gcd1.yaml"),
                         [](const auto& info) {
                           return info.param.substr(0, info.param.size() - 5);
                         });

TEST(Timeline, AWindowKeepsWhatOverlapsIt) {
  TempDir dir;
  RunOptions options;
  options.ask("timeline", (dir / "all.json").string());
  run(config("transpose_naive_dmm.yaml"), options);
  const Parsed all = parse(dir / "all.json");
  options.ask("timeline", (dir / "window.json").string());
  options.outputs["timeline"].from = 100;
  options.outputs["timeline"].to = 200;
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
  options.ask("timeline", (dir / "big.json").string());
  options.outputs["timeline"].limit = 1000;
  EXPECT_THROW(run(config("transpose_naive_dmm.yaml"), options), InputError);
  EXPECT_TRUE(dir.names().empty());
}

}  // namespace
}  // namespace mmsim::test

namespace mmsim::test {
namespace {

// outputs.timeline takes the mapping outputs.vcd takes ({file, from, to, limit}); each option
// replaces its key, as the --vcd options do.
TEST(Timeline, TheTestbenchsMappingIsTheOptions) {
  TempDir dir;
  RunOptions options;
  options.ask("timeline", (dir / "options.json").string());
  options.outputs["timeline"].from = 100;
  options.outputs["timeline"].to = 200;
  run(config("transpose_naive_dmm.yaml"), options);
  const auto tb =
      dir.write("tb.yaml", read_file(config("transpose_naive_dmm.yaml")) +
                               "outputs: {timeline: {file: " + (dir / "key.json").string() +
                               ", from: 100, to: 200}}\n");
  run(tb.string(), {});
  EXPECT_EQ(read_file(dir / "key.json"), read_file(dir / "options.json"));
  // An option over the key: the window from 150.
  RunOptions later;
  later.outputs["timeline"].from = 150;
  run(tb.string(), later);
  for (const auto& [track, slices] : parse(dir / "key.json").memory)
    for (const Slice& s : slices) EXPECT_GE(s.ts + s.dur, 150u);
  // The key's limit, refused before the run at its place.
  const auto small =
      dir.write("small.yaml", read_file(config("transpose_naive_dmm.yaml")) +
                                  "outputs:\n  timeline: {file: s.json, limit: 1000}\n");
  try {
    run(small.string(), {});
    FAIL() << "a timeline past its limit";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().file, small.string());
    EXPECT_NE(std::string(e.what()).find("more than the limit of 1000 bytes"), std::string::npos)
        << e.what();
  }
}

TEST(Timeline, ItsOptionsWithoutATimelineAreRefused) {
  TempDir dir;
  RunOptions options;
  options.outputs["timeline"].to = 5;
  try {
    run(config("dmm_fig4.yaml"), options);
    FAIL() << "--timeline-to without a timeline";
  } catch (const InputError& e) {
    EXPECT_EQ(e.describe(),
              "--timeline-to: there is no timeline to choose for: give --timeline FILE (or "
              "outputs.timeline)");
  }
  options.ask("timeline", (dir / "t.json").string());
  options.outputs["timeline"].from = 6;
  try {
    run(config("dmm_fig4.yaml"), options);
    FAIL() << "a window that ends before it begins";
  } catch (const InputError& e) {
    EXPECT_EQ(e.describe(),
              "--timeline-to: the timeline's window ends at time unit 5 before it begins (from "
              "6)");
  }
  EXPECT_TRUE(dir.names().empty());
}

}  // namespace
}  // namespace mmsim::test
