// What a user sees of banks with ports (machine.ports, docs/semantics.md §10): a request slot
// per port of each bank in waveforms (and the coalescer's address group per port), the stage
// counts of the profile, the bounds a report keeps (docs/programs.md), the testbench as it ran,
// `mmsim list`, and bad values refused at their line.
#include <gtest/gtest.h>

#include <sstream>

#include "support/command.hpp"
#include "support/testbench_text.hpp"
#include "testbench/waveforms/vcd_reader.hpp"

namespace mmsim::test {
namespace {

const std::string kConfigs = std::string(MMSIM_SOURCE_DIR) + "/configs/";

VcdFile waveform_of(const TempDir& dir, const std::string& arguments) {
  const auto vcd = dir / "run.vcd";
  const CommandResult r = mmsim("run " + arguments + " --vcd " + shell_word(vcd));
  EXPECT_EQ(r.status, 0) << r.err;
  return VcdFile::read(vcd);
}

// The signals of the save file beside a waveform, in the order GTKWave shows them.
std::vector<std::string> saved_signals(const TempDir& dir) {
  std::vector<std::string> names;
  std::istringstream lines(read_file(dir / "run.gtkw"));
  for (std::string line; std::getline(lines, line);)
    if (line.starts_with("+{")) names.push_back(line.substr(2, line.find('}') - 2));
  return names;
}

// Fig. 4 on the DMM with two ports: W(0)'s group 0 sends m[1] and m[5] to bank 1, through its
// ports 0 and 1 (entering at 0, completing at 2); W(1)'s m[9] enters bank 1 at 1.
TEST(PortsOutputs, AWaveformShowsARequestSlotPerPortOfEachBank) {
  TempDir dir;
  const VcdFile vcd = waveform_of(dir, kConfigs + "dmm_fig4_ports.yaml");
  const std::string bank = "machine.memory.bank_1.";
  EXPECT_EQ(vcd.value_at(bank + "entry_address", 0), 1u);
  EXPECT_EQ(vcd.value_at(bank + "port_1.entry_valid", 0), 1u);
  EXPECT_EQ(vcd.value_at(bank + "port_1.entry_address", 0), 5u);
  EXPECT_EQ(vcd.value_at(bank + "completion_address", 2), 1u);
  EXPECT_EQ(vcd.value_at(bank + "port_1.completion_address", 2), 5u);
  EXPECT_EQ(vcd.value_at(bank + "entry_address", 1), 9u);
  EXPECT_EQ(vcd.value_at(bank + "port_1.entry_valid", 1), 0u);
  EXPECT_EQ(vcd.defined_at(bank + "port_1.entry_address", 1), false);  // z while idle
  EXPECT_EQ(vcd.value_at("machine.memory.bank_0.port_1.entry_valid", 0), 0u);
  // The packing unit sends bank 1 two requests, in one stage.
  EXPECT_EQ(vcd.value_at("machine.memory.request_packing_unit.load_1", 0), 2u);
  EXPECT_EQ(vcd.value_at("machine.memory.request_packing_unit.packed_stages", 0), 1u);
  EXPECT_EQ(vcd.value_at("machine.dispatcher.dispatch_stages", 0), 1u);
  EXPECT_EQ(vcd.value_at("machine.dispatcher.dispatch_unit", 1), 1u);
  // The GTKWave view lists each bank's second port right after the bank's own signals.
  const std::vector<std::string> shown = saved_signals(dir);
  const auto at = [&](const std::string& name) {
    return std::find(shown.begin(), shown.end(), name) - shown.begin();
  };
  EXPECT_EQ(at("memory/bank_1/port_1/entry_valid"), at("memory/bank_1/completion_address") + 1);
  EXPECT_EQ(at("memory/bank_2/entry_valid"), at("memory/bank_1/port_1/completion_address") + 1);
  EXPECT_EQ(std::count_if(shown.begin(), shown.end(),
                          [](const std::string& s) { return s.find("/port_") != s.npos; }),
            4 * 4);  // 4 banks, 4 signals of port 1 each
}

// One port per bank: the waveform of before, without a port scope.
TEST(PortsOutputs, BanksOfOnePortTraceNoPortSignals) {
  TempDir dir;
  const VcdFile vcd = waveform_of(dir, kConfigs + "dmm_fig4.yaml");
  for (const std::string& name : vcd.signals()) EXPECT_EQ(name.find("port_"), name.npos) << name;
}

// Fig. 4 on the UMM with two ports: the stage group entering at 0 carries A[0] (port 0) and A[1]
// (port 1), the one at 1 A[2] alone, W(1)'s at 2 A[2] and A[3]; each bank serves the request of
// its address group through that group's port.
TEST(PortsOutputs, TheCoalescerShowsTheAddressGroupOfEachPort) {
  TempDir dir;
  const VcdFile vcd = waveform_of(dir, kConfigs + "umm_fig4_ports.yaml");
  const std::string coalescer = "machine.memory.coalescer.";
  EXPECT_EQ(vcd.value_at(coalescer + "entry_row", 0), 0u);
  EXPECT_EQ(vcd.value_at(coalescer + "port_1.entry_row", 0), 1u);
  EXPECT_EQ(vcd.value_at(coalescer + "entry_row", 1), 2u);
  EXPECT_EQ(vcd.value_at(coalescer + "port_1.entry_valid", 1), 0u);
  EXPECT_EQ(vcd.value_at(coalescer + "entry_row", 2), 2u);
  EXPECT_EQ(vcd.value_at(coalescer + "port_1.entry_row", 2), 3u);
  EXPECT_EQ(vcd.value_at("machine.memory.bank_1.entry_address", 0), 1u);         // A[0]
  EXPECT_EQ(vcd.value_at("machine.memory.bank_1.port_1.entry_address", 0), 5u);  // A[1]
  EXPECT_EQ(vcd.value_at("machine.memory.bank_0.port_1.entry_valid", 0), 0u);
  EXPECT_EQ(vcd.value_at("machine.memory.bank_2.entry_address", 1), 10u);
  EXPECT_EQ(vcd.value_at("machine.memory.bank_0.entry_address", 2), 8u);
  EXPECT_EQ(vcd.value_at("machine.memory.bank_3.port_1.entry_address", 2), 15u);
  EXPECT_EQ(vcd.value_at("machine.memory.bank_3.port_1.completion_address", 4), 15u);
}

// The profile counts each site's stage groups through the ports: one per warp of Fig. 4.
TEST(PortsOutputs, TheProfileCountsTheStagesThroughThePorts) {
  RunOptions options;
  options.outputs["profile"].on = true;
  const RunOutcome o = run_testbench(load_testbench(kConfigs + "dmm_fig4_ports.yaml"), options);
  ASSERT_TRUE(o.profile.has_value());
  std::uint64_t sites = 0;
  for (const ProfileRow& row : o.profile->rows) {
    if (row.memory == kNoMemory) continue;
    ++sites;
    EXPECT_EQ(row.counts.stages, 1u);
    EXPECT_EQ(row.counts.max_stages, 1u);
  }
  EXPECT_EQ(sites, 2u);
}

std::vector<std::string> keys_of(const RunOutcome& o) {
  std::vector<std::string> keys;
  for (const Bound& b : o.bounds) keys.push_back(b.key);
  return keys;
}

// Stride access on the DMM with two ports: every bound is shown, counting the ports, and the
// exact figures are the run's.
TEST(PortsOutputs, StrideAccessKeepsItsBoundsWithThePortsInThem) {
  const RunOutcome o = run_testbench(load_testbench(kConfigs + "stride_dmm_ports.yaml"));
  EXPECT_EQ(keys_of(o), (std::vector<std::string>{"time_lower", "time_order", "time_exact",
                                                  "congestion_exact"}));
  // Single warps: a stage holds at most w requests, as with one port: max(n/w + l - 1, l*n/p).
  EXPECT_EQ(find_bound(o, "time_lower")->formula, "max(n/w + l - 1, l*n/p)");
  EXPECT_EQ(find_bound(o, "time_lower")->value, 65536.0 / 32 + 15);
  EXPECT_EQ(find_bound(o, "time_order")->formula, "n*ceil(G/k)/w + n*l/p");
  EXPECT_EQ(find_bound(o, "time_order")->value, 65536.0 * 16 / 32 + 65536.0 * 16 / 1024);
  EXPECT_EQ(find_bound(o, "time_exact")->value, static_cast<double>(o.result.cycles()));
  EXPECT_EQ(find_bound(o, "congestion_exact")->value,
            static_cast<double>(o.result.counters.stages));
}

// The naive transpose on the SDMM (s = 4) with two ports: a stage holds at most 2w requests
// (T/(kw)); its order, its exact congestion and Lemma 1 with it are the papers' for one port and
// are left out.
TEST(PortsOutputs, BoundsStatedForOnePortAreLeftOut) {
  const std::string file = kConfigs + "transpose_naive_sdmm.yaml";
  const RunOutcome one = run_testbench(load_testbench(file));
  EXPECT_EQ(keys_of(one), (std::vector<std::string>{"time_lower", "time_order", "congestion_exact",
                                                    "time_upper"}));
  const RunOutcome two = run_testbench(load_testbench(file, {"machine.ports=2", "expect={}"}));
  EXPECT_EQ(keys_of(two), (std::vector<std::string>{"time_lower"}));
  const Bound& lower = *find_bound(two, "time_lower");
  EXPECT_EQ(lower.formula, "max(2n/(kw) + l - 1, l*2n/p)");
  const double n = 65536, w = 16, l = 16, p = 1024;
  EXPECT_EQ(lower.value, std::max(2 * n / (2 * w) + l - 1, l * 2 * n / p));
  EXPECT_LE(lower.value, static_cast<double>(two.result.cycles()));
  // Four ports take a whole super warp of four warps in a stage: T/(sw).
  const RunOutcome four = run_testbench(load_testbench(file, {"machine.ports=4", "expect={}"}));
  EXPECT_EQ(find_bound(four, "time_lower")->formula, "max(2n/(sw) + l - 1, l*2n/p)");
}

// The hierarchical sum with shared memories of two ports: its barrier counts and the global
// memory's stages (of one port) stay; its time bounds and the shared memories' stages go.
TEST(PortsOutputs, TheHierarchicalMachineKeepsTheBoundsOfItsOnePortMemory) {
  const std::string file = kConfigs + "hmm_sum.yaml";
  const RunOutcome one = run_testbench(load_testbench(file));
  const RunOutcome two =
      run_testbench(load_testbench(file, {"machine.shared.ports=2", "expect={}"}));
  std::vector<std::string> kept;
  for (const Bound& b : one.bounds)
    if (b.measure == Bound::Measure::syncthreads || b.measure == Bound::Measure::grid_syncs ||
        b.measure == Bound::Measure::global_stages)
      kept.push_back(b.key);
  EXPECT_FALSE(kept.empty());
  EXPECT_EQ(keys_of(two), kept);
  EXPECT_LT(keys_of(two).size(), keys_of(one).size());
}

// The testbench as it ran names the ports where they are not 1 (and only there, so that the
// testbenches from before ports ran as they were written).
TEST(PortsOutputs, TheTestbenchAsItRanNamesThePorts) {
  const RunOutcome flat = run_testbench(load_testbench(kConfigs + "dmm_fig4_ports.yaml"));
  EXPECT_EQ(flat.resolved.at("machine").at("ports"), 2);
  const RunOutcome plain = run_testbench(load_testbench(kConfigs + "dmm_fig4.yaml"));
  EXPECT_FALSE(plain.resolved.at("machine").contains("ports"));
  const RunOutcome hmm = run_testbench(
      load_testbench(kConfigs + "hmm_design_example.yaml", {"machine.shared.ports=3"}));
  EXPECT_EQ(hmm.resolved.at("machine").at("shared").at("ports"), 3);
  EXPECT_FALSE(hmm.resolved.at("machine").contains("ports"));
}

TEST(PortsOutputs, ListNamesTheKeyAndWhatItDoesToEveryModel) {
  const CommandResult r = mmsim("list models");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("banks of k ports (machine.ports, default 1; hmm: of its global memory, "
                       "machine.shared.ports of its shared memories):\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  dmm      ceil(c/k) stages, c the most requests to one bank\n"),
            std::string::npos);
  EXPECT_NE(r.out.find("  umm      k address groups per stage\n"), std::string::npos);
  EXPECT_NE(r.out.find("  pram     no banks: one stage, whatever k\n"), std::string::npos);
}

TEST(PortsOutputs, ABankWithoutPortsIsRefusedAtItsLine) {
  TempDir dir;
  const auto file = dir.write("t.yaml", R"(machine:
  model: dmm
  width: 4
  latency: 3
  ports: 0
program: {name: contiguous_access, params: {n: 64}}
outputs: {stats: out.json}
)");
  const CommandResult r = mmsim("run " + shell_word(file));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(file.string() + ":5:10: machine.ports: expected an integer from 1 to 65536, "
                                       "got '0'"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out.json"));
  const CommandResult shared =
      mmsim("run " + kConfigs + "hmm_design_example.yaml --set machine.shared.ports=0");
  EXPECT_EQ(shared.status, 2);
  EXPECT_NE(shared.err.find("machine.shared.ports: expected an integer from 1 to 65536"),
            std::string::npos)
      << shared.err;
}

}  // namespace
}  // namespace mmsim::test
