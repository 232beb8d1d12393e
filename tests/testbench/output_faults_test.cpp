// Outputs that cannot be written, on every command that writes files (run, plan, sweep,
// congestion): exit status 2, one message naming the option (or the testbench key) and the
// reason, found before the work where it can be, and no file left behind. Full disks and null
// devices are private nodes made with mknod in a temporary folder (as root), never /dev/full.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "support/command.hpp"

namespace mmsim::test {
namespace {

namespace fs = std::filesystem;

const std::string kFig4 = std::string(MMSIM_SOURCE_DIR) + "/configs/dmm_fig4.yaml";
const auto kFig4Lines =
    std::count(std::istreambuf_iterator<char>(std::ifstream(kFig4).rdbuf()), {}, '\n');

// One output of one command: `arguments` holds {} where the output's path goes.
struct Output {
  std::string name;
  std::string arguments;
  std::string where;  // the message's location: an option, or a testbench key's file:line:col
};

void PrintTo(const Output& o, std::ostream* os) { *os << o.name; }

// Writes the inputs the commands read into `dir` and returns the command line for `target`.
std::string command_for(const Output& o, const TempDir& dir, const fs::path& target) {
  dir.write("base.yaml",
            "machine: {model: dmm, width: 4, latency: 3, threads: 16}\n"
            "program: {name: contiguous_access, params: {n: 64}}\n");
  dir.write("sweep.yaml", "testbench: base.yaml\ngrid: {program.params.n: [64, 128]}\n");
  dir.write("outputs.yaml", read_file(kFig4) + "outputs: {vcd: " + target.string() + "}\n");
  std::string arguments = o.arguments;
  if (const auto at = arguments.find("{}"); at != std::string::npos)
    arguments.replace(at, 2, shell_word(target));
  for (const std::string input : {"base.yaml", "sweep.yaml", "outputs.yaml"})
    for (std::size_t at; (at = arguments.find("@" + input)) != std::string::npos;)
      arguments.replace(at, input.size() + 1, shell_word(dir / input));
  return arguments;
}

const std::vector<Output> kOutputs = {
    {"RunStats", "run " + kFig4 + " --stats {}", "--stats"},
    {"RunVcd", "run " + kFig4 + " --vcd {}", "--vcd"},
    {"RunOutputsVcd", "run @outputs.yaml",
     "@outputs.yaml:" + std::to_string(kFig4Lines + 1) + ":16"},
    {"CongestionCsv", "congestion --width 4 --super-warp 1 --array 16 --rounds 100 --csv {}",
     "--csv"},
    {"CongestionJson", "congestion --width 4 --super-warp 1 --array 16 --rounds 100 --json {}",
     "--json"},
    {"PlanOut", "plan --n 256 --width 4 --out {}", "--out"},
    {"PlanStats", "plan --n 256 --width 4 --stats {}", "--stats"},
    {"SweepMarkdown", "sweep @sweep.yaml --markdown {}", "--markdown"},
    {"SweepCsv", "sweep @sweep.yaml --csv {}", "--csv"},
    {"SweepJson", "sweep @sweep.yaml --json {}", "--json"},
};

std::string expected_message(const Output& o, const TempDir& dir, const fs::path& target,
                             const std::string& reason) {
  const std::string where = o.where[0] == '@' ? (dir / o.where.substr(1)).string() : o.where;
  return "mmsim: " + where + ": cannot write " + target.string() + ": " + reason + "\n";
}

// A copy of the mmsim command that nobody (uid 65534) can run wherever the build lies (a clone
// in a folder only root may enter): the command, the libraries beside it that it loads
// (libmmsim*, found through its RUNPATH $ORIGIN) and the Fig. 4 testbench, in a temporary
// folder open to everyone.
class NobodysMmsim {
 public:
  NobodysMmsim() {
    const fs::path binary = MMSIM_BINARY;
    for (const auto& entry : fs::directory_iterator(binary.parent_path()))
      if (entry.path().filename().string().starts_with("libmmsim"))
        fs::copy(entry.path(), dir_ / entry.path().filename().string(),
                 fs::copy_options::copy_symlinks);
    fs::copy_file(binary, dir_ / "mmsim");
    fs::copy_file(kFig4, fig4());
    fs::permissions(dir_.path(), fs::perms::owner_all | fs::perms::group_read |
                                     fs::perms::group_exec | fs::perms::others_read |
                                     fs::perms::others_exec);
  }
  // The command line that runs the copy as nobody, and the testbench's copy.
  std::string command() const {
    return "setpriv --reuid=65534 --regid=65534 --clear-groups " + shell_word(dir_ / "mmsim");
  }
  fs::path fig4() const { return dir_ / "dmm_fig4.yaml"; }
  const fs::path& folder() const { return dir_.path(); }

 private:
  TempDir dir_;
};

class UnwritableOutput : public ::testing::TestWithParam<Output> {
 protected:
  // Runs the command against `target`; checks the status, the message, and that the folder
  // holds what it held before. `mmsim` runs the command (and reads Fig. 4 at `fig4`).
  // Nothing is printed either: a command whose output fails prints no report.
  void expect_refused(const fs::path& target, const std::string& reason,
                      const std::string& mmsim = shell_word(MMSIM_BINARY),
                      const std::string& fig4 = kFig4) {
    std::string command = command_for(GetParam(), dir_, target);
    for (std::size_t at; fig4 != kFig4 && (at = command.find(kFig4)) != std::string::npos;)
      command.replace(at, kFig4.size(), fig4);
    // A sweep's results (JSON Lines) go elsewhere: a sweep that ran keeps them.
    if (GetParam().name.rfind("Sweep", 0) == 0)
      command += " --results " + shell_word(results_ / "r.jsonl");
    const std::vector<std::string> before = dir_.names();
    const CommandResult r = run_command(mmsim + " " + command);
    EXPECT_EQ(r.status, 2) << command;
    const std::string expected = expected_message(GetParam(), dir_, target, reason);
    if (GetParam().name.rfind("Sweep", 0) == 0 && r.err != expected) {
      // A sweep that ran (only a full disk lets it): its progress, then the message, with where
      // its runs are kept.
      const std::string last = r.err.substr(r.err.rfind('\n', r.err.size() - 2) + 1);
      EXPECT_EQ(last.substr(0, expected.size() - 1), expected.substr(0, expected.size() - 1));
      EXPECT_NE(last.find(" (every run is in "), std::string::npos) << r.err;
    } else {
      EXPECT_EQ(r.err, expected);
    }
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(dir_.names(), before) << "a file was left behind";
  }
  TempDir dir_;
  TempDir results_;
};

TEST_P(UnwritableOutput, AFolder) {
  fs::create_directory(dir_ / "out");
  expect_refused(dir_ / "out", "it is a folder");
}

TEST_P(UnwritableOutput, AMissingFolder) {
  expect_refused(dir_ / "no/x", "no folder " + (dir_ / "no").string());
}

TEST_P(UnwritableOutput, AFullDisk) {
  const auto full = dir_.device("full", TempDir::kFullDevice);
  if (!full) GTEST_SKIP() << "mknod needs root";
  expect_refused(*full, "No space left on device");
  EXPECT_TRUE(fs::is_character_file(*full));
}

TEST_P(UnwritableOutput, AReadOnlyFolder) {
  fs::create_directory(dir_ / "ro");
  fs::permissions(dir_ / "ro", fs::perms::owner_all, fs::perm_options::replace);
  if (::geteuid() != 0) {
    expect_refused(dir_ / "ro/x", "Permission denied");
    return;
  }
  // Root writes anywhere: the command runs as nobody, for whom the folder is read-only.
  const NobodysMmsim nobody;
  const CommandResult version = run_command(nobody.command() + " --version");
  if (version.status != 0)
    GTEST_SKIP() << "nobody cannot run a copy of mmsim in " << nobody.folder() << " (setpriv "
                 << "missing, or a temporary folder nobody may enter): " << version.err;
  expect_refused(dir_ / "ro/x", "Permission denied", nobody.command(), nobody.fig4().string());
}

INSTANTIATE_TEST_SUITE_P(EveryCommand, UnwritableOutput, ::testing::ValuesIn(kOutputs),
                         [](const auto& info) { return info.param.name; });

// A regular file that stops growing (a file system that fills up): RLIMIT_FSIZE makes writes
// past 512 bytes fail with EFBIG (SIGXFSZ ignored, as a shell's trap leaves it to mmsim).
TEST(OutputFaults, AWriteThatFailsHalfWayLeavesNoFile) {
  TempDir dir;
  for (const std::string option : {"--vcd", "--stats"}) {
    const auto target = dir / "out";
    const CommandResult r =
        run_command("trap '' XFSZ; ulimit -f 1; exec '" + std::string(MMSIM_BINARY) + "' run " +
                    kFig4 + " " + option + " " + shell_word(target));
    EXPECT_EQ(r.status, 2) << option;
    EXPECT_EQ(r.err,
              "mmsim: " + option + ": cannot write " + target.string() + ": File too large\n");
    EXPECT_EQ(r.out, "");
    EXPECT_TRUE(fs::is_empty(dir.path())) << option;
  }
}

TEST(OutputFaults, ANullDeviceStaysADevice) {
  TempDir dir;
  const auto null = dir.device("null", TempDir::kNullDevice);
  if (!null) GTEST_SKIP() << "mknod needs root";
  const CommandResult r =
      mmsim("run " + kFig4 + " --vcd " + shell_word(*null) + " --stats " + shell_word(*null));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::is_character_file(*null));
  EXPECT_EQ(dir.names(), std::vector<std::string>{"null"});
}

TEST(OutputFaults, StandardOutputIsWrittenInPlace) {
  const CommandResult r = run_command("'" + std::string(MMSIM_BINARY) + "' run " + kFig4 +
                                      " --stats /dev/stdout | cat");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"cycles\": 5"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  cycles       5"), std::string::npos) << r.out;
}

// One output that fails leaves none of the others: the waveform is renamed into place only
// once the statistics are written too.
TEST(OutputFaults, NoOutputIsCommittedWhenAnotherFails) {
  TempDir dir;
  const auto full = dir.device("full", TempDir::kFullDevice);
  if (!full) GTEST_SKIP() << "mknod needs root";
  const CommandResult r = mmsim("run " + kFig4 + " --vcd " + shell_word(dir / "w.vcd") +
                                " --stats " + shell_word(*full));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "mmsim: --stats: cannot write " + full->string() + ": No space left on device\n");
  EXPECT_EQ(dir.names(), std::vector<std::string>{"full"});
}

// File names are bytes: one that is not UTF-8 is written to the statistics with U+FFFD.
TEST(OutputFaults, AFileNameThatIsNotUtf8GetsTheReplacementCharacter) {
  TempDir dir;
  const auto tb = dir.write("t\xff.yaml", read_file(kFig4));
  const CommandResult r = mmsim("run " + shell_word(tb) + " --vcd " + shell_word(dir / "w.vcd") +
                                " --stats " + shell_word(dir / "s.json"));
  EXPECT_EQ(r.status, 0) << r.err;
  const std::string stats = read_file(dir / "s.json");
  EXPECT_NE(stats.find("t\xef\xbf\xbd.yaml"), std::string::npos) << stats;
  EXPECT_TRUE(std::filesystem::exists(dir / "w.vcd"));
}

TEST(OutputFaults, ASymbolicLinkIsWrittenThrough) {
  TempDir dir;
  fs::create_symlink("real.json", dir / "link.json");
  const CommandResult r = mmsim("run " + kFig4 + " --stats " + shell_word(dir / "link.json"));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(dir / "link.json"));
  EXPECT_NE(read_file(dir / "real.json").find("\"cycles\": 5"), std::string::npos);
}

// An output that names an input or another output is refused before the work; nothing changes.
TEST(OutputFaults, AnOutputThatIsAnInputOrAnotherOutputIsRefused) {
  TempDir dir;
  const auto tb = dir.write("tb.yaml", read_file(kFig4));
  dir.write("t.csv", "0,read,0,1,5,10\n1,read,8,9,14,15\n");
  const auto csv_tb = dir.write("csv.yaml",
                                "machine: {model: dmm, width: 4, latency: 3}\n"
                                "program: {name: trace, params: {file: t.csv}}\n");
  const auto x = dir / "x";
  const std::string t = tb.string();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"run " + shell_word(tb) + " --stats " + shell_word(tb),
       "--stats: cannot write " + t + ": it is also the testbench (" + t + ")"},
      {"run " + shell_word(csv_tb) + " --vcd " + shell_word(dir / "t.csv"),
       "--vcd: cannot write " + (dir / "t.csv").string() +
           ": it is also the input of program.params.file (" + (dir / "t.csv").string() + ")"},
      {"run " + shell_word(tb) + " --vcd " + shell_word(x) + " --stats " +
           shell_word(dir / "." / "x"),
       "--stats: cannot write " + (dir / "." / "x").string() +
           ": it is also the output of --vcd (" + x.string() + ")"},
      {"plan --n 16 --width 4 --out " + shell_word(x) + " --stats " + shell_word(x),
       "--stats: cannot write " + x.string() + ": it is also the output of --out (" + x.string() +
           ")"},
      {"plan --n 16 --width 4 --permutation " + shell_word(dir / "t.csv") + " --out " +
           shell_word(dir / "t.csv"),
       "--out: cannot write " + (dir / "t.csv").string() + ": it is also the input of " +
           "--permutation (" + (dir / "t.csv").string() + ")"},
  };
  for (const auto& [command, message] : cases) {
    const CommandResult r = mmsim(command);
    EXPECT_EQ(r.status, 2) << command;
    EXPECT_EQ(r.err, "mmsim: " + message + "\n");
    EXPECT_EQ(r.out, "");
  }
  EXPECT_EQ(read_file(tb), read_file(kFig4));
  EXPECT_EQ(dir.names(), (std::vector<std::string>{"csv.yaml", "t.csv", "tb.yaml"}));
}

// SIGINT or SIGTERM in the middle of a run that writes a waveform: the unfinished outputs (and
// the waveform's pipe) are removed, and mmsim ends by the signal, as it would have.
TEST(OutputFaults, AnInterruptedRunLeavesNoPartialFile) {
  for (const int signal : {SIGINT, SIGTERM}) {
    TempDir dir;
    TempDir tmp;  // the child's TMPDIR, where the waveform's pipe goes
    const std::string vcd = (dir / "w.vcd").string();
    const std::string stats = (dir / "s.json").string();
    const std::string config = std::string(MMSIM_SOURCE_DIR) + "/configs/contiguous_dmm.yaml";
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      ::signal(SIGINT, SIG_DFL);
      ::setenv("TMPDIR", tmp.path().c_str(), 1);
      ::execl(MMSIM_BINARY, "mmsim", "run", config.c_str(), "--set", "program.params.n=2^24",
              "--vcd", vcd.c_str(), "--stats", stats.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    // Wait until the waveform is being written.
    const auto writing = [&] {
      for (const auto& entry : fs::directory_iterator(dir.path()))
        if (entry.path().filename().string().rfind("w.vcd.partial-", 0) == 0 &&
            fs::file_size(entry.path()) > 0)
          return true;
      return false;
    };
    for (int i = 0; i < 400 && !writing(); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    EXPECT_TRUE(writing());
    ::kill(child, signal);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == signal) << "status " << status;
    EXPECT_TRUE(fs::is_empty(dir.path())) << dir.names().front();
    EXPECT_TRUE(fs::is_empty(tmp.path())) << "the waveform's pipe is left: " << tmp.names().front();
  }
}

// Standard output that fails (a full disk: a private node as /dev/full is) fails the command:
// the report, the sweep's table, the lists and the congestion table alike.
TEST(OutputFaults, AFailedWriteToStandardOutputIsAnError) {
  TempDir dir;
  const auto full = dir.device("full", TempDir::kFullDevice);
  if (!full) GTEST_SKIP() << "mknod needs root";
  dir.write("base.yaml",
            "machine: {model: dmm, width: 4, latency: 3, threads: 16}\n"
            "program: {name: contiguous_access, params: {n: 64}}\n");
  const auto sweep = dir.write("s.yaml", "testbench: base.yaml\n");
  for (const std::string& command : std::vector<std::string>{
           "list", "list programs", "run " + kFig4, "plan --n 16 --width 4",
           "congestion --width 4 --super-warp 1 --array 16 --rounds 100",
           "sweep " + shell_word(sweep) + " --results " + shell_word(dir / "r.jsonl")}) {
    std::filesystem::remove(dir / "r.jsonl");
    const CommandResult r = run_command("{ '" + std::string(MMSIM_BINARY) + "' " + command + " > " +
                                        shell_word(*full) + "; }");
    EXPECT_EQ(r.status, 2) << command;
    const std::string message = "mmsim: cannot write to standard output: No space left on device\n";
    ASSERT_GE(r.err.size(), message.size()) << command;
    EXPECT_EQ(r.err.substr(r.err.size() - message.size()), message) << command;
  }
  EXPECT_TRUE(fs::is_character_file(*full));
}

}  // namespace
}  // namespace mmsim::test
