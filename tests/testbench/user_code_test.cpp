// A user's own code (C++ plugins, program.library) run by the mmsim command: what it throws is
// the program's failure (exit status 1, "the program threw: ...", no output left behind), never
// a crash; a library that is not a complete shared object is refused before dlopen maps it.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "support/command.hpp"

namespace mmsim::test {
namespace {

const std::string kPlugin = MMSIM_TEST_PLUGIN;
const std::string kPluginName = std::filesystem::path(kPlugin).filename().string();

// A testbench running `program` of `library` on a DMM of 2 warps.
std::filesystem::path plugin_testbench(const TempDir& dir, const std::string& program,
                                       const std::string& library = kPlugin) {
  return dir.write("tb.yaml",
                   "machine: {model: dmm, width: 4, latency: 2, threads: 8}\n"
                   "program: {library: " +
                       library + ", name: " + program + "}\n");
}

// `mmsim run` of `program` with --stats and --timeline into `dir`.
CommandResult run_plugin(const TempDir& dir, const std::string& program) {
  const auto tb = plugin_testbench(dir, program);
  return mmsim("run " + shell_word(tb) + " --stats " + shell_word(dir / "s.json") + " --timeline " +
               shell_word(dir / "t.json"));
}

TEST(PluginCode, ARunWhoseCodeDoesNotFailIsVerified) {
  TempDir dir;
  const CommandResult r = run_plugin(dir, "fine");
  ASSERT_EQ(r.status, 0) << r.err;
  // Two dispatches of one stage each, at 0 and 1, complete at 1 and 2 (l = 2): 3 time units.
  EXPECT_NE(r.out.find("  cycles       3\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  data         8 elements checked, all correct"), std::string::npos);
  EXPECT_EQ(dir.names(), (std::vector<std::string>{"s.json", "t.json", "tb.yaml"}));
}

TEST(PluginCode, WhatItThrowsIsTheProgramsFailureWithNothingLeftBehind) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"throws_in_constructor",
       "no constructor today (std::runtime_error, from make (its constructor)"},
      {"throws_in_configure", "configure refused 4 (std::logic_error, from configure()"},
      {"throws_in_run", "warp 0 (std::out_of_range, from run()"},
      {"throws_42_in_run", "an exception that is not a std::exception (int, from run()"},
      {"throws_in_verify", "nothing to verify (std::runtime_error, from verify()"},
  };
  for (const auto& [program, thrown] : cases) {
    TempDir dir;
    const CommandResult r = run_plugin(dir, program);
    const std::string tb = (dir / "tb.yaml").string();
    EXPECT_EQ(r.status, 1) << program << ": " << r.err;
    EXPECT_EQ(r.err, "mmsim: " + tb + ": the program failed: the program threw: " + thrown +
                         " of '" + program + "' in " + kPluginName + ")\n");
    EXPECT_EQ(dir.names(), std::vector<std::string>{"tb.yaml"}) << program;
  }
}

TEST(PluginCode, AMakeThatReturnsNothingIsALocatedError) {
  TempDir dir;
  const CommandResult r = run_plugin(dir, "makes_nothing");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "mmsim: " + (dir / "tb.yaml").string() + ":2:" +
                       std::to_string(
                           std::string("program: {library: " + kPlugin + ", name: ").size() + 1) +
                       ": program.name: " + kPluginName +
                       "'s program 'makes_nothing' made no program (its make returned nullptr)\n");
  EXPECT_EQ(dir.names(), std::vector<std::string>{"tb.yaml"});
}

// A plugin's own thread count is held to machine.threads' range (1 to 2^40), as a Python
// program's is: past it, the program's failure (exit 1), never a machine of 2^62 threads.
TEST(PluginCode, AThreadCountPastMachineThreadsRangeIsTheProgramsFailure) {
  for (const auto& [program, threads] :
       std::vector<std::pair<std::string, std::uint64_t>>{
           {"threads_2_62", std::uint64_t{1} << 62},
           {"threads_2_40_and_more", (std::uint64_t{1} << 40) + 4}}) {
    TempDir dir;
    dir.write("tb.yaml", "machine: {model: dmm, width: 4, latency: 2}\n"
                         "program: {library: " + kPlugin + ", name: " + program + "}\n");
    const CommandResult r = mmsim("run " + shell_word(dir / "tb.yaml") + " --stats " +
                                  shell_word(dir / "s.json"));
    EXPECT_EQ(r.status, 1) << program << ": " << r.err;
    EXPECT_EQ(r.err, "mmsim: " + (dir / "tb.yaml").string() + ": the program failed: program " +
                         program + "'s default_threads() returned " + std::to_string(threads) +
                         ": expected a thread count from 1 to 2^40 (as machine.threads takes)\n");
    EXPECT_EQ(dir.names(), std::vector<std::string>{"tb.yaml"}) << program;
  }
}

TEST(PluginCode, ATruncatedLibraryIsRefusedBeforeItIsMapped) {
  const std::string library = read_file(kPlugin);
  ASSERT_GT(library.size(), std::size_t{30} << 10);
  const std::vector<std::pair<std::size_t, std::string>> cases = {
      {4, "it is 4 bytes long, shorter than an ELF header (64 bytes): a truncated file?"},
      {std::size_t{30} << 10, "): a truncated file? (copy it again, or build it again)"},
  };
  for (const auto& [bytes, why] : cases) {
    TempDir dir;
    const auto cut = dir / "libcut.so";
    std::ofstream(cut, std::ios::binary).write(library.data(), static_cast<std::streamsize>(bytes));
    const CommandResult r = mmsim("run " + shell_word(plugin_testbench(dir, "fine", cut.string())) +
                                  " --stats " + shell_word(dir / "s.json"));
    EXPECT_EQ(r.status, 2) << bytes << ": " << r.err;  // not SIGBUS: an error, and its exit
    EXPECT_EQ(r.err.rfind("mmsim: " + (dir / "tb.yaml").string() +
                              ":2:20: program.library: " + cut.string() + ": ",
                          0),
              0u)
        << r.err;
    EXPECT_NE(r.err.find(why + "\n"), std::string::npos) << r.err;
    if (bytes > 4) {
      EXPECT_NE(r.err.find(": the file ends at byte 30720, before the end of "), std::string::npos)
          << r.err;
    }
    EXPECT_EQ(dir.names(), (std::vector<std::string>{"libcut.so", "tb.yaml"}));
  }
}

// ---- user code runs only when its run does ----------------------------------------------------

// A Python program whose import, and the plugin whose loading, append a line to the file
// MMSIM_TEST_MARKER names.
const std::string kMarkingPython =
    "import os\n"
    "import mmsim\n"
    "with open(os.environ['MMSIM_TEST_MARKER'], 'a') as marker:\n"
    "    marker.write('user.py imported\\n')\n"
    "class Fine(mmsim.Program):\n"
    "    def memory_words(self, machine=None): return 64\n"
    "    def run(self, warp): yield warp.read([4 * warp.index + l for l in range(4)])\n";

// Whether this build runs Python programs (the sanitized builds leave Python out).
bool runs_python() {
  return std::filesystem::exists(std::filesystem::path(MMSIM_BINARY).parent_path() /
                                 "libmmsim_python.so");
}

// The programs that leave a mark, each as `program:` of a testbench in `dir`.
std::vector<std::string> marking_programs(const TempDir& dir) {
  dir.write("user.py", kMarkingPython);
  std::vector<std::string> out = {"{library: " + kPlugin + ", name: fine}"};
  if (runs_python()) out.push_back("{file: user.py, class: Fine}");
  return out;
}

// mmsim with `arguments`, the marker at `marker`.
CommandResult marked_mmsim(const std::filesystem::path& marker, const std::string& arguments) {
  return run_command("MMSIM_TEST_MARKER=" + shell_word(marker) + " '" + MMSIM_BINARY + "' " +
                     arguments);
}

TEST(UserCode, RunsWhenTheProgramRunsAndOnlyThen) {
  TempDir dir;
  for (const std::string& program : marking_programs(dir)) {
    const auto tb = dir.write("tb.yaml",
                              "machine: {model: dmm, width: 4, latency: 2, threads: 8}\n"
                              "program: " +
                                  program + "\n");
    const auto marker = dir / "marker";
    const std::string run = "run " + shell_word(tb);
    // Refused before it runs: an output over an input (the testbench), an output that cannot be
    // written, an invalid machine, a window that ends before it starts.
    for (const std::string& refused :
         {run + " --stats " + shell_word(tb), run + " --stats " + shell_word(dir / "no/s.json"),
          run + " --set machine.latency=0", run + " --timeline-from 5 --timeline-to 4"}) {
      const CommandResult r = marked_mmsim(marker, refused);
      EXPECT_EQ(r.status, 2) << refused << ": " << r.err;
      EXPECT_FALSE(std::filesystem::exists(marker)) << program << ": " << refused;
    }
    // It runs: its code is loaded, once.
    const CommandResult r = marked_mmsim(marker, run);
    EXPECT_EQ(r.status, 0) << r.err;
    const std::string marks = read_file(marker);
    EXPECT_EQ(std::count(marks.begin(), marks.end(), '\n'), 1) << program << ": " << marks;
    std::filesystem::remove(marker);
  }
}

TEST(UserCode, ASweepThatRunsNothingRunsNoneOfIt) {
  TempDir dir;
  for (const std::string& program : marking_programs(dir)) {
    dir.write("tb.yaml",
              "machine: {model: dmm, width: 4, latency: 2, threads: 8}\n"
              "program: " +
                  program + "\n");
    const auto sweep = dir.write("sweep.yaml",
                                 "name: marks\ntestbench: tb.yaml\n"
                                 "grid: {machine.latency: [1, 2]}\n"
                                 "columns: [cycles]\n");
    const auto marker = dir / "marker";
    const std::string results = " --results " + shell_word(dir / "r.jsonl");
    // A job script is written; no run.
    const CommandResult emitted =
        marked_mmsim(marker, "sweep " + shell_word(sweep) + results + " --emit-slurm " +
                                 shell_word(dir / "job"));
    EXPECT_EQ(emitted.status, 0) << emitted.err;
    EXPECT_TRUE(std::filesystem::exists(dir / "job" / "job.sh"));
    EXPECT_FALSE(std::filesystem::exists(marker)) << program << ": --emit-slurm";
    // The runs, here: the check before them and each run load it.
    const CommandResult ran =
        marked_mmsim(marker, "sweep " + shell_word(sweep) + results + " --jobs 1 --markdown " +
                                 shell_word(dir / "t.md"));
    ASSERT_EQ(ran.status, 0) << ran.err;
    EXPECT_TRUE(std::filesystem::exists(marker));
    std::filesystem::remove(marker);
    // Collected: a table from the results, no run.
    const CommandResult collected =
        marked_mmsim(marker, "sweep " + shell_word(sweep) + results + " --collect");
    EXPECT_EQ(collected.status, 0) << collected.err;
    EXPECT_NE(collected.out.find("| 2 | 3 |"), std::string::npos) << collected.out;
    EXPECT_FALSE(std::filesystem::exists(marker)) << program << ": --collect";
    std::filesystem::remove_all(dir / "job");
    std::filesystem::remove(dir / "r.jsonl");
    std::filesystem::remove(dir / "t.md");
  }
}

}  // namespace
}  // namespace mmsim::test
