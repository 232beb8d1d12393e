// Outputs never overwrite inputs (issue 40, item 1): every file a run reads (the testbench, the
// program's file or library, the traces a kernels list names, the files its parameters name)
// is refused as an output, by any name (a symbolic or a hard link), exit status 2, before
// anything runs; the input is left as it was. Item 16 besides: an empty output name is an
// error, never a silent no-op. The reproducers are the issue's: tb.yaml and user.py in a
// temporary folder.
#include <unistd.h>

#include <tuple>

#include <gtest/gtest.h>

#include "support/command.hpp"
#include "sw/program/external_program.hpp"
#include "sw/programs/catalogue.hpp"
#include "testbench/run/runner.hpp"

namespace mmsim::test {
namespace {

namespace fs = std::filesystem;

const std::string kUserPy =
    "import mmsim\n"
    "class Fine(mmsim.Program):\n"
    "    def memory_words(self, machine=None): return 64\n"
    "    def run(self, warp): yield warp.read([4*warp.index + l for l in range(4)])\n";
const std::string kMachine = "machine: {model: dmm, width: 4, latency: 2, threads: 8}\n";

// mmsim with `arguments`, run in `dir`.
CommandResult mmsim_in(const TempDir& dir, const std::string& arguments) {
  return run_command("cd " + shell_word(dir.path()) + " && '" + MMSIM_BINARY + "' " + arguments);
}

bool python_built() {
  return fs::exists(fs::path(MMSIM_BINARY).parent_path() / "libmmsim_python.so");
}

class PythonProgramInputs : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!python_built()) GTEST_SKIP() << "this build has no Python (pybind11 missing)";
    dir_.write("user.py", kUserPy);
    dir_.write("tb.yaml", kMachine + "program: {file: user.py, class: Fine}\n");
  }
  // `arguments` are refused with `message` (after "mmsim: "); user.py is as it was, and the
  // folder holds what it held.
  void expect_refused(const std::string& arguments, const std::string& message) {
    const std::vector<std::string> before = dir_.names();
    const CommandResult r = mmsim_in(dir_, arguments);
    EXPECT_EQ(r.status, 2) << arguments << "\n" << r.err;
    EXPECT_EQ(r.err, "mmsim: " + message + "\n") << arguments;
    EXPECT_EQ(r.out, "") << arguments;
    EXPECT_EQ(read_file(dir_ / "user.py"), kUserPy) << arguments;
    EXPECT_EQ(dir_.names(), before) << arguments;
  }
  std::string user_py() const { return (dir_ / "user.py").string(); }
  TempDir dir_;
};

TEST_F(PythonProgramInputs, EveryOutputOptionRefusesTheProgramFile) {
  const std::string input = "it is also the input of program.file (" + user_py() + ")";
  for (const std::string option : {"--stats", "--timeline", "--vcd"})
    expect_refused("run tb.yaml " + option + " user.py",
                   option + ": cannot write user.py: " + input);
  // By another name: a symbolic link, a hard link, a path through the folder.
  ASSERT_EQ(::symlink("user.py", (dir_ / "link.json").c_str()), 0);
  ASSERT_EQ(::link(user_py().c_str(), (dir_ / "hard.json").c_str()), 0);
  expect_refused("run tb.yaml --stats link.json", "--stats: cannot write link.json: " + input);
  expect_refused("run tb.yaml --timeline hard.json",
                 "--timeline: cannot write hard.json: " + input);
  expect_refused(
      "run tb.yaml --vcd ./../" + dir_.path().filename().string() + "/user.py",
      "--vcd: cannot write ./../" + dir_.path().filename().string() + "/user.py: " + input);
}

TEST_F(PythonProgramInputs, TheTestbenchsOutputKeysRefuseTheProgramFile) {
  dir_.write("outputs.yaml",
             kMachine + "program: {file: user.py, class: Fine}\noutputs: {timeline: user.py}\n");
  expect_refused("run outputs.yaml",
                 "outputs.yaml:3:21: cannot write user.py: it is also the input of program.file "
                 "(" +
                     user_py() + ")");
}

// Each policy's outputs get its name: user.round_robin.py is the program of this testbench. It
// is refused before the first run (lowest_ready's statistics are never written).
TEST_F(PythonProgramInputs, APolicysOutputIsCheckedBeforeAnyRun) {
  dir_.write("user.round_robin.py", kUserPy);
  dir_.write("policies.yaml", kMachine + "program: {file: user.round_robin.py, class: Fine}\n");
  expect_refused("run policies.yaml --policies lowest_ready,round_robin --stats user.py",
                 "--stats: cannot write user.round_robin.py: it is also the input of "
                 "program.file (" +
                     (dir_ / "user.round_robin.py").string() + ")");
}

TEST_F(PythonProgramInputs, ASweepsTablesRefuseTheProgramFile) {
  dir_.write("sweep.yaml", "testbench: tb.yaml\ngrid: {machine.latency: [2, 3]}\n");
  for (const std::string option : {"--json", "--csv", "--markdown"})
    expect_refused("sweep sweep.yaml " + option + " user.py --results r.jsonl",
                   option +
                       ": cannot write user.py: it is also the input of program.file in "
                       "a run (user.py)");
}

// A GPU trace's kernels list names the trace files it reads: the program says so.
TEST(RunInputs, TheTracesOfAKernelsListAreInputs) {
  TempDir dir;
  fs::copy(fs::path(MMSIM_SOURCE_DIR) / "examples/traces/three_kernels", dir.path());
  dir.write("trace.yaml",
            "machine: {model: dmm, width: 32, latency: 4}\n"
            "program: {name: gpu_trace, params: {file: kernelslist.g, format: accelsim}}\n");
  const std::string kernel = read_file(dir / "kernel-1.traceg");
  const std::vector<std::string> before = dir.names();
  for (const std::string name : {"kernel-1.traceg", "kernel-2.traceg.zst"}) {
    const CommandResult r = mmsim_in(dir, "run trace.yaml --timeline " + name);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.err, "mmsim: --timeline: cannot write " + name +
                         ": it is also a file program gpu_trace reads (" + name + ")\n");
  }
  EXPECT_EQ(read_file(dir / "kernel-1.traceg"), kernel);
  EXPECT_EQ(dir.names(), before);
}

// The loader of plugins, for this test: any library "loads" as contiguous_access, so that a
// run names a library without building one.
class LibraryInputs : public ::testing::Test {
 protected:
  void SetUp() override {
    register_program_loader(ExternalProgram::Kind::library, [](const ExternalProgram&) {
      return std::make_shared<const ProgramInfo>(*find_program("contiguous_access"));
    });
  }
  TempDir dir_;
};

TEST_F(LibraryInputs, TheLibraryIsAnInput) {
  dir_.copy(MMSIM_TEST_PLUGIN, "libplugin.so");  // a real library, as mmsim checks it
  const fs::path tb = dir_.write(
      "tb.yaml", kMachine + "program: {library: libplugin.so, name: x, params: {n: 32}}\n");
  RunOptions options;
  const std::string library = (dir_ / "libplugin.so").string();
  options.ask("stats", library);
  try {
    run_testbench(load_testbench(tb), options);
    FAIL() << "the library was overwritten";
  } catch (const InputError& e) {
    EXPECT_EQ(e.describe(), "--stats: cannot write " + library +
                                ": it is also the input of program.library (" + library + ")");
  }
  EXPECT_EQ(read_file(dir_ / "libplugin.so"), read_file(MMSIM_TEST_PLUGIN));
}

// Item 16: an empty name for any output is an error at the option or the key.
TEST(EmptyOutputNames, AreErrors) {
  TempDir dir;
  const std::string fig4 = std::string(MMSIM_SOURCE_DIR) + "/configs/dmm_fig4.yaml";
  dir.write("sweep.yaml", "testbench: " + fig4 + "\ngrid: {machine.latency: [2, 3]}\n");
  for (const std::string& arguments :
       {"run " + fig4 + " --stats ''", "run " + fig4 + " --timeline ''",
        "run " + fig4 + " --vcd ''", "run " + fig4 + " --out-dir ''",
        std::string("plan --n 16 --width 4 --out ''"),
        std::string("plan --n 16 --width 4 --stats ''"),
        std::string("congestion --width 4 --array 16 --rounds 10 --csv ''"),
        std::string("congestion --width 4 --array 16 --rounds 10 --json ''"),
        std::string("sweep sweep.yaml --json ''"), std::string("sweep sweep.yaml --csv ''"),
        std::string("sweep sweep.yaml --markdown ''"), std::string("sweep sweep.yaml --results ''"),
        std::string("sweep sweep.yaml --emit-slurm ''")}) {
    const std::vector<std::string> before = dir.names();
    const CommandResult r = mmsim_in(dir, arguments);
    EXPECT_EQ(r.status, 2) << arguments;
    const std::string option =
        arguments.substr(arguments.rfind(" --") + 1, arguments.size() - arguments.rfind(" --") - 4);
    EXPECT_EQ(r.err, "mmsim: " + option + ": expected a file name, got an empty one (see --help)\n")
        << arguments;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(dir.names(), before) << arguments;
  }
  const auto lines =
      std::count(std::istreambuf_iterator<char>(std::ifstream(fig4).rdbuf()), {}, '\n');
  for (const auto& [outputs, key, column] : std::vector<std::tuple<std::string, std::string, int>>{
           {"{stats: ''}", "outputs.stats", 18},
           {"{timeline: ''}", "outputs.timeline", 21},
           {"{vcd: ''}", "outputs.vcd", 16},
           {"{vcd: {file: ''}}", "outputs.vcd.file", 23}}) {
    dir.write("tb.yaml", read_file(fig4) + "outputs: " + outputs + "\n");
    const CommandResult r = mmsim_in(dir, "run tb.yaml");
    EXPECT_EQ(r.status, 2) << outputs;
    EXPECT_EQ(r.err, "mmsim: tb.yaml:" + std::to_string(lines + 1) + ":" + std::to_string(column) +
                         ": " + key + ": expected a file name, got an empty one\n");
    EXPECT_EQ(r.out, "");
  }
}

}  // namespace
}  // namespace mmsim::test
