// The gpu_trace program: CTAs on the machine with exact cycle counts worked out by hand from the
// timing rules (docs/gpu_traces.md, "CTAs on the machine"), the word split, shared-memory
// windows, CTA placement over SMs, kernel selection, the cross-check against the built-in naive
// transpose, and bad input from the command line.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <thread>

#include "support/command.hpp"
#include "support/statistics_json.hpp"
#include "support/testbench_text.hpp"
#include "sw/programs/catalogue.hpp"
#include "sw/programs/gpu_trace.hpp"
#include "sw/support/available_cores.hpp"

namespace mmsim::test {
namespace {

const std::string kSamples = std::string(MMSIM_SOURCE_DIR) + "/examples/traces/";

// Accel-Sim instruction lines: a coalesced 32-bit read of row r (32 words) of global memory, a
// coalesced write of shared words [32 s, 32 s + 32), a barrier.
std::string ldg(unsigned row) {
  char line[96];
  std::snprintf(line, sizeof line, "0010 ffffffff 1 R2 LDG.E 1 R2 4 1 0x%llx 4 ",
                0x7f8ea2000000ull + 128ull * row);
  return line;
}
std::string sts(unsigned row) {
  char line[96];
  std::snprintf(line, sizeof line, "0020 ffffffff 0 STS 2 R3 R2 4 1 0x%llx 4 ",
                0x7f8ec4000000ull + 128ull * row);
  return line;
}
const std::string kBar = "0030 ffffffff 0 BAR.SYNC.DEFER_BLOCKING 0 0 ";

struct Block {
  std::string id;                               // "x,y,z"
  std::vector<std::vector<std::string>> warps;  // per warp, its instruction lines
};

std::string traceg(const std::string& grid, const std::string& block,
                   const std::vector<Block>& blocks) {
  std::string out = "-kernel name = _Z1kPf\n-kernel id = 1\n-grid dim = (" + grid +
                    ")\n-block dim = (" + block +
                    ")\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n";
  for (const Block& b : blocks) {
    out += "\n#BEGIN_TB\n\nthread block = " + b.id + "\n";
    for (std::size_t q = 0; q < b.warps.size(); ++q) {
      out +=
          "\nwarp = " + std::to_string(q) + "\ninsts = " + std::to_string(b.warps[q].size()) + "\n";
      for (const std::string& line : b.warps[q]) out += line + "\n";
    }
    out += "\n#END_TB\n";
  }
  return out;
}

// Runs `trace` (written to a file) on `machine` (a YAML flow map's inside).
RunOutcome run_trace(const TempDir& dir, const std::string& trace, const std::string& machine,
                     const std::string& params = "") {
  const auto file = dir.write("k.traceg", trace);
  return run_yaml("machine: {" + machine + "}\nprogram: {name: gpu_trace, params: {file: '" +
                  file.string() + "', format: accelsim" + params + "}}\n");
}

TEST(GpuTrace, OneWarpCtasFollowEachOtherOnTheirWarpWithoutWaiting) {
  // 3 CTAs of one warp on 2 warps (DMM, l = 5, round robin): CTA 0 on W(0), CTA 1 on W(1), CTA 2
  // on W(0) after CTA 0. W(0) reads at 0 (completes 4), W(1) at 1 (completes 5); W(0) can send
  // CTA 2's read at 5, holding the turn till then: it completes at 9: 10 time units. (Were the
  // rounds kept together by a barrier, CTA 2 would start at 6, when W(1) ends: 11.)
  TempDir dir;
  const RunOutcome o =
      run_trace(dir,
                traceg("3,1,1", "32,1,1",
                       {{"0,0,0", {{ldg(0)}}}, {"1,0,0", {{ldg(1)}}}, {"2,0,0", {{ldg(2)}}}}),
                "model: dmm, width: 32, latency: 5, threads: 64");
  EXPECT_EQ(o.result.cycles(), 10u);
  EXPECT_EQ(o.result.counters.dispatches, 3u);
  EXPECT_EQ(o.result.syncthreads, 0u);
}

TEST(GpuTrace, AMultiWarpCtaHoldsItsWarpsUntilAllHaveEnded) {
  // CTAs of 2 warps on a machine of 2 warps (one CTA at a time), l = 5, round robin.
  // CTA 0: W(0) reads, BAR, reads; W(1) reads, BAR. CTA 1: W(0) reads; W(1) reads twice.
  // W(0) reads at 0 (completes 4) and reaches the BAR at 5; W(1) reads at 1 (completes 5) and
  // reaches it at 6: it opens at 6. W(0) reads at 6 (completes 10); W(1) has ended CTA 0 and
  // waits for its round's end, which W(0) reaches at 11: CTA 1 starts at 11. The turn is W(1)'s:
  // it reads at 11 (completes 15), W(0) at 12, W(1) again at 16 (completes 20): 21 time units,
  // 2 barrier steps (the BAR and the CTA switch).
  TempDir dir;
  const RunOutcome o = run_trace(dir,
                                 traceg("2,1,1", "64,1,1",
                                        {{"0,0,0", {{ldg(0), kBar, ldg(1)}, {ldg(2), kBar}}},
                                         {"1,0,0", {{ldg(3)}, {ldg(4), ldg(5)}}}}),
                                 "model: dmm, width: 32, latency: 5, threads: 64");
  EXPECT_EQ(o.result.cycles(), 21u);
  EXPECT_EQ(o.result.counters.dispatches, 6u);
  EXPECT_EQ(o.result.syncthreads, 2u);
  EXPECT_TRUE(o.warnings.empty()) << o.warnings.front();
}

TEST(GpuTrace, CtasSharingABlockRunInRounds) {
  // CTAs of 2 warps, 3 of them, on 4 warps (2 CTAs at a time), l = 5: CTA 0 on W(0), W(1)
  // (W(0) reads twice), CTA 1 on W(2), W(3), CTA 2 on W(0), W(1) in round 1. Reads at 0, 1, 2,
  // 3 (completing 4 .. 7); W(0)'s second at 5 (completes 9). W(2), W(3) have no round 1 and
  // end; W(1) waits from 6, W(0) arrives at 10: round 1 starts at 10, W(1) reads then (its
  // turn), W(0) at 11 (completes 15): 16 time units, one barrier step.
  TempDir dir;
  const RunOutcome o = run_trace(dir,
                                 traceg("3,1,1", "64,1,1",
                                        {{"0,0,0", {{ldg(0), ldg(1)}, {ldg(2)}}},
                                         {"1,0,0", {{ldg(3)}, {ldg(4)}}},
                                         {"2,0,0", {{ldg(5)}, {ldg(6)}}}}),
                                 "model: dmm, width: 32, latency: 5, threads: 128");
  EXPECT_EQ(o.result.cycles(), 16u);
  EXPECT_EQ(o.result.counters.dispatches, 7u);
  EXPECT_EQ(o.result.syncthreads, 1u);
}

TEST(GpuTrace, EachCtaOfABlockHasItsOwnSharedWindow) {
  // 4 one-warp CTAs on 2 SMs of 2 warps, round robin: SM 0 runs CTAs 0 and 2 side by side, SM 1
  // CTAs 1 and 3. Every CTA writes shared words 0..31 of its own window: windows of 32 words, at
  // 0 and 32 of each SM's shared memory (64 words), so no two warps write one word: no race.
  // Each SM: W writes at 0 (l_s = 2: completes 1), the other at 1 (completes 2): 3 time units.
  TempDir dir;
  const RunOutcome o = run_trace(
      dir,
      traceg("4,1,1", "32,1,1",
             {{"0,0,0", {{sts(0)}}},
              {"1,0,0", {{sts(0)}}},
              {"2,0,0", {{sts(0)}}},
              {"3,0,0", {{sts(0)}}}}),
      "model: hmm, multiprocessors: 2, width: 32, latency: 5, threads: 128, shared: {latency: 2}, "
      "race_check: true");
  EXPECT_EQ(o.machine.shared.words, 64u);
  EXPECT_EQ(o.race_count, 0u);
  EXPECT_EQ(o.result.cycles(), 3u);
  ASSERT_EQ(o.result.memories.size(), 3u);
  EXPECT_EQ(o.result.memories[1].counters.dispatches, 2u);
  EXPECT_EQ(o.result.memories[2].counters.dispatches, 2u);
}

TEST(GpuTrace, PlacesCtasOnSmsInRecordedOrderOrByTheirId) {
  // Recorded in the order of ids 1, 0, 2, 3; the CTA of id 1 writes its shared memory three
  // times, the others once. Round robin puts the recorded 1st and 3rd (ids 1 and 2) on SM 0:
  // 4 dispatches there, 2 on SM 1; by id, ids 0 and 2 go to SM 0: 2 and 4.
  TempDir dir;
  const std::string trace = traceg("4,1,1", "32,1,1",
                                   {{"1,0,0", {{sts(0), sts(1), sts(2)}}},
                                    {"0,0,0", {{sts(0)}}},
                                    {"2,0,0", {{sts(0)}}},
                                    {"3,0,0", {{sts(0)}}}});
  const std::string machine = "model: hmm, multiprocessors: 2, width: 32, latency: 5, threads: 64";
  const RunOutcome rr = run_trace(dir, trace, machine);
  EXPECT_EQ(rr.result.memories[1].counters.dispatches, 4u);
  EXPECT_EQ(rr.result.memories[2].counters.dispatches, 2u);
  const RunOutcome by_id = run_trace(dir, trace, machine, ", sm: cta_id");
  EXPECT_EQ(by_id.result.memories[1].counters.dispatches, 2u);
  EXPECT_EQ(by_id.result.memories[2].counters.dispatches, 4u);
}

TEST(GpuTrace, SplitsWideAccessesAndOtherWidthsIntoInstructions) {
  TempDir dir;
  // A 64-bit load of consecutive elements: lanes 0-15 (words 0..31), then lanes 16-31, one
  // stage each on the DMM (l = 2): at 0 (completes 1) and 2 (completes 3): 4 time units.
  const std::string wide = "0010 ffffffff 1 R2 LDG.E.64 1 R2 8 1 0x7f8ea2000000 8 ";
  const RunOutcome o64 = run_trace(dir, traceg("1,1,1", "32,1,1", {{"0,0,0", {{wide}}}}),
                                   "model: dmm, width: 32, latency: 2, threads: 32");
  EXPECT_EQ(o64.result.counters.dispatches, 2u);
  EXPECT_EQ(o64.result.counters.stages, 2u);
  EXPECT_EQ(o64.result.cycles(), 4u);
  // A 32-bit read of 32 words on w = 16: lanes 0-15, then 16-31: the same figures.
  const RunOutcome o16 = run_trace(dir, traceg("1,1,1", "32,1,1", {{"0,0,0", {{ldg(0)}}}}),
                                   "model: dmm, width: 16, latency: 2, threads: 16");
  EXPECT_EQ(o16.result.counters.dispatches, 2u);
  EXPECT_EQ(o16.result.cycles(), 4u);
  // word_bytes 8: two 4-byte lanes per word, 16 distinct words in one row of 32 banks: one
  // stage for the 32 lanes' requests.
  const RunOutcome o8 =
      run_trace(dir, traceg("1,1,1", "32,1,1", {{"0,0,0", {{ldg(0)}}}}),
                "model: dmm, width: 32, latency: 2, threads: 32", ", word_bytes: 8");
  EXPECT_EQ(o8.result.counters.dispatches, 1u);
  EXPECT_EQ(o8.result.counters.stages, 1u);
  EXPECT_EQ(o8.machine.memory_words, 32u);  // 256 bytes of 8-byte words, in one unit of 32
}

TEST(GpuTrace, InactiveLanesSendNothing) {
  TempDir dir;
  // 4 active lanes of a column access (stride 128 bytes: one bank): 4 stages; no active lane:
  // no dispatch at all.
  const std::string column = "0010 0000000f 1 R2 LDG.E 1 R2 4 1 0x7f8ea2000000 128 ";
  const std::string none = "0020 00000000 1 R2 LDG.E 1 R2 4 1 0x0 0 ";
  const RunOutcome o = run_trace(dir, traceg("1,1,1", "32,1,1", {{"0,0,0", {{column, none}}}}),
                                 "model: dmm, width: 32, latency: 2, threads: 32");
  EXPECT_EQ(o.result.counters.dispatches, 1u);
  EXPECT_EQ(o.result.counters.stages, 4u);
  EXPECT_EQ(o.result.counters.requests, 4u);
}

TEST(GpuTrace, TheNaiveTransposesTraceTakesTheBuiltInTransposesCycles) {
  // The sample is transpose_naive's element order with CTAs of one warp, a at one allocation and
  // b at another: relocated, a is m[0..n) and b m[n..2n), as the program lays them out.
  for (const std::string model : {"dmm", "umm"})
    for (const unsigned threads : {128u, 1024u})
      for (const unsigned latency : {1u, 8u, 400u}) {
        const std::string machine = "machine: {model: " + model +
                                    ", width: 32, latency: " + std::to_string(latency) +
                                    ", threads: " + std::to_string(threads) + "}\n";
        const RunOutcome built_in =
            run_yaml(machine + "program: {name: transpose_naive, params: {n: 1024}}\n");
        for (const auto& [file, format] : std::vector<std::pair<std::string, std::string>>{
                 {"transpose_naive.nvbit.txt", "nvbit"}, {"transpose_naive.traceg", "accelsim"}}) {
          const RunOutcome traced =
              run_yaml(machine + "program: {name: gpu_trace, params: {file: '" + kSamples + file +
                       "', format: " + format + "}}\n");
          const std::string where = model + " p=" + std::to_string(threads) +
                                    " l=" + std::to_string(latency) + " " + format;
          EXPECT_EQ(traced.result.cycles(), built_in.result.cycles()) << where;
          EXPECT_EQ(traced.result.counters.dispatches, built_in.result.counters.dispatches)
              << where;
          EXPECT_EQ(traced.result.counters.stages, built_in.result.counters.stages) << where;
          EXPECT_EQ(traced.machine.memory_words, 2048u) << where;
        }
      }
}

// The cells of a report table's row whose first cell is `first`.
std::vector<ProgramTable::Cell> row(const RunOutcome& o, const std::string& table,
                                    const ProgramTable::Cell& first) {
  for (const ProgramTable& t : o.tables)
    if (t.key == table)
      for (const auto& r : t.rows)
        if (r.front() == first) return r;
  return {};
}

TEST(GpuTrace, SelectsKernelsAndReportsEveryKernelsTotals) {
  // The three kernels of the samples (scripts/gpu_trace_samples): the naive transpose of 32 x 32
  // (32 CTAs of one warp, a read and a write each), the tiled transpose of 64 x 64 (4 CTAs of 8
  // warps: 4 reads, 4 shared writes, a barrier, 4 shared reads, 4 writes each) and the
  // reduction of 2048 numbers (8 CTAs of 8 warps; per CTA 8 reads and shared writes, 12
  // warp-steps of 3 shared accesses, one shared read and one write: 54; a barrier per warp
  // before the steps and after each of the 8).
  for (const auto& [file, format] : std::vector<std::pair<std::string, std::string>>{
           {"three_kernels.nvbit.txt.xz", "nvbit"}, {"three_kernels/kernelslist.g", "accelsim"}}) {
    const std::string yaml =
        "machine: {model: hmm, multiprocessors: 2, width: 32, latency: 50, threads: 512}\n"
        "program: {name: gpu_trace, params: {file: '" +
        kSamples + file + "', format: " + format;
    const RunOutcome all = run_yaml(yaml + "}}\n");
    EXPECT_EQ(all.result.grid_syncs, 2u) << format;  // between the three kernels
    const bool accelsim = format == "accelsim";
    using Row = std::vector<ProgramTable::Cell>;
    const auto totals = [](const Row& r) {
      return Row(r.begin() + 4, r.begin() + 11);  // CTAs .. lanes
    };
    const std::uint64_t tiled_bars = accelsim ? 32 : 0, reduce_bars = accelsim ? 576 : 0;
    EXPECT_EQ(totals(row(all, "trace_kernels", std::uint64_t{1})),
              (Row{32u, accelsim ? 448u : 64u, 64u, 0u, 0u, accelsim ? 384u : 0u, 2048u}));
    EXPECT_EQ(totals(row(all, "trace_kernels", std::uint64_t{2}))[2], Row::value_type(256u));
    EXPECT_EQ(totals(row(all, "trace_kernels", std::uint64_t{2}))[3], Row::value_type(256u));
    EXPECT_EQ(totals(row(all, "trace_kernels", std::uint64_t{2}))[4], Row::value_type(tiled_bars));
    const Row reduce = totals(row(all, "trace_kernels", std::uint64_t{3}));
    EXPECT_EQ(reduce[0], Row::value_type(8u));
    EXPECT_EQ(reduce[2], Row::value_type(72u));
    EXPECT_EQ(reduce[3], Row::value_type(360u));
    EXPECT_EQ(reduce[4], Row::value_type(reduce_bars));
    EXPECT_EQ(reduce[6], Row::value_type(10232u));
    // One kernel, by number or by name: the others are listed, not run.
    const RunOutcome second = run_yaml(yaml + ", kernel: 2}}\n");
    EXPECT_EQ(second.result.grid_syncs, 0u);
    EXPECT_EQ(second.result.counters.dispatches, 512u) << format;
    const RunOutcome named =
        run_yaml(yaml + ", kernel: " + (accelsim ? "_Z9reductionPKfPf" : "reduction") + "}}\n");
    EXPECT_EQ(named.result.counters.dispatches, 72u + 360u) << format;
    EXPECT_EQ(row(named, "trace_kernels", std::uint64_t{1}).back(), ProgramTable::Cell("no"));
  }
}

TEST(GpuTrace, DropsSharedAccessesOnAFlatMachineOrRunsThemOnItsMemory) {
  const std::string yaml =
      "machine: {model: dmm, width: 32, latency: 4, threads: 256}\n"
      "program: {name: gpu_trace, params: {file: '" +
      kSamples + "transpose_tiled.traceg.xz', format: accelsim";
  const RunOutcome dropped = run_yaml(yaml + "}}\n");
  EXPECT_EQ(dropped.result.counters.dispatches, 256u);
  EXPECT_EQ(row(dropped, "trace_not_run", std::string("LDS, STS, ATOMS, ...")).at(1),
            ProgramTable::Cell(std::uint64_t{256}));
  // shared: global: each CTA's window after the 8192 words of a and b: 33 words x 32 rows,
  // rounded to 1056 (a multiple of 32 words), one CTA at a time.
  const RunOutcome kept = run_yaml(yaml + ", shared: global}}\n");
  EXPECT_EQ(kept.result.counters.dispatches, 512u);
  EXPECT_EQ(kept.machine.memory_words, 8192u + 1056u);
}

TEST(GpuTrace, KnowsWhereEachIssuedInstructionComesFrom) {
  // What a profile by site needs: the site (kernel, PC, opcode) of the instruction each warp
  // issues, and its place in the recording.
  ProgramArgs args;
  args.params.set("file", std::string(kSamples + "transpose_naive.traceg"));
  args.params.set("format", std::string("accelsim"));
  for (const ParamSpec& spec : find_program("gpu_trace")->params)
    if (spec.default_value && !args.params.has(spec.name))
      args.params.set(spec.name, spec.type == ParamType::integer
                                     ? ParamValue(std::int64_t{std::stoll(*spec.default_value)})
                                     : ParamValue(*spec.default_value));
  auto program = find_program("gpu_trace")->make(args);
  auto& trace = dynamic_cast<GpuTraceProgram&>(*program);
  MachineConfig machine;
  machine.model = "dmm";
  machine.width = 32;
  machine.latency = 2;
  machine.threads = 32;
  machine.memory_words = 2048;
  trace.configure(machine);
  Simulation simulation(resolve_machine(machine));
  simulation.run(trace);
  // The only warp ran CTA 31's store last: PC 0xc0, the 13th instruction of its warp, at line
  // 16 + 31 * 21 + 18 of the file.
  const TraceOrigin& last = trace.issuing(0);
  const TraceSite& site = trace.sites()[last.site];
  EXPECT_EQ(site.opcode, "STG.E");
  EXPECT_EQ(site.pc, 0xc0u);
  EXPECT_EQ(last.cta, 31u);
  EXPECT_EQ(last.instruction, 12u);
  EXPECT_EQ(trace.where(last),
            "kernel 1 (_Z15transpose_naivePKfPf), CTA (31,0,0), warp 0, "
            "instruction 12 (" +
                kSamples + "transpose_naive.traceg:" + std::to_string(last.line) + ")");
  std::ifstream file(kSamples + "transpose_naive.traceg");
  std::string line;
  for (std::uint64_t i = 0; i < last.line; ++i) std::getline(file, line);
  EXPECT_EQ(line.substr(0, 15), "00c0 ffffffff 0");
}

// ---- bad input, from the command line ----------------------------------------------------------

std::string run_yaml_text(const std::string& trace_file, const std::string& format,
                          const std::string& extra = "") {
  return "machine: {model: dmm, width: 32, latency: 4, threads: 64}\n"
         "program: {name: gpu_trace, params: {file: '" +
         trace_file + "', format: " + format + extra + "}}\n";
}

TEST(GpuTraceCommand, RefusesBadTracesWithExitTwoLocatedAndWritesNothing) {
  TempDir dir;
  std::ifstream in(kSamples + "transpose_naive.nvbit.txt", std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  // A line of 31 addresses: the width is another's.
  std::string short_line = text;
  const std::size_t at = short_line.find(" 0x", short_line.find("grid_launch_id 0 - CTA 16"));
  short_line.erase(at, 19);
  const auto cases = std::vector<std::pair<std::string, std::string>>{
      {short_line, "expected 32 lane addresses, got 31: a trace for another warp width"},
      {text + "MEMTRACE: CTX 0x1 - grid_launch_id 0 - CTA x\n", "expected the CTA's 'x,y,z'"},
  };
  for (const auto& [trace, message] : cases) {
    const auto file = dir.write("bad.txt", trace);
    const auto tb = dir.write("tb.yaml", run_yaml_text(file.string(), "nvbit"));
    const CommandResult r =
        mmsim("run " + shell_word(tb) + " --stats " + shell_word(dir / "s.json"));
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.err.rfind("mmsim: " + file.string() + ":", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "s.json"));
  }
  // A compressed trace cut short.
  std::ifstream xz(kSamples + "three_kernels.nvbit.txt.xz", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(xz)), {});
  const auto cut = dir.write("cut.txt.xz", bytes.substr(0, bytes.size() - 100));
  const auto tb = dir.write("tb.yaml", run_yaml_text(cut.string(), "nvbit"));
  const CommandResult r = mmsim("run " + shell_word(tb) + " --stats " + shell_word(dir / "s.json"));
  EXPECT_EQ(r.status, 2);
  // An error about the file as a whole is located at the parameter that names it.
  EXPECT_EQ(r.err, "mmsim: " + tb.string() + ":2:43: program.params.file: " + cut.string() +
                       ": mem_trace file: the xz stream ends before its end (a truncated file?)\n");
  EXPECT_FALSE(std::filesystem::exists(dir / "s.json"));
}

TEST(GpuTraceCommand, RefusesBadParametersAtTheirKey) {
  TempDir dir;
  const std::string naive = kSamples + "transpose_naive.traceg";
  const auto error = [&](const std::string& yaml) {
    const CommandResult r = mmsim("run " + shell_word(dir.write("tb.yaml", yaml)));
    EXPECT_EQ(r.status, 2) << r.out;
    return r.err.substr(r.err.find("tb.yaml") + 7);
  };
  EXPECT_NE(error(run_yaml_text(naive, "nvbits"))
                .find(": format: expected nvbit or accelsim, got 'nvbits'\n"),
            std::string::npos);
  EXPECT_NE(error(run_yaml_text(naive, "accelsim", ", word_bytes: 3"))
                .find(": word_bytes: expected a power of two from 1 to 4096, got 3\n"),
            std::string::npos);
  EXPECT_NE(error(run_yaml_text(naive, "accelsim", ", kernel: 7"))
                .find("kernel: no kernel of " + naive +
                      " is '7'; it holds kernel 1 "
                      "(_Z15transpose_naivePKfPf)"),
            std::string::npos);
  EXPECT_NE(error(run_yaml_text(naive, "nvbit")).find("no mem_trace line"), std::string::npos);
  // CTAs of 8 warps on a machine of 2.
  EXPECT_NE(error(run_yaml_text(kSamples + "transpose_tiled.traceg.xz", "accelsim"))
                .find("kernel 1 (_Z15transpose_tiledPKfPf) runs CTAs of 8 warps, and a CTA's "
                      "warps run side by side: the machine has 2 (p = 64); threads must be at "
                      "least 256"),
            std::string::npos);
}

// Starts `mmsim run TESTBENCH --stats STATS` with TMPDIR at `tmp`, in the background.
pid_t start_run(const std::filesystem::path& testbench, const std::filesystem::path& stats,
                const std::filesystem::path& tmp) {
  const pid_t child = fork();
  if (child == 0) {
    setenv("TMPDIR", tmp.c_str(), 1);
    execl(MMSIM_BINARY, "mmsim", "run", testbench.c_str(), "--stats", stats.c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  return child;
}

TEST(GpuTraceCommand, LeavesNoTemporaryFileBehindEvenWhenInterrupted) {
  TempDir dir;
  const auto tmp = dir / "tmp";
  std::filesystem::create_directory(tmp);
  const auto tb =
      dir.write("tb.yaml", run_yaml_text(kSamples + "transpose_naive.nvbit.txt", "nvbit"));
  const CommandResult with_tmp =
      run_command("TMPDIR=" + shell_word(tmp) + " '" + MMSIM_BINARY + "' run " + shell_word(tb));
  EXPECT_EQ(with_tmp.status, 0) << with_tmp.err;
  EXPECT_TRUE(TempDir::names_of(tmp).empty());
  // Interrupted while it reads the trace (from a pipe that it waits on): nothing is left in
  // TMPDIR, then or after, and no statistics are written.
  const auto pipe = dir / "trace.fifo";
  ASSERT_EQ(mkfifo(pipe.c_str(), 0600), 0);
  const auto tb_pipe = dir.write("pipe.yaml", run_yaml_text(pipe.string(), "nvbit"));
  const pid_t child = start_run(tb_pipe, dir / "s.json", tmp);
  {
    std::ofstream writer(pipe);
    std::ifstream sample(kSamples + "transpose_naive.nvbit.txt");
    std::string line;
    for (int i = 0; i < 30 && std::getline(sample, line); ++i) writer << line << "\n";
    writer.flush();
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_TRUE(TempDir::names_of(tmp).empty());  // nameless while in use
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, WNOHANG), 0) << "mmsim ended before the signal";
    kill(child, SIGINT);
    waitpid(child, &status, 0);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << status;
  }
  EXPECT_TRUE(TempDir::names_of(tmp).empty());
  EXPECT_FALSE(std::filesystem::exists(dir / "s.json"));
  // No temporary folder: refused before any work, naming TMPDIR.
  const CommandResult no_tmp = run_command("TMPDIR=" + shell_word(dir / "none") + " '" +
                                           MMSIM_BINARY + "' run " + shell_word(tb));
  EXPECT_EQ(no_tmp.status, 2);
  EXPECT_NE(no_tmp.err.find("(a temporary file in " + (dir / "none").string() +
                            ", the folder TMPDIR names): No such file or directory"),
            std::string::npos)
      << no_tmp.err;
}

// ---- reading beside recording: one thread or two -------------------------------------------

// `scripts/gpu_trace_samples --synthetic N FORMAT` into `file`.
std::filesystem::path synthetic_trace(const TempDir& dir, const std::string& name,
                                      unsigned instructions, const std::string& format) {
  const auto file = dir / name;
  const std::string command = std::string(MMSIM_SOURCE_DIR) + "/scripts/gpu_trace_samples " +
                              "--synthetic " + std::to_string(instructions) + " " + format + " " +
                              shell_word(file);
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  return file;
}

// The lines of `file`, and `lines` written into `dir`/`name`.
std::vector<std::string> lines_of(const std::filesystem::path& file) {
  std::vector<std::string> lines;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}
std::filesystem::path write_lines(const TempDir& dir, const std::string& name,
                                  const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return dir.write(name, text);
}

// mmsim with `arguments`, as it runs on this machine (reading a trace ahead on a second thread
// where two processors may run it), and confined to one processor as taskset does (reading and
// recording in turn, on one thread).
std::pair<CommandResult, CommandResult> on_two_and_one(const std::string& arguments) {
  return {mmsim(arguments),
          run_command("taskset --cpu-list 0 '" + std::string(MMSIM_BINARY) + "' " + arguments)};
}

// The report without the lines that give wall-clock times.
std::string without_times(const std::string& report) {
  std::string out;
  std::size_t from = 0;
  while (from < report.size()) {
    const std::size_t end = std::min(report.find('\n', from), report.size());
    const std::string_view line(report.data() + from, end - from);
    if (line.find("wall time") == std::string_view::npos &&
        line.find("_seconds") == std::string_view::npos)
      out.append(line).push_back('\n');
    from = end + 1;
  }
  return out;
}

// Both formats, plain and compressed, one kernel and several, many batches of lines and one:
// the report, the statistics and the profile are the same whether the trace was read beside the
// recording or in turn with it.
TEST(GpuTraceCommand, GivesTheSameOutputsReadOnOneThreadOrTwo) {
  TempDir dir;
  const auto nvbit = synthetic_trace(dir, "n.txt", 6000, "nvbit");
  const auto accelsim = synthetic_trace(dir, "a.traceg", 12000, "accelsim");
  ASSERT_EQ(std::system(("zstd -q -1 -k " + shell_word(nvbit) + " && gzip -1 -k " +
                         shell_word(accelsim) + " && xz -0 -k " + shell_word(accelsim))
                            .c_str()),
            0);
  const std::string flat = "machine: {model: dmm, width: 32, latency: 8, threads: 1024}\n";
  const std::string hmm =
      "machine: {model: hmm, multiprocessors: 2, width: 32, latency: 20, threads: 1024, "
      "shared: {latency: 2}}\n";
  const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
      {flat, nvbit.string(), "nvbit"},
      {flat, nvbit.string() + ".zst", "nvbit"},
      {flat, accelsim.string(), "accelsim"},
      {flat, accelsim.string() + ".gz", "accelsim"},
      {flat, accelsim.string() + ".xz", "accelsim"},
      {hmm, kSamples + "three_kernels.nvbit.txt.xz", "nvbit"},
      {hmm, kSamples + "three_kernels/kernelslist.g", "accelsim"},
  };
  for (const auto& [machine, file, format] : cases) {
    const auto tb = dir.write("tb.yaml", machine + "program: {name: gpu_trace, params: {file: '" +
                                             file + "', format: " + format + "}}\n");
    const auto stats = [&] {
      return without_wall_clock(nlohmann::json::parse(read_file(dir / "s.json"))).dump(1);
    };
    const CommandResult two =
        mmsim("run " + shell_word(tb) + " --profile --stats " + shell_word(dir / "s.json"));
    ASSERT_EQ(two.status, 0) << file << "\n" << two.err;
    const std::string two_stats = stats();
    const CommandResult one =
        run_command("taskset --cpu-list 0 '" + std::string(MMSIM_BINARY) + "' run " +
                    shell_word(tb) + " --profile --stats " + shell_word(dir / "s.json"));
    ASSERT_EQ(one.status, 0) << file << "\n" << one.err;
    EXPECT_NE(two.out.find("profile per opcode"), std::string::npos) << two.out;
    EXPECT_EQ(without_times(two.out), without_times(one.out)) << file;
    EXPECT_EQ(two_stats, stats()) << file;
  }
}

// An error is located at the same line and column whether the trace was read beside the
// recording or in turn with it, whichever stage finds it; and where the recording stage finds
// one on a line before another that the reading stage has found already, it is the first's.
TEST(GpuTraceCommand, LocatesErrorsAlikeOnOneThreadOrTwo) {
  TempDir dir;
  // The index of the n-th line (from 0) that starts with `start`.
  const auto nth = [](const std::vector<std::string>& lines, const std::string& start, unsigned n) {
    for (std::size_t i = 0; i < lines.size(); ++i)
      if (lines[i].starts_with(start) && n-- == 0) return i;
    ADD_FAILURE() << "no line " << start;
    return std::size_t{0};
  };
  const auto write = [&dir](const std::string& name, const std::vector<std::string>& lines) {
    return write_lines(dir, name, lines);
  };
  struct Case {
    std::filesystem::path file;
    std::string format;
    std::size_t line;  // 1-based
    std::size_t column;
    std::string message;
  };
  std::vector<Case> cases;
  const auto accelsim = lines_of(synthetic_trace(dir, "a.traceg", 8000, "accelsim"));
  {  // A malformed base address, 6000 instructions in (the reading stage's error).
    auto lines = accelsim;
    const std::size_t at = nth(lines, "0070", 3000);
    const std::size_t column = lines[at].find("0x") + 1;
    lines[at].insert(column + 1, "q");
    cases.push_back({write("bad_base.traceg", lines), "accelsim", at + 1, column,
                     "expected the base address (hexadecimal), got '0xq7f8ea"});
  }
  {  // A warp beyond its block, then a malformed line a few lines on, in the same batch.
    auto lines = accelsim;
    const std::size_t at = nth(lines, "warp = 2", 5);
    lines[at] = "warp = 9";
    lines[at + 5].insert(0, "x");
    cases.push_back({write("bad_warp.traceg", lines), "accelsim", at + 1, 0,
                     "warp 9: a block of 128x1x1 threads has 4 warps"});
  }
  {  // A warp one instruction short (located at its insts line), then a malformed line.
    auto lines = accelsim;
    const std::size_t insts = nth(lines, "insts = 250", 9);
    lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(insts) + 1);
    lines[insts + 260].insert(0, "x");
    cases.push_back({write("short_warp.traceg", lines), "accelsim", insts + 1, 0,
                     "insts = 250, but warp 1 has 249 instruction lines"});
  }
  const auto nvbit = lines_of(synthetic_trace(dir, "n.txt", 4000, "nvbit"));
  {  // A lane's address with a letter that is no digit, 3000 lines in.
    auto lines = nvbit;
    const std::size_t at = nth(lines, "MEMTRACE: CTX", 3000);
    const std::size_t column = lines[at].find(" 0x", lines[at].find("G.E - ")) + 2;
    lines[at][column + 10] = 'Z';
    cases.push_back({write("bad_address.txt", lines), "nvbit", at + 1, column,
                     "expected a lane's address (hexadecimal), got '0x00007f8eaZ"});
  }
  {  // A second LAUNCH line (the recording stage's error), then a malformed line.
    auto lines = nvbit;
    const std::size_t at = nth(lines, "MEMTRACE: CTX", 2500);
    lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(at), lines[0]);
    lines[at + 2].insert(lines[at + 2].find("CTA ") + 4, "x");
    cases.push_back({write("two_launches.txt", lines), "nvbit", at + 1, 0,
                     "a second LAUNCH line for grid launch id 0"});
  }
  for (const Case& c : cases) {
    const auto tb = dir.write("tb.yaml", run_yaml_text(c.file.string(), c.format));
    const auto [two, one] = on_two_and_one("run " + shell_word(tb));
    const std::string where = c.file.string() + ":" + std::to_string(c.line) +
                              (c.column > 0 ? ":" + std::to_string(c.column) : "") + ": ";
    EXPECT_EQ(two.status, 2) << two.err;
    EXPECT_EQ(two.err.rfind("mmsim: " + where + c.message, 0), 0u)
        << two.err << "expected: " << where << c.message;
    EXPECT_EQ(one.status, 2);
    EXPECT_EQ(one.err, two.err);
  }
}

// Interrupted while a trace is read on the second thread (a zstd file of a kernel's LAUNCH line
// and the same frame of its accesses 400 times: 280 MB of mem_trace lines to read, a few kB on
// disk), mmsim ends by the signal at once, with no statistics and nothing left in TMPDIR: the
// signal is the main thread's, whose handler removes what is unfinished.
TEST(GpuTraceCommand, AnInterruptWhileATraceIsReadAheadLeavesNothing) {
  if (available_cores() < 2) GTEST_SKIP() << "one processor: no thread reads ahead";
  TempDir dir;
  const auto tmp = dir / "tmp";
  std::filesystem::create_directory(tmp);
  const auto lines = lines_of(synthetic_trace(dir, "kernel.txt", 1000, "nvbit"));
  ASSERT_NE(lines.front().find("LAUNCH"), std::string::npos);
  const auto zstd = [&dir](const std::string& name, const std::vector<std::string>& part) {
    const auto file = write_lines(dir, name, part);
    EXPECT_EQ(std::system(("zstd -q -1 " + shell_word(file)).c_str()), 0);
    return read_file(file.string() + ".zst");
  };
  std::string frames = zstd("launch.txt", {lines.front()});
  const std::string accesses = zstd("accesses.txt", {lines.begin() + 1, lines.end()});
  for (int i = 0; i < 400; ++i) frames += accesses;
  const auto trace = dir.write("long.txt.zst", frames);
  const auto tb = dir.write("tb.yaml", run_yaml_text(trace.string(), "nvbit"));
  const pid_t child = start_run(tb, dir / "s.json", tmp);
  // Once its second thread reads.
  const auto task = "/proc/" + std::to_string(child) + "/task";
  bool reading_ahead = false;
  for (int i = 0; i < 5000 && !reading_ahead; ++i) {
    std::error_code error;
    std::size_t threads = 0;
    for (auto it = std::filesystem::directory_iterator(task, error);
         !error && it != std::filesystem::directory_iterator(); it.increment(error))
      ++threads;
    reading_ahead = threads >= 2;
    if (!reading_ahead) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  EXPECT_TRUE(reading_ahead);
  kill(child, SIGINT);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << status;
  EXPECT_TRUE(TempDir::names_of(tmp).empty());
  EXPECT_FALSE(std::filesystem::exists(dir / "s.json"));
}

TEST(GpuTraceSamples, TheScriptWritesTheSamplesByteForByte) {
  TempDir dir;
  ASSERT_EQ(std::system((std::string(MMSIM_SOURCE_DIR) + "/scripts/gpu_trace_samples " +
                         shell_word(dir.path()))
                            .c_str()),
            0);
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir.path())) {
    if (!entry.is_regular_file()) continue;
    const auto relative = std::filesystem::relative(entry.path(), dir.path());
    EXPECT_EQ(read_file(entry.path()), read_file(kSamples + relative.string())) << relative;
  }
}

}  // namespace
}  // namespace mmsim::test
