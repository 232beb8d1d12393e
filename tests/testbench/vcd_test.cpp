// Waveforms: GTKWave's own converter accepts them, timestamps increase, and the traced values
// are those of the run.
#include <gtest/gtest.h>

#include "support/command.hpp"
#include "testbench/vcd_reader.hpp"

namespace mmsim::test {
namespace {

const std::string kFig4 = std::string(MMSIM_SOURCE_DIR) + "/configs/dmm_fig4.yaml";

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

}  // namespace
}  // namespace mmsim::test
