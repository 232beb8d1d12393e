// Outputs bounded while they are written (issue 40, items 8 and 10): a program with no end and a
// small --timeline-limit or --vcd-limit ends promptly with exit status 2, a message at the
// option, and no file left behind; the timeline is streamed (what it holds does not grow with
// the run) and counted in the memory check. The endless program is a C++ one, loaded as a
// plugin would be (a test loader), and, where this build has Python, the Python one
// through the command.
#include <gtest/gtest.h>

#include <chrono>

#include "hw/observers/timeline.hpp"
#include "support/command.hpp"
#include "sw/program/external_program.hpp"
#include "testbench/input/memory_budget.hpp"
#include "testbench/run/runner.hpp"

namespace mmsim::test {
namespace {

namespace fs = std::filesystem;

// Every warp reads its four words, again and again.
class Endless final : public WarpProgram {
 public:
  std::uint64_t memory_words() const override { return 64; }
  Task run(Warp& warp) override {
    std::vector<Address> addresses(warp.width());
    for (;;) {
      for (std::size_t lane = 0; lane < addresses.size(); ++lane)
        addresses[lane] = warp.thread(0) + lane;
      co_await warp.read(addresses);
    }
  }
};

class EndlessRun : public ::testing::Test {
 protected:
  void SetUp() override {
    register_program_loader(ExternalProgram::Kind::library, [](const ExternalProgram&) {
      auto info = std::make_shared<ProgramInfo>();
      info->name = "endless";
      info->make = [](const ProgramArgs&) { return std::make_unique<Endless>(); };
      return std::shared_ptr<const ProgramInfo>(info);
    });
    // A real library, as mmsim checks it before loading; the test's loader makes the program.
    dir_.copy(MMSIM_TEST_PLUGIN, "libendless.so");
    testbench_ = dir_.write("endless.yaml",
                            "machine: {model: dmm, width: 4, latency: 2, threads: 8}\n"
                            "program: {library: libendless.so, name: endless}\n");
  }
  // Runs the endless program with `options`: refused with `message` within seconds, and only
  // the inputs are left.
  void expect_ended(const RunOptions& options, const std::string& message) {
    const auto start = std::chrono::steady_clock::now();
    try {
      run_testbench(load_testbench(testbench_), options);
      FAIL() << "an endless run ended by itself";
    } catch (const InputError& e) {
      EXPECT_EQ(e.describe(), message);
    }
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
    EXPECT_EQ(dir_.names(), (std::vector<std::string>{"endless.yaml", "libendless.so"}));
  }
  TempDir dir_;
  fs::path testbench_;
};

TEST_F(EndlessRun, TheTimelineLimitEndsIt) {
  RunOptions options;
  options.ask("timeline", (dir_ / "t.json").string());
  options.outputs["timeline"].limit = 1 << 20;
  expect_ended(options,
               "--timeline: this timeline passed the limit of 1.0 MiB of JSON while the run went "
               "on: narrow it to a window of time units (outputs.timeline: {file, from, to}, or "
               "--timeline-from and --timeline-to), or raise the limit (outputs.timeline.limit, "
               "or --timeline-limit)");
}

TEST_F(EndlessRun, TheWaveformLimitEndsIt) {
  RunOptions options;
  options.ask("vcd", (dir_ / "w.vcd").string());
  options.outputs["vcd"].limit = 1 << 20;
  expect_ended(options,
               "--vcd: this waveform passed the limit of 1.0 MiB of VCD while the run went on: "
               "narrow it to a window of cycles (outputs.vcd: {file, from, to}, or --vcd-from "
               "and --vcd-to) or to some scopes (outputs.vcd.scopes, or --vcd-scope, e.g. "
               "'machine.warp_[0-3]' 'machine.memory.bank_*'), or raise the limit "
               "(outputs.vcd.limit, or --vcd-limit)");
}

// The limit holds through FST's converter too (it counts the VCD that goes in).
TEST_F(EndlessRun, TheWaveformLimitEndsItThroughAConverter) {
  if (std::system("command -v vcd2fst > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "vcd2fst (gtkwave) is not installed";
  RunOptions options;
  options.ask("vcd", (dir_ / "w.fst").string());
  options.outputs["vcd"].limit = 1 << 20;
  try {
    run_testbench(load_testbench(testbench_), options);
    FAIL() << "an endless run ended by itself";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("passed the limit of 1.0 MiB of VCD"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(dir_.names(), (std::vector<std::string>{"endless.yaml", "libendless.so"}));
}

// A timeline holds its buffer and its tables, not the run (no figure of its length in it).
TEST(TimelineMemory, IsBoundedAndCountedInTheMemoryCheck) {
  // The thesis' machine (16 SMs, w = 32, 2048 warps): about 200 KiB.
  EXPECT_LT(Timeline::memory_bytes(2048, 17, 32, 32), std::uint64_t{256} << 10);
  TempDir dir;
  const fs::path tb = dir.write("tb.yaml",
                                "machine: {model: dmm, width: 4, latency: 2, threads: 16}\n"
                                "program: {name: contiguous_access, params: {n: 64}}\n");
  // A memory limit the run fits in, and not with a timeline of a 64 MiB-lane machine beside.
  setenv("MMSIM_MEMORY_LIMIT", "2^26", 1);
  RunOptions options;
  EXPECT_NO_THROW(run_testbench(load_testbench(tb), options));
  options.ask("timeline", (dir / "t.json").string());
  EXPECT_NO_THROW(run_testbench(load_testbench(tb), options));
  const fs::path wide = dir.write("wide.yaml",
                                  "machine: {model: sdmm, width: 1024, super_warp: 8, latency: 2, "
                                  "threads: 8192}\n"
                                  "program: {name: contiguous_access, params: {n: 8192}}\n");
  EXPECT_NO_THROW(run_testbench(load_testbench(wide), RunOptions{}));
  options.ask("timeline", (dir / "wide.json").string());
  try {
    run_testbench(load_testbench(wide), options);
    FAIL() << "the timeline's tables were not counted";
  } catch (const InputError& e) {
    EXPECT_NE(
        std::string(e.what()).find(" + timeline: its buffer and tables 64.8 MiB), 64.0 MiB are "
                                   "available (MMSIM_MEMORY_LIMIT)"),
        std::string::npos)
        << e.what();
  }
  unsetenv("MMSIM_MEMORY_LIMIT");
  EXPECT_EQ(dir.names(), (std::vector<std::string>{"t.json", "tb.yaml", "wide.yaml"}));
}

// The program, through the command: `while True: yield warp.read(...)`.
TEST(EndlessPythonRun, EndsAtItsLimits) {
  if (!fs::exists(fs::path(MMSIM_BINARY).parent_path() / "libmmsim_python.so"))
    GTEST_SKIP() << "this build has no Python (pybind11 missing)";
  TempDir dir;
  dir.write("endless.py",
            "import mmsim\n"
            "class Endless(mmsim.Program):\n"
            "    def memory_words(self, machine=None): return 64\n"
            "    def run(self, warp):\n"
            "        while True:\n"
            "            yield warp.read([4*warp.index + l for l in range(4)])\n");
  dir.write("endless.yaml",
            "machine: {model: dmm, width: 4, latency: 2, threads: 8}\n"
            "program: {file: endless.py, class: Endless}\n");
  for (const std::string& outputs : {std::string("--timeline t.json --timeline-limit 2^20"),
                                     std::string("--vcd w.vcd --vcd-limit 2^20")}) {
    const CommandResult r = run_command("cd " + shell_word(dir.path()) + " && timeout 60 '" +
                                        MMSIM_BINARY + "' run endless.yaml " + outputs);
    EXPECT_EQ(r.status, 2) << outputs;
    EXPECT_NE(r.err.find("passed the limit of 1.0 MiB"), std::string::npos) << r.err;
    EXPECT_EQ(dir.names(), (std::vector<std::string>{"endless.py", "endless.yaml"}));
  }
}

}  // namespace
}  // namespace mmsim::test
