// Every signal that ends mmsim ends what it started (a sweep's workers, a waveform's converter)
// and removes every unfinished output and temporary folder, its workers' included.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <thread>

#include <gtest/gtest.h>

#include "support/command.hpp"
#include "sw/gpu_traces/compressed_input.hpp"
#include "sw/gpu_traces/nvbit_lines.hpp"
#include "sw/gpu_traces/read_ahead.hpp"
#include "sw/support/available_cores.hpp"
#include "testbench/outputs/pending_file.hpp"

namespace mmsim::test {
namespace {

namespace fs = std::filesystem;

// Starts mmsim with `args` (SIGINT as by default, not ignored as in a background job), its
// output to `log` and TMPDIR at `tmp`.
pid_t start_mmsim(const std::vector<std::string>& args, const fs::path& log, const fs::path& tmp) {
  const pid_t child = ::fork();
  if (child != 0) return child;
  ::signal(SIGINT, SIG_DFL);
  ::signal(SIGHUP, SIG_DFL);
  ::setenv("TMPDIR", tmp.c_str(), 1);
  if (!freopen(log.c_str(), "w", stdout) || !freopen(log.c_str(), "a", stderr)) ::_exit(126);
  std::vector<char*> argv = {const_cast<char*>(MMSIM_BINARY)};
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  ::execv(MMSIM_BINARY, argv.data());
  ::_exit(127);
}

// Whether `dir` holds an unfinished output ("<name>.partial-XXXXXX") with something in it.
bool writing(const fs::path& dir) {
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.path().filename().string().find(".partial-") != std::string::npos) return true;
  return false;
}

// The processes whose command line mentions `text` (a test's private folder).
std::vector<std::string> processes_naming(const std::string& text) {
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string pid = entry.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string line = read_file(entry.path() / "cmdline");
    std::replace(line.begin(), line.end(), '\0', ' ');
    if (line.find(text) != std::string::npos) found.push_back(pid + ": " + line);
  }
  return found;
}

bool wait_for(const std::function<bool()>& condition) {
  for (int i = 0; i < 800 && !condition(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  return condition();
}

// A sweep whose runs write statistics (outputs.stats in its grid): interrupted while they run,
// the workers remove their unfinished outputs and end with the sweep, which exits 130 (SIGINT,
// SIGTERM) or 129 (SIGHUP).
TEST(Signals, AnInterruptedSweepEndsItsWorkersAndLeavesNoPartialFile) {
  for (const auto& [signal, status] : {std::pair{SIGINT, 130}, {SIGTERM, 130}, {SIGHUP, 129}}) {
    TempDir dir;
    TempDir tmp;
    dir.write("base.yaml",
              "machine: {model: dmm, width: 4, latency: 3, threads: 16}\n"
              "program: {name: contiguous_access, params: {n: 64}}\n");
    const auto sweep = dir.write("s.yaml",
                                 "testbench: base.yaml\n"
                                 "grid: {outputs.stats: [" +
                                     (dir / "a.json").string() + ", " + (dir / "b.json").string() +
                                     "], program.params.n: [2^24]}\n");
    const pid_t child = start_mmsim(
        {"sweep", sweep.string(), "--results", (dir / "r.jsonl").string(), "--jobs", "2"},
        tmp / "log", tmp.path());
    EXPECT_TRUE(wait_for([&] { return writing(dir.path()); })) << read_file(tmp / "log");
    ::kill(child, signal);
    int raw = 0;
    ASSERT_EQ(::waitpid(child, &raw, 0), child);
    EXPECT_TRUE(WIFEXITED(raw) && WEXITSTATUS(raw) == status)
        << strsignal(signal) << ": status " << raw << "\n"
        << read_file(tmp / "log");
    EXPECT_EQ(processes_naming(dir.path().string()), std::vector<std::string>{})
        << strsignal(signal);
    EXPECT_EQ(dir.names(), (std::vector<std::string>{"base.yaml", "r.jsonl", "s.yaml"}))
        << strsignal(signal);
  }
}

// A waveform written as FST goes through vcd2fst and a private folder in $TMPDIR: interrupted,
// mmsim ends the converter and removes the folder with all it holds.
TEST(Signals, AnInterruptedCompactWaveformLeavesNoConverterAndNoFolder) {
  for (const int signal : {SIGINT, SIGTERM, SIGHUP}) {
    TempDir dir;
    TempDir tmp;
    TempDir logs;
    const std::string config = std::string(MMSIM_SOURCE_DIR) + "/configs/contiguous_dmm.yaml";
    const pid_t child = start_mmsim(
        {"run", config, "--set", "program.params.n=2^22", "--vcd", (dir / "w.fst").string()},
        logs / "log", tmp.path());
    // Once the converter has written into its folder.
    EXPECT_TRUE(wait_for([&] {
      for (const auto& entry : fs::recursive_directory_iterator(tmp.path()))
        if (entry.path().filename() == "waveform.fst.hier" ||
            (entry.path().filename() == "waveform.fst" && fs::file_size(entry.path()) > 0))
          return true;
      return false;
    })) << read_file(logs / "log");
    ::kill(child, signal);
    int raw = 0;
    ASSERT_EQ(::waitpid(child, &raw, 0), child);
    EXPECT_TRUE(WIFSIGNALED(raw) && WTERMSIG(raw) == signal) << "status " << raw;
    EXPECT_EQ(processes_naming(tmp.path().string()), std::vector<std::string>{})
        << strsignal(signal) << ": the converter outlived mmsim";
    EXPECT_TRUE(fs::is_empty(tmp.path())) << tmp.names().front();
    EXPECT_TRUE(fs::is_empty(dir.path())) << dir.names().front();
  }
}

// A plain trace is read in place, mapped a window at a time: cut short meanwhile, its pages past
// the new end fault (SIGBUS). That is bad input: exit status 2 with what happened, and the
// outputs not yet complete removed as on any other signal. (In place of the rest of a run: the
// output is made, then the trace is read, as mmsim run does, by `read` of the file's 400000
// lines "line N", which cuts it short once it has read some.)
void expect_a_trace_cut_short_is_an_error(
    const std::function<void(const fs::path& trace, const std::function<void()>& cut)>& read) {
  TempDir dir;
  std::string text;
  for (int i = 0; i < 400000; ++i) text += "line " + std::to_string(i) + "\n";
  const auto trace = dir.write("trace.txt", text);
  EXPECT_EXIT(
      {
        PendingFile output(dir / "stats.json", {"--stats", 0, 0});
        read(trace, [&trace] { fs::resize_file(trace, 0); });
        std::exit(4);
      },
      ::testing::ExitedWithCode(2),
      "mmsim: " + trace.string() +
          ": the trace changed while it was read \\(it was cut short while mmsim read it\\)\n");
  EXPECT_EQ(dir.names(), std::vector<std::string>{"trace.txt"});
}

TEST(Signals, ATraceCutShortWhileItIsReadIsAnErrorThatLeavesNoPartialFile) {
  expect_a_trace_cut_short_is_an_error([](const fs::path& trace, const std::function<void()>& cut) {
    TraceLines lines(trace, "mem_trace file");
    std::string_view line;
    if (!lines.next(line) || line != "line 0") std::exit(3);
    cut();
    while (lines.next(line)) {
    }
  });
}

// The same with the trace read ahead on a second thread, whose access faults: the handler runs
// on that thread, and it is the same error.
TEST(Signals, ATraceCutShortWhileItIsReadAheadIsTheSameError) {
  if (available_cores() < 2) GTEST_SKIP() << "one processor: no thread reads ahead";
  expect_a_trace_cut_short_is_an_error([](const fs::path& trace, const std::function<void()>& cut) {
    NvbitLines lines(trace, kMaxSkippedBytes);
    ReadAhead<NvbitBatch> batches([&lines](NvbitBatch& batch) { return lines.fill(batch); }, true);
    if (batches.next() == nullptr) std::exit(3);
    cut();
    while (batches.next() != nullptr) {
    }
  });
}

}  // namespace
}  // namespace mmsim::test
