// GTKWave itself opens every kind of waveform with the save file mmsim writes beside it,
// headless (Xvfb): every trace of the save file is shown, states and units read as names, and
// a picture of the window is written. A broken save file (a signal GTKWave cannot find, a
// filter it cannot read) fails here.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <sstream>

#include "support/command.hpp"

namespace mmsim::test {
namespace {

const std::string kConfigs = std::string(MMSIM_SOURCE_DIR) + "/configs/";

struct View {
  int status = -1;
  std::string output;
  std::vector<std::string> traces;           // as GTKWave lists them
  std::map<std::string, std::string> value;  // at the marker
  std::string picture;                       // the PNG's bytes
};

// Where xvfb-run starts looking for a free display: its own search (-a) races with another
// xvfb-run started at the same moment (ctest -j), so each run starts somewhere else.
int display_number() {
  static std::mt19937 random(std::random_device{}());
  return std::uniform_int_distribution<int>(100, 30000)(random);
}

// Opens `waveform` with its save file in GTKWave under Xvfb, the marker at `marker`.
View open_in_gtkwave(const TempDir& dir, const std::filesystem::path& waveform, int marker) {
  const auto picture = dir / "view.png";
  const std::filesystem::path save = std::filesystem::path(waveform).replace_extension(".gtkw");
  const CommandResult r =
      run_command("MMSIM_MARKER=" + std::to_string(marker) +
                  " MMSIM_PICTURE=" + shell_word(picture) + " timeout 120 xvfb-run -a -n " +
                  std::to_string(display_number()) + " -s '-screen 0 1600x1200x24' gtkwave -S " +
                  shell_word(std::filesystem::path(MMSIM_SOURCE_DIR) / "scripts/gtkwave_view.tcl") +
                  " " + shell_word(waveform) + " " + shell_word(save));
  View view;
  view.status = r.status;
  view.output = r.out + r.err;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("TRACE ")) view.traces.push_back(line.substr(6));
    if (line.starts_with("VALUE ")) {
      const std::size_t eq = line.find(" = ");
      if (eq != std::string::npos) view.value[line.substr(6, eq - 6)] = line.substr(eq + 3);
    }
  }
  if (std::filesystem::exists(picture)) view.picture = read_file(picture);
  return view;
}

// The traces a save file names: its signals by their shown names, and its group and blank rows.
std::vector<std::string> save_file_traces(const std::filesystem::path& save) {
  std::vector<std::string> traces;
  std::istringstream lines(read_file(save));
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("+{") || line.starts_with("#{"))
      traces.push_back(line.substr(2, line.find('}') - 2));
    if (line.starts_with("-")) traces.push_back(line.substr(1));
  }
  return traces;
}

// The groups a save file begins, in order, separated by spaces, those the view shows closed in
// brackets. A line "@FLAGS" gives the flags of the rows below it: 0x800000 begins a group,
// 0x400000 closes it.
std::string save_file_groups(const std::filesystem::path& save) {
  std::string groups;
  std::istringstream lines(read_file(save));
  unsigned long flags = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("@")) flags = std::stoul(line.substr(1), nullptr, 16);
    if (!line.starts_with("-") || (flags & 0x800000) == 0) continue;
    const std::string name = line.substr(1);
    groups += (groups.empty() ? "" : " ") + ((flags & 0x400000) != 0 ? "[" + name + "]" : name);
  }
  return groups;
}

// Runs `config` into `file` and opens it; checks what every view must show.
View run_and_open(const TempDir& dir, const std::string& arguments, const std::string& file,
                  int marker) {
  const auto waveform = dir / file;
  const CommandResult run = mmsim("run " + arguments + " --vcd " + shell_word(waveform));
  EXPECT_EQ(run.status, 0) << run.err;
  View view = open_in_gtkwave(dir, waveform, marker);
  EXPECT_EQ(view.status, 0) << view.output;
  const auto save = std::filesystem::path(waveform).replace_extension(".gtkw");
  EXPECT_EQ(view.traces, save_file_traces(save)) << "GTKWave did not show every trace of " << save;
  EXPECT_GT(view.traces.size(), 10u);
  EXPECT_EQ(view.picture.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8)) << view.output;
  EXPECT_GT(view.picture.size(), 10000u);
  return view;
}

const std::string kFig7 = kConfigs + "superwarp_fig7_rsdmm.yaml";

TEST(GtkwaveView, OpensTheRsdmmOfFig7WithNamedStatesAndUnits) {
  TempDir dir;
  const View view = run_and_open(dir, kFig7, "fig7.vcd", 2);
  // At cycle 2 the super warp waits for its dispatch, whose third group enters the pipeline.
  EXPECT_EQ(view.value.at("super_warp_0/state"), "waiting");
  EXPECT_EQ(view.value.at("memory/pipeline/entry_unit"), "super_warp_0");
  EXPECT_EQ(view.value.at("memory/pipeline/entry_group"), "2");
  EXPECT_EQ(view.value.at("dispatcher/dispatch_valid"), "0");
  EXPECT_EQ(view.value.at("memory/pipeline/occupancy"), "3");
}

// The check above catches a save file that names a signal GTKWave does not find.
TEST(GtkwaveView, ABrokenSaveFileShowsFewerTraces) {
  TempDir dir;
  const auto waveform = dir / "fig7.vcd";
  ASSERT_EQ(mmsim("run " + kFig7 + " --vcd " + shell_word(waveform)).status, 0);
  const auto save = dir / "fig7.gtkw";
  std::string text = read_file(save);
  const std::string signal = "SystemC.machine.dispatcher.dispatch_unit";
  text.replace(text.find(signal), signal.size(), "SystemC.machine.dispatcher.no_such_signal");
  dir.write("fig7.gtkw", text);
  const View view = open_in_gtkwave(dir, waveform, 0);
  EXPECT_EQ(view.status, 0);
  EXPECT_NE(view.traces, save_file_traces(save));
  EXPECT_EQ(view.traces.size() + 1, save_file_traces(save).size());
}

TEST(GtkwaveView, OpensTheUmmWithItsCoalescer) {
  TempDir dir;
  const View view = run_and_open(
      dir,
      kConfigs +
          "dmm_fig4.yaml --set machine.model=umm --set expect.cycles=7 --set expect.stages=5",
      "umm.vcd", 3);
  // W(1)'s dispatch: its first group (row 2) enters at 3.
  EXPECT_EQ(view.value.at("memory/coalescer/entry_row"), "2");
  EXPECT_EQ(view.value.at("memory/coalescer/packed_stages"), "2");
  EXPECT_EQ(view.value.at("dispatcher/dispatch_unit"), "warp_1");
  EXPECT_EQ(view.value.at("warp_0/state"), "waiting");
}

// Banks of two ports (docs/semantics.md §10): a request slot per port of each bank, the second
// port's below the bank, and the coalescer's address group per port.
TEST(GtkwaveView, OpensBanksOfTwoPortsWithASlotPerPort) {
  TempDir dir;
  const View dmm = run_and_open(dir, kConfigs + "dmm_fig4_ports.yaml", "dmm.vcd", 0);
  EXPECT_EQ(dmm.value.at("memory/bank_1/entry_address"), "1");
  EXPECT_EQ(dmm.value.at("memory/bank_1/port_1/entry_address"), "5");
  EXPECT_EQ(dmm.value.at("memory/request_packing_unit/load_1"), "2");
  const View umm = run_and_open(dir, kConfigs + "umm_fig4_ports.yaml", "umm.vcd", 2);
  EXPECT_EQ(umm.value.at("memory/coalescer/entry_row"), "2");
  EXPECT_EQ(umm.value.at("memory/coalescer/port_1/entry_row"), "3");
  EXPECT_EQ(umm.value.at("memory/bank_3/port_1/entry_address"), "15");
}

TEST(GtkwaveView, OpensTheHierarchicalMachineWithAGroupPerMultiprocessor) {
  TempDir dir;
  const View view = run_and_open(dir, kConfigs + "hmm_design_example.yaml", "hmm.vcd", 1);
  const std::set<std::string> traces(view.traces.begin(), view.traces.end());
  for (const std::string group : {"global_memory", "sm_0", "sm_1"})
    EXPECT_TRUE(traces.count(group)) << group;
  EXPECT_EQ(view.value.at("dispatcher/dispatch_unit"), "XXX");  // idle: high impedance
  EXPECT_EQ(view.value.at("sm_0/warp_0/state"), "waiting");
  EXPECT_EQ(view.value.at("sm_0/warp_0/space"), "global");
  // Traces of closed groups have their values too: SM 1 (closed) reads its shared memory at
  // [0, 4, 8, 12], one stage group a time unit, the second (m[4]) entering and, with l_s = 1,
  // completing at 1.
  EXPECT_EQ(view.value.at("sm_1/shared_memory/pipeline/entry_group"), "1");
  EXPECT_EQ(view.value.at("sm_1/shared_memory/pipeline/completion_group"), "1");
  EXPECT_EQ(view.value.at("sm_1/shared_memory/bank_0/entry_address"), "4");
  EXPECT_EQ(view.value.at("sm_1/warp_1/space"), "shared");
  // SM 0 opens with its shared memory (its banks closed, as a flat machine's); SM 1 is closed.
  EXPECT_TRUE(save_file_groups(dir / "hmm.gtkw")
                  .starts_with("dispatcher global_memory coalescer pipeline [banks] barrier sm_0 "
                               "dispatcher warps shared_memory request_packing_unit pipeline "
                               "[banks] barrier [sm_1] "))
      << save_file_groups(dir / "hmm.gtkw");
}

TEST(GtkwaveView, OpensFstAndLxt2) {
  for (const std::string file : {"fig7.fst", "fig7.lxt2"}) {
    TempDir dir;
    const View view = run_and_open(dir, kFig7, file, 2);
    EXPECT_EQ(view.value.at("super_warp_0/state"), "waiting") << file;
  }
}

TEST(GtkwaveView, OpensAWindowOfSomeScopes) {
  TempDir dir;
  const View view = run_and_open(dir,
                                 kConfigs +
                                     "transpose_naive_dmm.yaml --set program.params.n=2^14 "
                                     "--set expect={} --vcd-from 1000 --vcd-to 1100 "
                                     "--vcd-scope 'machine.warp_[0-3]' --vcd-scope 'memory'",
                                 "window.vcd", 1050);
  const std::set<std::string> traces(view.traces.begin(), view.traces.end());
  EXPECT_TRUE(traces.count("warp_3/state"));
  EXPECT_FALSE(traces.count("warp_4/state"));
  EXPECT_FALSE(traces.count("dispatcher/cycle"));
}

}  // namespace
}  // namespace mmsim::test
