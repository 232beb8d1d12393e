// Waveforms: GTKWave's own converter accepts them, timestamps increase, and the traced values
// are those of the run.
#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include "support/command.hpp"
#include "testbench/waveforms/vcd_compactor.hpp"
#include "testbench/waveforms/vcd_reader.hpp"
#include "testbench/waveforms/vcd_window.hpp"

namespace mmsim::test {
namespace {

const std::string kFig4 = std::string(MMSIM_SOURCE_DIR) + "/configs/dmm_fig4.yaml";
const std::string kFig7 = std::string(MMSIM_SOURCE_DIR) + "/configs/superwarp_fig7_rsdmm.yaml";
const std::string kTranspose = std::string(MMSIM_SOURCE_DIR) + "/configs/transpose_naive_dmm.yaml";

// The value (and whether it is defined) of every signal at every time of [from, to].
std::vector<std::string> values_between(const VcdFile& vcd, std::uint64_t from, std::uint64_t to) {
  std::vector<std::string> values;
  for (const std::string& name : vcd.signals())
    for (std::uint64_t t = from; t <= to; ++t)
      values.push_back(name + "@" + std::to_string(t) + "=" +
                       std::to_string(vcd.value_at(name, t).value_or(~0ull)) +
                       (vcd.defined_at(name, t).value_or(false) ? "" : "z"));
  return values;
}

TEST(Waveform, GtkwaveConvertsItWithoutComplaint) {
  TempDir dir;
  const auto vcd = dir / "fig4.vcd";
  ASSERT_EQ(mmsim("run " + kFig4 + " --vcd '" + vcd.string() + "'").status, 0);
  const CommandResult which = run_command("command -v vcd2lxt2");
  ASSERT_EQ(which.status, 0) << "vcd2lxt2 (Debian package gtkwave) is needed: run scripts/setup";
  const CommandResult convert =
      run_command("vcd2lxt2 '" + vcd.string() + "' '" + (dir / "fig4.lxt").string() + "'");
  EXPECT_EQ(convert.status, 0);
  EXPECT_EQ(convert.err, "");
}

TEST(Waveform, TracesTheDispatchesAndBanksOfTheRun) {
  TempDir dir;
  const auto vcd_path = dir / "fig4.vcd";
  ASSERT_EQ(mmsim("run " + kFig4 + " --vcd '" + vcd_path.string() + "'").status, 0);
  const VcdFile vcd = VcdFile::read(vcd_path);
  EXPECT_EQ(vcd.timescale(), "1 ns");
  EXPECT_TRUE(vcd.timestamps_strictly_increase());
  // W(0) is dispatched at 0 with 2 stages (m[1] and m[5] share bank 1), W(1) at 2 with 1.
  EXPECT_EQ(vcd.value_at("machine.dispatcher.dispatch_valid", 0), 1u);
  EXPECT_EQ(vcd.value_at("machine.dispatcher.dispatch_unit", 0), 0u);
  EXPECT_EQ(vcd.value_at("machine.dispatcher.dispatch_stages", 0), 2u);
  EXPECT_EQ(vcd.value_at("machine.dispatcher.dispatch_valid", 1), 0u);
  EXPECT_EQ(vcd.value_at("machine.dispatcher.dispatch_valid", 2), 1u);
  EXPECT_EQ(vcd.value_at("machine.dispatcher.dispatch_unit", 2), 1u);
  EXPECT_EQ(vcd.value_at("machine.dispatcher.dispatch_stages", 2), 1u);
  // Bank 1 serves m[1] then m[5]; with l = 3 they complete at 2 and 3.
  EXPECT_EQ(vcd.value_at("machine.memory.bank_1.entry_address", 0), 1u);
  EXPECT_EQ(vcd.value_at("machine.memory.bank_1.entry_address", 1), 5u);
  EXPECT_EQ(vcd.value_at("machine.memory.bank_1.entry_valid", 2), 1u);  // m[9] of W(1)
  EXPECT_EQ(vcd.value_at("machine.memory.bank_1.entry_address", 2), 9u);
  EXPECT_EQ(vcd.value_at("machine.memory.bank_1.completion_address", 2), 1u);
  EXPECT_EQ(vcd.value_at("machine.memory.bank_1.completion_address", 3), 5u);
  EXPECT_EQ(vcd.value_at("machine.memory.bank_1.completion_address", 4), 9u);
  EXPECT_EQ(vcd.value_at("machine.memory.bank_0.completion_valid", 3), 0u);
  // Pipeline: groups (unit, group) (0,0), (0,1), (1,0) enter at 0, 1, 2; occupancy 1, 2, 3, 2, 1.
  EXPECT_EQ(vcd.value_at("machine.memory.pipeline.entry_group", 1), 1u);
  EXPECT_EQ(vcd.value_at("machine.memory.pipeline.completion_unit", 4), 1u);
  for (const auto& [t, groups] :
       std::vector<std::pair<int, unsigned>>{{0, 1}, {1, 2}, {2, 3}, {3, 2}, {4, 1}})
    EXPECT_EQ(vcd.value_at("machine.memory.pipeline.occupancy", t), groups) << "time " << t;
  // Warp states: W(1) ready at 0 and 1, waiting from its dispatch at 2, done at 5.
  EXPECT_EQ(vcd.value_at("machine.warp_1.state", 1), 1u);
  EXPECT_EQ(vcd.value_at("machine.warp_1.state", 2), 2u);
  EXPECT_EQ(vcd.value_at("machine.warp_1.state", 5), 4u);
  EXPECT_EQ(vcd.value_at("machine.warp_1.pc", 5), 1u);
  EXPECT_EQ(vcd.timestamps().back(), 6u);  // the last step (5) is written when time moves on
}

TEST(Waveform, ShowsTheShiftTableAndTheBankLoadsOfTheRsdmm) {
  TempDir dir;
  const auto vcd_path = dir / "fig7.vcd";
  const std::string fig7 = std::string(MMSIM_SOURCE_DIR) + "/configs/superwarp_fig7_rsdmm.yaml";
  ASSERT_EQ(mmsim("run " + fig7 + " --vcd '" + vcd_path.string() + "'").status, 0);
  const VcdFile vcd = VcdFile::read(vcd_path);
  // The table r_j, one signal per row of memory, constant over the run.
  const std::vector<std::uint64_t> table = {0, 1, 1, 2, 2, 1};
  for (std::size_t j = 0; j < table.size(); ++j)
    EXPECT_EQ(vcd.value_at("machine.memory.random_shift_unit.r_" + std::to_string(j), 0), table[j]);
  EXPECT_FALSE(vcd.has("machine.memory.random_shift_unit.r_6"));
  // The packing unit's view of the one dispatch: 4 stages, 12 distinct requests, per bank
  // 3, 4, 3 and 2 of them.
  const std::string rpu = "machine.memory.request_packing_unit.";
  EXPECT_EQ(vcd.value_at(rpu + "packed_valid", 0), 1u);
  EXPECT_EQ(vcd.value_at(rpu + "packed_stages", 0), 4u);
  EXPECT_EQ(vcd.value_at(rpu + "packed_requests", 0), 12u);
  for (const auto& [bank, load] :
       std::vector<std::pair<int, unsigned>>{{0, 3}, {1, 4}, {2, 3}, {3, 2}})
    EXPECT_EQ(vcd.value_at(rpu + "load_" + std::to_string(bank), 0), load) << "bank " << bank;
  EXPECT_EQ(vcd.value_at(rpu + "packed_valid", 1), 0u);
  // First group: bank 1 gets m[4] (row 1, shift 1, column 0); bank 0 gets m[7] (row 1, column
  // 3, (3 + 1) mod 4 = 0) with the shift the unit applied.
  EXPECT_EQ(vcd.value_at("machine.memory.bank_1.entry_address", 0), 4u);
  EXPECT_EQ(vcd.value_at("machine.memory.random_shift_unit.entry_shift_1", 0), 1u);
  EXPECT_EQ(vcd.value_at("machine.memory.bank_0.entry_address", 0), 7u);
  EXPECT_EQ(vcd.value_at("machine.memory.random_shift_unit.entry_shift_0", 0), 1u);
  EXPECT_EQ(vcd.value_at("machine.dispatcher.dispatch_stages", 0), 4u);
  EXPECT_EQ(vcd.timestamps().back(), 11u);  // 10 time units; the last step is written at 11
}

TEST(Waveform, NoWaveformAskedMeansNoFile) {
  TempDir dir;
  const CommandResult r =
      run_command("cd '" + dir.path().string() + "' && '" MMSIM_BINARY "' run " + kFig4);
  EXPECT_EQ(r.status, 0);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

// The hierarchical machine: one scope per multiprocessor (its warps, its shared memory with its
// banks and packing unit, its barrier and dispatches) and one for the global memory.
TEST(Waveform, TheHierarchicalMachineHasAScopePerMultiprocessor) {
  TempDir dir;
  const auto vcd_path = dir / "hmm.vcd";
  const std::string example = std::string(MMSIM_SOURCE_DIR) + "/configs/hmm_design_example.yaml";
  ASSERT_EQ(mmsim("run " + example + " --vcd '" + vcd_path.string() + "'").status, 0);
  const VcdFile vcd = VcdFile::read(vcd_path);
  EXPECT_TRUE(vcd.timestamps_strictly_increase());
  // W(0) to global memory at 0 (one group), W(1) to its shared memory at 0 (four groups, all
  // in bank 0, completing at 0..3 with l_s = 1).
  EXPECT_EQ(vcd.value_at("machine.dispatcher.dispatch_valid", 0), 1u);
  EXPECT_EQ(vcd.value_at("machine.dispatcher.dispatch_unit", 0), 0u);
  EXPECT_EQ(vcd.value_at("machine.sm_1.dispatcher.dispatch_valid", 0), 1u);
  EXPECT_EQ(vcd.value_at("machine.sm_1.dispatcher.dispatch_stages", 0), 4u);
  EXPECT_EQ(vcd.value_at("machine.sm_0.dispatcher.dispatch_valid", 0), 0u);
  EXPECT_EQ(vcd.value_at("machine.sm_1.shared_memory.request_packing_unit.load_0", 0), 4u);
  for (const auto& [t, address] :
       std::vector<std::pair<int, unsigned>>{{0, 0}, {1, 4}, {2, 8}, {3, 12}})
    EXPECT_EQ(vcd.value_at("machine.sm_1.shared_memory.bank_0.completion_address", t), address);
  EXPECT_EQ(vcd.value_at("machine.global_memory.coalescer.packed_stages", 0), 1u);
  EXPECT_EQ(vcd.value_at("machine.global_memory.bank_2.completion_address", 4), 2u);
  // Which memory each warp waits for: W(1) on its shared memory, W(0) on global memory.
  EXPECT_EQ(vcd.value_at("machine.sm_1.warp_1.state", 1), 2u);
  EXPECT_EQ(vcd.value_at("machine.sm_1.warp_1.space", 1), 1u);
  EXPECT_EQ(vcd.value_at("machine.sm_0.warp_0.space", 1), 0u);
  EXPECT_EQ(vcd.value_at("machine.sm_0.warp_0.state", 4), 2u);
  EXPECT_EQ(vcd.value_at("machine.sm_0.warp_0.state", 5), 4u);
  EXPECT_TRUE(vcd.has("machine.sm_0.barrier.waiting"));
  EXPECT_TRUE(vcd.has("machine.barrier.grid_waiting"));
  EXPECT_FALSE(vcd.has("machine.warp_0.state"));
}

// An idle entry is high impedance, never address 0 or unit 0: W(0)'s dispatch at 0 has no group
// completing before 2, and the dispatcher is idle at 1.
TEST(Waveform, IdleValuesAreHighImpedance) {
  TempDir dir;
  const auto vcd_path = dir / "fig4.vcd";
  ASSERT_EQ(mmsim("run " + kFig4 + " --vcd " + shell_word(vcd_path)).status, 0);
  const VcdFile vcd = VcdFile::read(vcd_path);
  EXPECT_EQ(vcd.defined_at("machine.memory.bank_0.entry_address", 0), true);  // m[0]
  EXPECT_EQ(vcd.value_at("machine.memory.bank_0.entry_address", 0), 0u);
  EXPECT_EQ(vcd.defined_at("machine.memory.bank_0.entry_address", 1), false);
  EXPECT_EQ(vcd.defined_at("machine.memory.bank_0.completion_address", 0), false);
  EXPECT_EQ(vcd.defined_at("machine.dispatcher.dispatch_unit", 0), true);
  EXPECT_EQ(vcd.defined_at("machine.dispatcher.dispatch_unit", 1), false);
  EXPECT_EQ(vcd.defined_at("machine.memory.pipeline.completion_unit", 1), false);
  EXPECT_EQ(vcd.defined_at("machine.memory.request_packing_unit.load_1", 0), true);
  EXPECT_EQ(vcd.defined_at("machine.memory.request_packing_unit.load_1", 1), false);
  // Every valued signal of a bank, the pipeline and the dispatcher has its valid flag.
  for (const std::string& name : vcd.signals())
    if (name.ends_with("_address") || name.ends_with("_unit") || name.ends_with("_group")) {
      const std::string scope = name.substr(0, name.rfind('.'));
      const std::string kind =
          name.substr(scope.size() + 1, name.find('_', scope.size()) - scope.size() - 1);
      EXPECT_TRUE(vcd.has(scope + "." + kind + "_valid")) << name;
    }
}

// The UMM's coalescer shows the address groups each dispatch touches, one per stage group as
// it enters: W(0) reads rows 0, 1, 2 (m[0, 1], m[5], m[10]) at 0..2, W(1) rows 2 and 3 at 3, 4.
TEST(Waveform, TheCoalescerShowsTheAddressGroupsADispatchTouches) {
  TempDir dir;
  const auto vcd_path = dir / "umm.vcd";
  ASSERT_EQ(mmsim("run " + kFig4 +
                  " --set machine.model=umm --set expect.cycles=7 --set expect.stages=5 --vcd " +
                  shell_word(vcd_path))
                .status,
            0);
  const VcdFile vcd = VcdFile::read(vcd_path);
  const std::string coalescer = "machine.memory.coalescer.";
  EXPECT_EQ(vcd.value_at(coalescer + "packed_stages", 0), 3u);
  EXPECT_EQ(vcd.value_at(coalescer + "packed_stages", 3), 2u);
  const std::vector<std::uint64_t> rows = {0, 1, 2, 2, 3};
  for (std::uint64_t t = 0; t < rows.size(); ++t) {
    EXPECT_EQ(vcd.value_at(coalescer + "entry_valid", t), 1u) << "cycle " << t;
    EXPECT_EQ(vcd.value_at(coalescer + "entry_row", t), rows[t]) << "cycle " << t;
  }
  EXPECT_EQ(vcd.value_at(coalescer + "entry_valid", 5), 0u);
  EXPECT_EQ(vcd.defined_at(coalescer + "entry_row", 5), false);
}

// A window of cycles holds exactly the full waveform's values over those cycles, the values
// at its first cycle as the initial dump, and ends at to + 1.
TEST(Waveform, AWindowHoldsTheValuesOfThoseCycles) {
  TempDir dir;
  const std::string run = "run " + kTranspose + " --set program.params.n=4096 --set expect={}";
  ASSERT_EQ(mmsim(run + " --vcd " + shell_word(dir / "full.vcd")).status, 0);
  ASSERT_EQ(mmsim(run + " --vcd " + shell_word(dir / "window.vcd") + " --vcd-from 300 --vcd-to 340")
                .status,
            0);
  const VcdFile full = VcdFile::read(dir / "full.vcd");
  const VcdFile window = VcdFile::read(dir / "window.vcd");
  EXPECT_EQ(window.signals(), full.signals());
  EXPECT_TRUE(window.timestamps_strictly_increase());
  EXPECT_EQ(window.timestamps().front(), 300u);
  EXPECT_EQ(window.timestamps().back(), 341u);
  EXPECT_EQ(values_between(window, 300, 340), values_between(full, 300, 340));
  EXPECT_EQ(window.value_at("machine.dispatcher.cycle", 340), 340u);
}

// outputs.vcd as a mapping: the window and the scopes from the testbench; only the scopes
// chosen are traced (with or without the leading "machine.").
TEST(Waveform, ScopesChooseTheSignals) {
  TempDir dir;
  const auto testbench = dir.write(
      "tb.yaml",
      "machine: {model: dmm, width: 4, latency: 3, threads: 8}\n"
      "program: {name: trace, warps: [[{read: [0, 1, 5, 10]}], [{read: [8, 9, 14, 15]}]]}\n"
      "outputs:\n  vcd: {file: w.vcd, from: 1, to: 3, scopes: ['machine.warp_1', "
      "'memory.bank_[01]']}\n");
  const CommandResult r =
      run_command("cd " + shell_word(dir.path()) + " && '" MMSIM_BINARY "' run tb.yaml");
  ASSERT_EQ(r.status, 0) << r.err;
  const VcdFile vcd = VcdFile::read(dir / "w.vcd");
  std::vector<std::string> expected = {"machine.warp_1.pc", "machine.warp_1.state"};
  for (const std::string bank : {"bank_0", "bank_1"})
    for (const std::string signal :
         {"completion_address", "completion_valid", "entry_address", "entry_valid"})
      expected.push_back("machine.memory." + bank + "." + signal);
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(vcd.signals(), expected);
  EXPECT_EQ(vcd.timestamps().front(), 1u);
  EXPECT_EQ(vcd.value_at("machine.memory.bank_1.entry_address", 1), 5u);
  EXPECT_EQ(vcd.value_at("machine.warp_1.state", 2), 2u);
}

TEST(Waveform, AScopeThatMatchesNothingIsAnError) {
  TempDir dir;
  const CommandResult r = mmsim("run " + kFig4 + " --vcd " + shell_word(dir / "w.vcd") +
                                " --vcd-scope 'machine.warp_*' --vcd-scope 'machine.wrap_*'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--vcd-scope: scope 'machine.wrap_*' matches no signal"), std::string::npos)
      << r.err;
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(Waveform, WaveformOptionsNeedAWaveform) {
  const CommandResult r = mmsim("run " + kFig4 + " --vcd-scope 'machine.warp_0'");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--vcd-scope: there is no waveform to choose for: give --vcd FILE"),
            std::string::npos)
      << r.err;
}

TEST(Waveform, AWindowEndingBeforeItBeginsIsAnError) {
  TempDir dir;
  const CommandResult r =
      mmsim("run " + kFig4 + " --vcd " + shell_word(dir / "w.vcd") + " --vcd-from 4 --vcd-to 2");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--vcd-to: the waveform's window ends at cycle 2 before it begins (from 4)"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

// A waveform estimated past the limit is refused before the run, saying how to narrow it.
TEST(Waveform, ALargeWaveformIsRefusedBeforeTheRun) {
  TempDir dir;
  const std::string run =
      "run " + kTranspose + " --set program.params.n=2^16 --vcd " + shell_word(dir / "w.vcd");
  const CommandResult r = mmsim(run + " --vcd-limit 2^20");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--vcd: this waveform would take about"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("more than the limit of 1.0 MiB"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--vcd-from"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--vcd-scope"), std::string::npos) << r.err;
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
  // Narrowed to a window, it runs.
  EXPECT_EQ(mmsim(run + " --vcd-limit 2^20 --vcd-from 1000 --vcd-to 1100").status, 0);
}

// FST and LXT2 by the extension: GTKWave's converters turn them back into the same VCD.
TEST(Waveform, FstAndLxt2HoldTheSameValues) {
  TempDir dir;
  ASSERT_EQ(mmsim("run " + kFig7 + " --vcd " + shell_word(dir / "w.vcd")).status, 0);
  const VcdFile direct = VcdFile::read(dir / "w.vcd");
  for (const auto& [extension, back] :
       std::vector<std::pair<std::string, std::string>>{{"fst", "fst2vcd"}, {"lxt2", "lxt2vcd"}}) {
    const auto compact = dir / ("w." + extension);
    ASSERT_EQ(mmsim("run " + kFig7 + " --vcd " + shell_word(compact)).status, 0) << extension;
    EXPECT_NE(read_file(compact).substr(0, 5), "$date") << extension << " is not VCD text";
    const CommandResult r = run_command(back + " " + shell_word(compact));
    ASSERT_EQ(r.status, 0) << back;
    const VcdFile round_trip = VcdFile::read(dir.write("back-" + extension + ".vcd", r.out));
    EXPECT_EQ(round_trip.signals(), direct.signals()) << extension;
    EXPECT_EQ(values_between(round_trip, 0, 10), values_between(direct, 0, 10)) << extension;
  }
}

// The save file and its filters lie beside the waveform, not beside a device.
TEST(Waveform, ASaveFileLiesBesideTheWaveform) {
  TempDir dir;
  ASSERT_EQ(mmsim("run " + kFig7 + " --vcd " + shell_word(dir / "w.vcd")).status, 0);
  EXPECT_EQ(dir.names(), (std::vector<std::string>{"w.gtkw", "w.gtkw.space.txt", "w.gtkw.state.txt",
                                                   "w.gtkw.unit.txt", "w.vcd"}));
  EXPECT_EQ(read_file(dir / "w.gtkw.state.txt"), "0 idle\n1 ready\n2 waiting\n3 barrier\n4 done\n");
  EXPECT_EQ(read_file(dir / "w.gtkw.unit.txt"), "0 super_warp_0\n");
  TempDir devices;
  const auto null = devices / "null";
  ASSERT_EQ(::mknod(null.c_str(), S_IFCHR | 0666, ::makedev(1, 3)), 0);
  ASSERT_EQ(mmsim("run " + kFig7 + " --vcd " + shell_word(null)).status, 0);
  EXPECT_EQ(devices.names(), std::vector<std::string>{"null"});
}

// A window [from, to] keeps to - from + 1 time units of a run that lasts past `to`, fewer of one
// that ends inside it, none of one that ends before it begins.
TEST(Waveform, AWindowKeepsTheTimeUnitsBetweenItsEnds) {
  const TimeWindow window{.from = 3, .to = 6};
  EXPECT_EQ(window.kept(100), 4u);
  EXPECT_EQ(window.kept(6), 4u);
  EXPECT_EQ(window.kept(4), 2u);
  EXPECT_EQ(window.kept(3), 1u);
  EXPECT_EQ(window.kept(2), 0u);
  EXPECT_FALSE(window.whole());
  const TimeWindow whole;
  EXPECT_TRUE(whole.whole());
  EXPECT_EQ(whole.kept(0), 1u);
  EXPECT_EQ(whole.kept(99), 100u);
}

// The window filter reads SystemC's stream in chunks of any size: lines cut anywhere give the
// same waveform.
TEST(Waveform, TheWindowIsTheSameForAnyChunks) {
  TempDir dir;
  ASSERT_EQ(mmsim("run " + kFig7 + " --vcd " + shell_word(dir / "w.vcd")).status, 0);
  const std::string vcd = read_file(dir / "w.vcd");
  std::string whole;
  VcdWindow one({.from = 3, .to = 6});
  one.feed(vcd, whole);
  one.finish(whole);
  for (const std::size_t chunk : {1, 7, 64}) {
    std::string pieces;
    VcdWindow many({.from = 3, .to = 6});
    for (std::size_t i = 0; i < vcd.size(); i += chunk)
      many.feed(std::string_view(vcd).substr(i, chunk), pieces);
    many.finish(pieces);
    EXPECT_EQ(pieces, whole) << "chunks of " << chunk;
  }
  const VcdFile window = VcdFile::read(dir.write("window.vcd", whole));
  EXPECT_EQ(window.timestamps().front(), 3u);
  EXPECT_EQ(window.timestamps().back(), 7u);
  EXPECT_EQ(window.value_at("machine.memory.pipeline.entry_group", 3), 3u);
  EXPECT_EQ(window.value_at("machine.memory.pipeline.completion_group", 6), 0u);
}

// A window that begins after the run: the values at its end, dumped at `from`.
TEST(Waveform, AWindowAfterTheRunHoldsItsLastValues) {
  TempDir dir;
  ASSERT_EQ(mmsim("run " + kFig7 + " --vcd " + shell_word(dir / "w.vcd") + " --vcd-from 50").status,
            0);
  const VcdFile vcd = VcdFile::read(dir / "w.vcd");
  EXPECT_EQ(vcd.timestamps(), std::vector<std::uint64_t>{50});
  EXPECT_EQ(vcd.value_at("machine.super_warp_0.state", 50), 4u);  // done
}

TEST(Waveform, AMissingConverterIsRefusedBeforeTheRun) {
  TempDir dir;
  const CommandResult r =
      run_command("PATH=" + shell_word(dir.path()) + " '" MMSIM_BINARY "' run " + kFig7 +
                  " --vcd " + shell_word(dir / "w.fst"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--vcd: writing FST needs vcd2fst (Debian package gtkwave"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(Waveform, AMalformedWaveformMappingIsAnError) {
  TempDir dir;
  const std::string machine =
      "machine: {model: dmm, width: 4, latency: 3, threads: 8}\n"
      "program: {name: trace, warps: [[{read: [0]}]]}\n";
  for (const auto& [outputs, message] : std::vector<std::pair<std::string, std::string>>{
           {"outputs: {vcd: {file: w.vcd, form: 3}}",
            "tb.yaml:3:30: unknown key 'form' in outputs.vcd (did you mean 'from'?)"},
           {"outputs: {vcd: {file: w.vcd, scopes: warp_0}}",
            "tb.yaml:3:38: outputs.vcd.scopes: expected a list of scope patterns"},
           {"outputs: {vcd: {from: 3}}", "tb.yaml:3:16: outputs.vcd: missing required key 'file'"},
           {"outputs: {vcd: {file: w.vcd, to: -1}}", "tb.yaml:3:34: outputs.vcd.to"}}) {
    dir.write("tb.yaml", machine + outputs + "\n");
    const CommandResult r =
        run_command("cd " + shell_word(dir.path()) + " && '" MMSIM_BINARY "' run tb.yaml");
    EXPECT_EQ(r.status, 2) << outputs;
    EXPECT_NE(r.err.find(message), std::string::npos) << outputs << "\n" << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "w.vcd"));
  }
}

// An idle vector is written "bz id", whatever the chunks SystemC's stream comes in.
TEST(Waveform, IdleValuesAreWrittenAsOneZ) {
  const std::string vcd = "$var wire 8 ! a [7:0] $end\n#1\nbZZZZZZZZ !\nb101 \"\nbZ1 #\n1$\nbZZZ %";
  const std::string expected = "$var wire 8 ! a [7:0] $end\n#1\nbz !\nb101 \"\nbZ1 #\n1$\nbz %";
  for (const std::size_t chunk : {1, 2, 3, 5, 100}) {
    std::string out;
    VcdCompactor compactor;
    for (std::size_t i = 0; i < vcd.size(); i += chunk)
      compactor.feed(std::string_view(vcd).substr(i, chunk), out);
    compactor.finish(out);
    EXPECT_EQ(out, expected) << "chunks of " << chunk;
  }
  TempDir dir;
  ASSERT_EQ(mmsim("run " + kFig4 + " --vcd " + shell_word(dir / "w.vcd")).status, 0);
  const std::string written = read_file(dir / "w.vcd");
  EXPECT_EQ(written.find("\nbZ"), std::string::npos);
  EXPECT_NE(written.find("\nbz "), std::string::npos);
}

}  // namespace
}  // namespace mmsim::test
