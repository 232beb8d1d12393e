// mmsim sweep: cases x grid x zip with derived values and conditions, run on worker processes,
// every run appended to a results file, typed tables, bad sweeps refused before anything runs.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <fcntl.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "support/command.hpp"

extern char** environ;

namespace mmsim::test {
namespace {

// p = 16 threads on w = 4 banks with l = 3: contiguous access of n words takes
// (n/p - 1)*max(4, 3) + 4 + 2 cycles.
const std::string kBase =
    "machine: {model: dmm, width: 4, latency: 3, threads: 16}\n"
    "program: {name: contiguous_access, params: {n: 64}}\n";

std::vector<nlohmann::json> read_lines(const std::filesystem::path& file) {
  std::vector<nlohmann::json> records;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) records.push_back(nlohmann::json::parse(line));
  return records;
}

TEST(Sweep, RunsEveryCaseForEveryCombination) {
  TempDir dir;
  dir.write("base.yaml", kBase);
  const auto sweep = dir.write("s.yaml",
                               "name: tiny\ntestbench: base.yaml\n"
                               "cases:\n  - {label: contiguous}\n"
                               "  - {label: stride, set: {program.name: stride_access}}\n"
                               "grid:\n  machine.model: [dmm, umm]\n  program.params.n: [2^6, 60]\n"
                               "columns: [cycles, stages, verified, bounds.time_lower.ratio]\n");
  const CommandResult r =
      mmsim("sweep " + shell_word(sweep) + " --results " + shell_word(dir / "r.jsonl") +
            " --json " + shell_word(dir / "s.json") + " --csv " + shell_word(dir / "s.csv"));
  // n = 60 is not a multiple of p = 16: those runs fail, and so does the sweep.
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("mmsim: sweep tiny: 8 runs, 8 to run on "), std::string::npos) << r.err;
  const auto table = nlohmann::json::parse(read_file(dir / "s.json"));
  const auto& rows = table["runs"];
  ASSERT_EQ(rows.size(), 8u);
  EXPECT_EQ(rows[0]["case"], "contiguous");
  EXPECT_EQ(rows[0]["values"]["machine.model"], "dmm");
  EXPECT_EQ(rows[0]["values"]["program.params.n"], 64);  // 2^6, as a number
  EXPECT_EQ(rows[0]["columns"]["cycles"], 4 * 4 + 2);    // (n/p - 1)*max(4, 3) + 4 + 2
  EXPECT_EQ(rows[0]["columns"]["verified"], true);
  EXPECT_EQ(rows[1]["values"]["program.params.n"], 60);
  // The record keeps where the error is: the run's own --set (its command).
  EXPECT_EQ(rows[1]["error"], "--set program.params.n=60: program.params.n: n = 60 must be a "
                              "multiple of p = 16 (each thread accesses n/p cells)");
  EXPECT_TRUE(rows[1]["columns"]["cycles"].is_null());
  EXPECT_EQ(rows[4]["case"], "stride");
  EXPECT_EQ(rows[4]["columns"]["stages"], 16 * 4);  // n/p = 4 = w: every warp in one bank
  // Lower bound max(n/w + l - 1, l*n/p) = 18 for n = 64: stride takes 66 cycles.
  EXPECT_DOUBLE_EQ(rows[4]["columns"]["bounds.time_lower.ratio"].get<double>(), 66.0 / 18.0);
  EXPECT_EQ(table["command"], "mmsim sweep " + sweep.string() + " --csv " +
                                  (dir / "s.csv").string() + " --json " +
                                  (dir / "s.json").string());
  EXPECT_NE(r.out.find("| contiguous | dmm | 2^6 | 18 | 16 | yes | 1 |"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("| stride | dmm | 2^6 | 66 | 64 | yes | 3.67 |"), std::string::npos)
      << r.out;
  // CSV: numbers as numbers, the error in a column of its own.
  const std::string csv = read_file(dir / "s.csv");
  EXPECT_NE(csv.find("case,machine.model,program.params.n,cycles,stages,verified,"
                     "bounds.time_lower.ratio,error\n"
                     "contiguous,dmm,64,18,16,true,1.0,\n"
                     "contiguous,dmm,60,,,,,--set program.params.n=60: program.params.n: n = 60 "
                     "must be a multiple of p = 16"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("stride,dmm,64,66,64,true,3.6666666666666665,\n"), std::string::npos) << csv;
  // The results: one record per run, in completion order, each with the command that
  // reproduces it.
  const auto records = read_lines(dir / "r.jsonl");
  ASSERT_EQ(records.size(), 8u);
  for (const auto& record : records) {
    if (record["index"] != 4) continue;
    EXPECT_EQ(record["case"], "stride");
    EXPECT_EQ(record["stats"]["cycles"], 66);
    EXPECT_EQ(record["verified"], true);
    EXPECT_GT(record["seconds"].get<double>(), 0);
    const std::string command = record["command"];
    EXPECT_EQ(command, "mmsim run " + (dir / "base.yaml").string() +
                           " --set program.name=stride_access --set machine.model=dmm --set "
                           "program.params.n=2^6");
    const CommandResult again = mmsim(command.substr(std::string("mmsim ").size()) + " --stats " +
                                      shell_word(dir / "again.json"));
    EXPECT_EQ(again.status, 0) << again.err;
    EXPECT_EQ(nlohmann::json::parse(read_file(dir / "again.json"))["cycles"], 66);
  }
}

TEST(Sweep, ZipDerivedValuesAndConditions) {
  TempDir dir;
  dir.write("base.yaml",
            "machine: {model: rsdmm, width: 4, latency: 2, threads: 16}\n"
            "program: {name: contiguous_access, params: {n: 256}}\n");
  // Theorem 8's super warp s = log2 w, p a multiple of s*w, n a multiple of p.
  const auto sweep = dir.write("s.yaml",
                               "testbench: base.yaml\n"
                               "cases:\n"
                               "  - {label: RSDMM}\n"
                               "  - {label: DMM, set: {machine.model: dmm}, derived: "
                               "{machine.super_warp: 1}}\n"
                               "grid: {machine.latency: [1, 5]}\n"
                               "zip:\n"
                               "  machine.width: [4, 8, 16]\n"
                               "  program.params.n: [2^8, 2^9, 2^12]\n"
                               "derived:\n"
                               "  machine.threads: round_up(30, super_warp*width)\n"
                               "  machine.super_warp: log2(width)\n"
                               "  program.params.op: \"1\"\n"
                               "where: [n % threads == 0, latency * width < 80]\n"
                               "columns: [cycles, threads, super_warp]\n");
  const CommandResult r =
      mmsim("sweep " + shell_word(sweep) + " --results " + shell_word(dir / "r.jsonl") +
            " --json " + shell_word(dir / "s.json") + " --set program.params.op=write");
  EXPECT_EQ(r.status, 0) << r.err;
  // RSDMM, w = 8: s = 3, p = round_up(30, 24) = 48 does not divide 512: left out. w = 16,
  // l = 5 fails latency * width < 80, for both cases.
  EXPECT_NE(r.err.find("8 runs (of 12 combinations; `where` left out 4)"), std::string::npos)
      << r.err;
  const auto rows = nlohmann::json::parse(read_file(dir / "s.json"))["runs"];
  ASSERT_EQ(rows.size(), 8u);
  const std::vector<std::tuple<int, int, int, int, int>> expected = {
      // latency, width, n, threads, super_warp
      {1, 4, 256, 32, 2}, {1, 16, 4096, 64, 4}, {5, 4, 256, 32, 2},  // RSDMM
      {1, 4, 256, 32, 1}, {1, 8, 512, 32, 1},   {1, 16, 4096, 32, 1},
      {5, 4, 256, 32, 1}, {5, 8, 512, 32, 1}};  // DMM: its own s = 1
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& [l, w, n, p, s] = expected[i];
    EXPECT_EQ(rows[i]["values"]["machine.latency"], l);
    EXPECT_EQ(rows[i]["values"]["machine.width"], w);
    EXPECT_EQ(rows[i]["values"]["program.params.n"], n);
    EXPECT_EQ(rows[i]["values"]["machine.threads"], p);
    EXPECT_EQ(rows[i]["values"]["machine.super_warp"], s);
    // --set wins over the derived value (and is what the table shows).
    EXPECT_EQ(rows[i]["values"]["program.params.op"], "write");
    EXPECT_EQ(rows[i]["columns"]["threads"], p);
    EXPECT_EQ(rows[i]["columns"]["super_warp"], s);
  }
  // Contiguous access on the DMM with U = p/w warps, one stage each:
  // (n/p - 1)*max(U, l) + U + l - 1.
  EXPECT_EQ(rows[3]["columns"]["cycles"], 7 * 8 + 8 + 0);  // w = 4, l = 1: U = 8
  EXPECT_EQ(rows[6]["columns"]["cycles"], 7 * 8 + 8 + 4);  // w = 4, l = 5
  EXPECT_NE(r.out.find("| case | machine.latency | machine.width | program.params.n | "
                       "machine.threads | machine.super_warp | program.params.op | cycles |"),
            std::string::npos)
      << r.out;
}

TEST(Sweep, TheBaseExpectationsAreDroppedUnlessTheSweepSetsThem) {
  TempDir dir;
  dir.write("base.yaml", kBase + "expect: {cycles: 18}\n");
  const auto sweep = dir.write("s.yaml",
                               "testbench: base.yaml\n"
                               "cases:\n  - {label: free}\n"
                               "grid: {program.params.n: [64, 128]}\n");
  const CommandResult free =
      mmsim("sweep " + shell_word(sweep) + " --results " + shell_word(dir / "r.jsonl") + " --csv " +
            shell_word(dir / "t.csv"));
  EXPECT_EQ(free.status, 0) << free.err;
  EXPECT_NE(read_file(dir / "t.csv").find("free,128,34,32,0,true,\n"), std::string::npos)
      << read_file(dir / "t.csv");
  // Setting expect.* keeps the base's: n = 128 takes 34 cycles, not 18.
  const CommandResult kept =
      mmsim("sweep " + shell_word(sweep) + " --results " + shell_word(dir / "kept.jsonl") +
            " --csv " + shell_word(dir / "t.csv") + " --set expect.stages=16");
  EXPECT_EQ(kept.status, 1) << kept.err;
  EXPECT_NE(read_file(dir / "t.csv").find("free,64,18,16,0,true,\n"), std::string::npos);
  EXPECT_NE(read_file(dir / "t.csv").find("free,128,34,32,0,false,\n"), std::string::npos);
  EXPECT_NE(kept.out.find("Generated by `mmsim sweep " + sweep.string() +
                          " --set expect.stages=16 --csv " + (dir / "t.csv").string() + "`"),
            std::string::npos)
      << kept.out;
}

struct BadSweep {
  std::string name;
  std::string sweep;
  std::string location;  // ":line:column" after the sweep file, or an option
  std::string message;
  std::string extra_args = "";
};

void PrintTo(const BadSweep& c, std::ostream* os) { *os << c.name; }

class BadSweepFile : public ::testing::TestWithParam<BadSweep> {};

// Refused before anything runs: status 2, one located message, no results and no table.
TEST_P(BadSweepFile, IsRefusedBeforeAnythingRuns) {
  const BadSweep& c = GetParam();
  TempDir dir;
  dir.write("base.yaml", kBase);
  const auto sweep = dir.write("s.yaml", c.sweep);
  const CommandResult r =
      mmsim("sweep " + shell_word(sweep) + " --results " + shell_word(dir / "r.jsonl") +
            " --markdown " + shell_word(dir / "t.md") + " " + c.extra_args);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.out, "");
  const std::string where =
      c.location.rfind("--", 0) == 0 ? c.location : sweep.string() + c.location;
  std::string message = c.message;
  if (const auto at = message.find("SWEEP"); at != std::string::npos)
    message.replace(at, 5, sweep.string());
  if (const auto at = message.find("DIR"); at != std::string::npos)
    message.replace(at, 3, dir.path().string());
  EXPECT_EQ(r.err, "mmsim: " + where + ": " + message + "\n");
  EXPECT_FALSE(std::filesystem::exists(dir / "r.jsonl"));
  EXPECT_FALSE(std::filesystem::exists(dir / "t.md"));
}

INSTANTIATE_TEST_SUITE_P(
    Sweep, BadSweepFile,
    ::testing::Values(
        BadSweep{"UnknownTopLevelKey", "testbench: base.yaml\ngird: {machine.latency: [1, 2]}\n",
                 ":2:1", "unknown key 'gird' in sweep (did you mean 'grid'?)"},
        BadSweep{"AMissingTestbench", "testbench: nothere.yaml\n", ":1:12",
                 "testbench: DIR/nothere.yaml: no such testbench file"},
        BadSweep{"UnknownGridKey", "testbench: base.yaml\ngrid:\n  machine.lattency: [1, 2]\n",
                 ":3:3",
                 "grid.machine.lattency: unknown key 'lattency' in machine (did you mean "
                 "'latency'?)"},
        BadSweep{"UnknownKeyOfACase",
                 "testbench: base.yaml\ncases:\n  - {label: a}\n"
                 "  - {label: b, set: {program.params.nn: 2}}\n",
                 ":4:22",
                 "case 'b' sets program.params.nn: unknown key 'nn' in program.params (did you "
                 "mean 'n'?)"},
        BadSweep{"UnknownColumn", "testbench: base.yaml\ncolumns: [cycles, stagse]\n", ":2:19",
                 "columns: no run reports 'stagse' (did you mean 'stages'?)"},
        BadSweep{"DuplicateGridKey",
                 "testbench: base.yaml\ngrid:\n  machine.latency: [1, 2]\n"
                 "  machine.latency: [3]\n",
                 ":4:3", "duplicate key 'machine.latency' in grid (one of them would be lost)"},
        BadSweep{"DuplicateKeyOfACase",
                 "testbench: base.yaml\ncases:\n"
                 "  - {label: a, set: {machine.model: dmm, machine.model: umm}}\n",
                 ":3:42",
                 "duplicate key 'machine.model' in cases[0].set (one of them would be lost)"},
        BadSweep{"AValueTwiceInAGridList",
                 "testbench: base.yaml\ngrid:\n  program.params.n: [64, 128, 2^6]\n", ":3:31",
                 "grid.program.params.n: 2^6 is in the list already (a run would run twice)"},
        BadSweep{"AZipPositionTwice",
                 "testbench: base.yaml\nzip:\n  machine.latency: [1, 2, 1]\n"
                 "  program.params.n: [64, 64, 64]\n",
                 ":3:27",
                 "zip: position 3 ([1,64]) repeats an earlier one (a run would run twice)"},
        BadSweep{"ZipListsOfDifferentLengths",
                 "testbench: base.yaml\nzip:\n  machine.width: [4, 8]\n"
                 "  program.params.n: [64]\n",
                 ":4:3",
                 "zip.program.params.n: 1 value, but zip.machine.width has 2 (zip lists vary "
                 "together)"},
        BadSweep{"AKeyInGridAndZip",
                 "testbench: base.yaml\ngrid: {machine.width: [4]}\nzip: {machine.width: [8]}\n",
                 ":3:7", "zip.machine.width: machine.width is set by grid already"},
        BadSweep{"UnknownName",
                 "testbench: base.yaml\ngrid: {machine.width: [4]}\n"
                 "derived: {machine.threads: 4 * widht}\n",
                 ":3:32",
                 "unknown name 'widht': neither a key of the sweep nor a value of its testbench "
                 "(did you mean 'width'?)"},
        BadSweep{"MalformedExpression",
                 "testbench: base.yaml\nderived: {machine.threads: '4 * (width + 2'}\n", ":2:43",
                 "in '4 * (width + 2': expected ')'"},
        BadSweep{"UnknownFunction", "testbench: base.yaml\nwhere: [log(width) > 1]\n", ":2:9",
                 "in 'log(width) > 1': unknown function 'log' (did you mean 'log2'?)"},
        BadSweep{"ANameThatIsNoInteger",
                 "testbench: base.yaml\ngrid: {machine.model: [dmm, umm]}\n"
                 "where: [model > 1]\n",
                 ":2:24",
                 "machine.model = 'dmm' is not an integer, but 'model > 1' (SWEEP:3:9) computes "
                 "with it"},
        BadSweep{"DerivedValuesInACycle",
                 "testbench: base.yaml\nderived:\n  machine.threads: 4 * latency\n"
                 "  machine.latency: threads / 4\n",
                 ":3:3", "derived.machine.threads depends on itself (through '4 * latency')"},
        BadSweep{"TooManyRuns",
                 "testbench: base.yaml\ngrid:\n"
                 "  machine.latency: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"
                 "  machine.seed: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"
                 "  program.params.n: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n",
                 ":3:3",
                 "the sweep makes 1000 runs (1 case x 10 machine.latency x 10 machine.seed x 10 "
                 "program.params.n), more than the limit of 999 (--max-runs raises it)",
                 "--max-runs 999"},
        BadSweep{"AGridOfATrillionRuns",
                 "testbench: base.yaml\ngrid:\n"
                 "  machine.latency: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"
                 "  machine.seed: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"
                 "  machine.barrier_latency: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"
                 "  machine.compute_latency: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"
                 "  machine.memory: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"
                 "  machine.local_memory: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"
                 "  machine.threads: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"
                 "  machine.width: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"
                 "  machine.super_warp: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"
                 "  program.params.n: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"
                 "  machine.rsu.seed: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n"
                 "  machine.dispatch: [round_robin, random]\n",
                 ":3:3",
                 "the sweep makes 200000000000 runs (1 case x 10 machine.latency x 10 machine.seed "
                 "x 10 machine.barrier_latency x 10 machine.compute_latency x 10 machine.memory x "
                 "10 machine.local_memory x 10 machine.threads x 10 machine.width x 10 "
                 "machine.super_warp x 10 program.params.n x 10 machine.rsu.seed x 2 "
                 "machine.dispatch), more than the limit of 100000 (--max-runs raises it)"}));

TEST(Sweep, AMissingOutputFolderIsNamed) {
  TempDir dir;
  dir.write("base.yaml", kBase);
  const auto sweep = dir.write("s.yaml", "testbench: base.yaml\n");
  for (const std::string option : {"--markdown", "--csv", "--json", "--results"}) {
    const auto target = dir / "nodir" / "x";
    const std::string results =
        option == "--results" ? "" : " --results " + shell_word(dir / "r.jsonl");
    const CommandResult r =
        mmsim("sweep " + shell_word(sweep) + results + " " + option + " " + shell_word(target));
    EXPECT_EQ(r.status, 2) << option;
    EXPECT_EQ(r.err, "mmsim: " + option + ": cannot write " + target.string() + ": no folder " +
                         (dir / "nodir").string() + "\n");
    EXPECT_FALSE(std::filesystem::exists(dir / "r.jsonl")) << "nothing runs";
  }
}

TEST(Sweep, ResumeRunsOnlyWhatTheResultsLack) {
  TempDir dir;
  dir.write("base.yaml", kBase);
  const auto sweep = dir.write("s.yaml",
                               "testbench: base.yaml\n"
                               "grid: {machine.latency: [1, 2, 3], program.params.n: [64, 128]}\n");
  const std::string args = "sweep " + shell_word(sweep) + " --results " +
                           shell_word(dir / "r.jsonl") + " --markdown " + shell_word(dir / "t.md");
  const CommandResult first = mmsim(args);
  ASSERT_EQ(first.status, 0) << first.err;
  const std::string table = read_file(dir / "t.md");
  // Keep two records and a line torn by a crash.
  std::string kept;
  {
    std::ifstream in(dir / "r.jsonl");
    std::string line;
    for (int i = 0; i < 2 && std::getline(in, line); ++i) kept += line + "\n";
  }
  std::ofstream(dir / "r.jsonl") << kept << "{\"case\": \"s\", \"val";
  std::filesystem::remove(dir / "t.md");
  const CommandResult resumed = mmsim(args + " --resume");
  EXPECT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_NE(resumed.err.find("6 runs, 2 in the results, 4 to run on"), std::string::npos)
      << resumed.err;
  EXPECT_EQ(without_provenance(read_file(dir / "t.md")), without_provenance(table));
  EXPECT_EQ(read_lines(dir / "r.jsonl").size(), 6u);  // the torn line is gone
  // --collect runs nothing; without --resume the sweep starts afresh.
  const CommandResult collected = mmsim(args + " --collect");
  EXPECT_EQ(collected.status, 0) << collected.err;
  EXPECT_EQ(without_provenance(collected.out), without_provenance(table));
  std::ofstream(dir / "r.jsonl") << kept;
  const CommandResult incomplete = mmsim(args + " --collect");
  EXPECT_EQ(incomplete.status, 1);
  EXPECT_NE(incomplete.err.find("4 of 6 runs have no result in"), std::string::npos)
      << incomplete.err;
  // Without --resume an existing results file is refused, never emptied; removed, the sweep
  // starts afresh.
  const CommandResult refused = mmsim(args);
  EXPECT_EQ(refused.status, 2);
  EXPECT_EQ(refused.err, "mmsim: --results: cannot write " + (dir / "r.jsonl").string() +
                             ": it holds the results of an earlier sweep (kept, never emptied): "
                             "--resume goes on from them, --collect makes the table from them; "
                             "remove it to start afresh\n");
  EXPECT_EQ(read_file(dir / "r.jsonl"), kept);
  std::filesystem::remove(dir / "r.jsonl");
  const CommandResult fresh = mmsim(args);
  EXPECT_NE(fresh.err.find("6 runs, 6 to run on"), std::string::npos) << fresh.err;
  EXPECT_EQ(read_lines(dir / "r.jsonl").size(), 6u);
}

TEST(Sweep, TheTasksOfAJobArrayShareTheRunsAndAreCollected) {
  TempDir dir;
  dir.write("base.yaml", kBase);
  const auto sweep = dir.write("s.yaml",
                               "name: shared\ntestbench: base.yaml\n"
                               "grid: {machine.latency: [1, 2, 3], program.params.n: [64, 128]}\n");
  const std::string args =
      "sweep " + shell_word(sweep) + " --results " + shell_word(dir / "r.jsonl");
  const CommandResult local = mmsim(args);
  ASSERT_EQ(local.status, 0) << local.err;
  std::filesystem::remove(dir / "r.jsonl");
  // --emit-slurm only writes the job script: nothing runs, nothing is submitted.
  const CommandResult emitted = mmsim(args + " --emit-slurm " + shell_word(dir / "job") +
                                      " --array-size 2 --partition short --time 10:00 "
                                      "--cpus-per-task 4 --sbatch=--mem=1G --set machine.seed=3");
  EXPECT_EQ(emitted.status, 0) << emitted.err;
  EXPECT_EQ(emitted.out, "");
  EXPECT_NE(emitted.err.find("6 to run in 2 SLURM array tasks"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir / "r.jsonl"));
  const std::string script = read_file(dir / "job" / "job.sh");
  for (const std::string& line : std::vector<std::string>{
           "#SBATCH --job-name=mmsim-shared\n", "#SBATCH --array=0-1\n",
           "#SBATCH --output=" + (dir / "job" / "task-%a.out").string() + "\n",
           "#SBATCH --cpus-per-task=4\n", "#SBATCH --partition=short\n", "#SBATCH --time=10:00\n",
           "#SBATCH --mem=1G\n", "SWEEP=" + sweep.string() + "\n",
           "exec \"$MMSIM\" sweep \"$SWEEP\" --set machine.seed=3 --results \"$RESULTS\" "
           "--max-runs "
           "100000 --task \"$SLURM_ARRAY_TASK_ID/2\" --jobs \"${SLURM_CPUS_PER_TASK:-1}\"\n"})
    EXPECT_NE(script.find(line), std::string::npos) << line << "\nin\n" << script;
  // The tasks, as the script runs them: task I takes the runs I, I+2, I+4.
  for (const std::string task : {"0/2", "1/2"}) {
    const CommandResult t = mmsim(args + " --task " + task + " --jobs 1");
    EXPECT_EQ(t.status, 0) << t.err;
    EXPECT_EQ(t.out, "");
    EXPECT_NE(t.err.find("task " + task.substr(0, 1) + " of 2: 3 to run on 1 worker"),
              std::string::npos)
        << t.err;
  }
  const auto first = read_lines(dir / "r.task-0.jsonl");
  ASSERT_EQ(first.size(), 3u);
  for (const auto& record : first) EXPECT_EQ(record["index"].get<int>() % 2, 0);
  const CommandResult collected = mmsim(args + " --collect");
  EXPECT_EQ(collected.status, 0) << collected.err;
  EXPECT_EQ(without_provenance(collected.out), without_provenance(local.out));
  // A task run again finds its share done.
  const CommandResult again = mmsim(args + " --task 1/2");
  EXPECT_NE(again.err.find("6 in the results, task 1 of 2: 0 to run"), std::string::npos)
      << again.err;
  EXPECT_EQ(read_lines(dir / "r.task-1.jsonl").size(), 3u);
}

TEST(Sweep, TheResultsMustBeARegularFile) {
  TempDir dir;
  dir.write("base.yaml", kBase);
  const auto sweep = dir.write("s.yaml", "testbench: base.yaml\n");
  ASSERT_EQ(mkfifo((dir / "fifo").c_str(), 0644), 0);
  const CommandResult r =
      mmsim("sweep " + shell_word(sweep) + " --results " + shell_word(dir / "fifo"));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "mmsim: --results: cannot write " + (dir / "fifo").string() +
                       ": it is not a regular file\n");
}

// Starts mmsim with `args`, its output in files of `dir`.
pid_t spawn_mmsim(const std::vector<std::string>& args, const TempDir& dir) {
  std::vector<std::string> argv = {MMSIM_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> raw;
  for (std::string& a : argv) raw.push_back(a.data());
  raw.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, (dir / "stdout").c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, (dir / "stderr").c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  EXPECT_EQ(posix_spawn(&pid, raw[0], &actions, nullptr, raw.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

TEST(Sweep, AnInterruptedSweepLeavesValidResults) {
  TempDir dir;
  dir.write("base.yaml", kBase);
  // 40 runs of some milliseconds each, one at a time.
  const auto sweep = dir.write("s.yaml",
                               "testbench: base.yaml\n"
                               "grid:\n  machine.latency: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, "
                               "13, 14, 15, 16, 17, 18, 19, 20]\n"
                               "  program.params.n: [2^18, 2^19]\n");
  const auto results = dir / "r.jsonl";
  const pid_t pid =
      spawn_mmsim({"sweep", sweep.string(), "--results", results.string(), "--jobs", "1"}, dir);
  // Interrupt once the first runs are in.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (read_file(results).find('\n') == std::string::npos &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_EQ(kill(pid, SIGINT), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130) << read_file(dir / "stderr");
  const std::string err = read_file(dir / "stderr");
  EXPECT_NE(err.find("mmsim: interrupted: "), std::string::npos) << err;
  EXPECT_NE(err.find("the same command with --resume goes on from there"), std::string::npos);
  const auto records = read_lines(results);  // every line a whole record
  EXPECT_GE(records.size(), 1u);
  EXPECT_LT(records.size(), 40u);
  for (const auto& record : records) EXPECT_EQ(record["verified"], true);
  EXPECT_EQ(read_file(dir / "stdout"), "");  // no table
  const CommandResult resumed =
      mmsim("sweep " + shell_word(sweep) + " --results " + shell_word(results) + " --resume");
  EXPECT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_NE(resumed.err.find("40 runs, " + std::to_string(records.size()) + " in the results, " +
                             std::to_string(40 - records.size()) + " to run on"),
            std::string::npos)
      << resumed.err;
  EXPECT_EQ(read_lines(results).size(), 40u);
}

TEST(Sweep, ItsResultsArePlotted) {
  TempDir dir;
  dir.write("base.yaml", kBase);
  const auto sweep = dir.write("s.yaml",
                               "testbench: base.yaml\n"
                               "cases:\n  - {label: contiguous}\n"
                               "  - {label: stride, set: {program.name: stride_access}}\n"
                               "grid: {machine.latency: [1, 2, 4], program.params.n: [64, 128]}\n");
  ASSERT_EQ(mmsim("sweep " + shell_word(sweep) + " --results " + shell_word(dir / "r.jsonl") +
                  " --json " + shell_word(dir / "t.json"))
                .status,
            0);
  const std::string plot =
      "/usr/bin/python3 " + std::string(MMSIM_SOURCE_DIR) + "/scripts/plot_sweep ";
  const std::string png_signature("\x89PNG\r\n\x1a\n", 8);
  // Lines (one per case, one panel per n) from the results; a heatmap per case from the table.
  const CommandResult lines =
      run_command(plot + shell_word(dir / "r.jsonl") +
                  " --x latency --y cycles --panel n --log -o " + shell_word(dir / "lines.png"));
  ASSERT_EQ(lines.status, 0) << lines.err;
  EXPECT_EQ(read_file(dir / "lines.png").substr(0, 8), png_signature);
  const CommandResult heat = run_command(plot + shell_word(dir / "t.json") +
                                         " --x latency --y program.params.n --value stages -o " +
                                         shell_word(dir / "heat.png"));
  ASSERT_EQ(heat.status, 0) << heat.err;
  EXPECT_EQ(read_file(dir / "heat.png").substr(0, 8), png_signature);
  // Two runs of a case at one x make no line: refused, no picture.
  const CommandResult ambiguous =
      run_command(plot + shell_word(dir / "r.jsonl") + " --x latency --y cycles -o " +
                  shell_word(dir / "x.png"));
  EXPECT_EQ(ambiguous.status, 2);
  EXPECT_EQ(ambiguous.err,
            "scripts/plot_sweep: several runs of case = contiguous share machine.latency: choose "
            "them with --where, or split them with --hue or --panel\n");
  const CommandResult unknown =
      run_command(plot + shell_word(dir / "r.jsonl") + " --x latency --y cylces --where n=64 -o " +
                  shell_word(dir / "x.png"));
  EXPECT_EQ(unknown.status, 2);
  EXPECT_EQ(unknown.err,
            "scripts/plot_sweep: no run has 'cylces' (a key of the sweep or a statistic)\n");
  EXPECT_FALSE(std::filesystem::exists(dir / "x.png"));
}

TEST(Sweep, ThePermutationSweepRuns) {
  TempDir dir;
  const CommandResult r =
      mmsim("sweep " + std::string(MMSIM_SOURCE_DIR) +
            "/configs/sweeps/permutation.yaml --results " + shell_word(dir / "r.jsonl"));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("| DMM Theorem 6 | 2^16 | 16414 | 16384 | 1 |"), std::string::npos) << r.out;
  // Theorem 8 takes n = w^(2^k) only: 2^8 and 2^16 for w = 16.
  EXPECT_NE(r.out.find("| UMM Theorem 8 | 2^8 | 1165 | 160 | 4 |"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("| UMM Theorem 8 | 2^12 |"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace mmsim::test
