// What a sweep writes (its results file, its tables, its SLURM job script) never replaces or
// removes what it should not: an output that names an input or another output is refused before
// any run, an existing results file is appended to or refused but never emptied, the job script
// is written as every output is, and every value written into it is checked or quoted. The
// results read back are checked record by record. Devices are private nodes made with mknod in
// a temporary folder (as root), never /dev/null.
#include <sys/stat.h>

#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/command.hpp"

namespace mmsim::test {
namespace {

namespace fs = std::filesystem;

const std::string kBase =
    "machine: {model: dmm, width: 4, latency: 3, threads: 16}\n"
    "program: {name: contiguous_access, params: {n: 64}}\n";
const std::string kSweep = "testbench: base.yaml\ngrid: {program.params.n: [64, 128]}\n";

// A folder with base.yaml and sw.yaml (two runs).
struct SweepFolder {
  TempDir dir;
  fs::path base = dir.write("base.yaml", kBase);
  fs::path sweep = dir.write("sw.yaml", kSweep);
  std::string command() const { return "sweep " + shell_word(sweep); }
};

// `word` as one word of sh, whatever it holds (quotes, newlines).
std::string sh_word(const std::string& word) {
  std::string out = "'";
  for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The files of a folder with their contents (a folder shows as "<folder>").
std::map<std::string, std::string> contents(const fs::path& folder) {
  std::map<std::string, std::string> out;
  for (const auto& entry : fs::directory_iterator(folder))
    out[entry.path().filename().string()] = entry.is_regular_file() ? read_file(entry.path())
                                            : entry.is_directory()  ? "<folder>"
                                                                    : "<other>";
  return out;
}

TEST(SweepOutputs, AnOutputThatNamesAnInputOrAnotherOutputIsRefusedBeforeAnyRun) {
  SweepFolder f;
  const fs::path& sw = f.sweep;
  const fs::path& base = f.base;
  const fs::path x = f.dir / "x.csv";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--results " + shell_word(sw), "--results: cannot write " + sw.string() +
                                          ": it is also the sweep file (" + sw.string() + ")"},
      {"--results " + shell_word(base), "--results: cannot write " + base.string() +
                                            ": it is also the sweep's testbench (" + base.string() +
                                            ")"},
      {"--csv " + shell_word(x) + " --results " + shell_word(x),
       "--results: cannot write " + x.string() + ": it is also the output of --csv (" + x.string() +
           ")"},
      {"--results " + shell_word(f.dir / "r.jsonl") + " --csv " + shell_word(base),
       "--csv: cannot write " + base.string() + ": it is also the sweep's testbench (" +
           base.string() + ")"},
      {"--results " + shell_word(f.dir / "r.jsonl") + " --markdown " + shell_word(sw),
       "--markdown: cannot write " + sw.string() + ": it is also the sweep file (" + sw.string() +
           ")"},
  };
  const auto before = contents(f.dir.path());
  for (const auto& [options, message] : cases) {
    const CommandResult r = mmsim(f.command() + " " + options);
    EXPECT_EQ(r.status, 2) << options;
    EXPECT_EQ(r.err, "mmsim: " + message + "\n") << options;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(contents(f.dir.path()), before) << options;
  }
}

// A file a run reads (a parameter that names a file, from the testbench, the grid or --set) is
// an input too.
TEST(SweepOutputs, AFileARunReadsIsAnInput) {
  TempDir dir;
  const auto values = dir.write("v.txt", "1 2 3 4 5 6 7 8\n");
  dir.write("base.yaml",
            "machine: {model: umm, width: 4, latency: 2}\n"
            "program: {name: sum_simple, params: {file: v.txt}}\n");
  const auto sweep = dir.write("s.yaml", "testbench: base.yaml\ngrid: {machine.latency: [1, 2]}\n");
  const CommandResult r = mmsim("sweep " + shell_word(sweep) + " --results " + shell_word(values));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "mmsim: --results: cannot write " + values.string() +
                       ": it is also the input of program.params.file in a run (" +
                       values.string() + ")\n");
  EXPECT_EQ(read_file(values), "1 2 3 4 5 6 7 8\n");
}

// --emit-slurm and --slurm remove nothing: what --results names stays as it was, whatever it is,
// and the command is refused before it writes anything.
TEST(SweepOutputs, AJobArrayNeverRemovesWhatTheResultsOptionNames) {
  for (const std::string submit : {"--emit-slurm job", "--slurm"}) {
    SweepFolder f;
    f.dir.write("earlier.jsonl", "kept\n");
    fs::create_directory(f.dir / "empty");
    const auto null = f.dir.device("nul", TempDir::kNullDevice);
    if (!null) GTEST_SKIP() << "mknod needs root";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"earlier.jsonl",
         "it holds the results of an earlier sweep (kept, never emptied): --resume goes on from "
         "them, --collect makes the table from them; remove it to start afresh"},
        {"sw.yaml", "it is also the sweep file (" + f.sweep.string() + ")"},
        {"base.yaml", "it is also the sweep's testbench (" + f.base.string() + ")"},
        {"empty", "it is a folder"},
        {"nul", "it is not a regular file"},
    };
    const auto before = contents(f.dir.path());
    for (const auto& [name, why] : cases) {
      const fs::path results = f.dir / name;
      const CommandResult r =
          run_command("cd " + shell_word(f.dir.path()) + " && '" + MMSIM_BINARY + "' " +
                      f.command() + " " + submit + " --results " + shell_word(results));
      EXPECT_EQ(r.status, 2) << submit << " " << name;
      EXPECT_EQ(r.err, "mmsim: --results: cannot write " + results.string() + ": " + why + "\n")
          << submit;
      EXPECT_EQ(contents(f.dir.path()), before) << submit << " " << name;
    }
    struct stat info {};
    ASSERT_EQ(::stat(null->c_str(), &info), 0);
    EXPECT_TRUE(S_ISCHR(info.st_mode));
    EXPECT_EQ(info.st_mode & 07777, 0600u);
  }
}

// With --resume the job array goes on from the results: they are kept as they are.
TEST(SweepOutputs, AResumedJobArrayKeepsTheResults) {
  SweepFolder f;
  const auto results = f.dir / "r.jsonl";
  ASSERT_EQ(mmsim(f.command() + " --results " + shell_word(results)).status, 0);
  const std::string records = read_file(results);
  const CommandResult r = mmsim(f.command() + " --results " + shell_word(results) +
                                " --resume --emit-slurm " + shell_word(f.dir / "job"));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("2 runs, 2 in the results, 0 to run in 2 SLURM array tasks"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(read_file(results), records);
}

// A fresh sweep keeps a SLURM task's results of an earlier one too.
TEST(SweepOutputs, AnEarlierTasksResultsAreNotOverwritten) {
  SweepFolder f;
  const auto task = f.dir.write("r.task-0.jsonl", "kept\n");
  const CommandResult r = mmsim(f.command() + " --results " + shell_word(f.dir / "r.jsonl"));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "mmsim: --results: cannot write " + task.string() +
                       ": it holds a SLURM task's results of an earlier sweep (kept, never "
                       "emptied): --resume goes on from them, --collect makes the table from "
                       "them; remove it to start afresh\n");
  EXPECT_EQ(read_file(task), "kept\n");
  EXPECT_FALSE(fs::exists(f.dir / "r.jsonl"));
}

TEST(SweepOutputs, TheJobScriptIsWrittenLikeEveryOutput) {
  SweepFolder f;
  const std::string results = " --results " + shell_word(f.dir / "r.jsonl");
  // A link to a device: refused, the device untouched (its mode stays 0600).
  const auto null = f.dir.device("nul", TempDir::kNullDevice);
  if (!null) GTEST_SKIP() << "mknod needs root";
  fs::create_directory(f.dir / "job");
  fs::create_symlink(*null, f.dir / "job" / "job.sh");
  const fs::path script = f.dir / "job" / "job.sh";
  CommandResult r = mmsim(f.command() + results + " --emit-slurm " + shell_word(f.dir / "job"));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "mmsim: --emit-slurm: cannot write " + script.string() +
                       ": it is not a regular file\n");
  struct stat info {};
  ASSERT_EQ(::stat(null->c_str(), &info), 0);
  EXPECT_TRUE(S_ISCHR(info.st_mode));
  EXPECT_EQ(info.st_mode & 07777, 0600u);
  EXPECT_TRUE(fs::is_symlink(script));
  fs::remove(script);

  // A sweep file named job.sh, in the folder of the script: refused, unchanged.
  const auto named = f.dir.write("job.sh", kSweep);
  r = mmsim("sweep " + shell_word(named) + results + " --emit-slurm " + shell_word(f.dir.path()));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "mmsim: --emit-slurm: cannot write " + named.string() +
                       ": it is also the sweep file (" + named.string() + ")\n");
  EXPECT_EQ(read_file(named), kSweep);

  // A script that exists is replaced by a new file, executable; no temporary is left.
  f.dir.write("job/job.sh", "old\n");
  fs::permissions(script, fs::perms::owner_read | fs::perms::owner_write);
  r = mmsim(f.command() + results + " --emit-slurm " + shell_word(f.dir / "job"));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read_file(script).rfind("#!/bin/sh\n", 0), 0u);
  EXPECT_NE(fs::status(script).permissions() & fs::perms::owner_exec, fs::perms::none);
  EXPECT_EQ(TempDir::names_of(f.dir / "job"), std::vector<std::string>{"job.sh"});

  // A folder that is a file is named with its option, and nothing is removed.
  f.dir.write("afile", "mine\n");
  r = mmsim(f.command() + results + " --emit-slurm " + shell_word(f.dir / "afile"));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "mmsim: --emit-slurm: " + (f.dir / "afile").string() + " exists and is not a folder\n");
  EXPECT_EQ(read_file(f.dir / "afile"), "mine\n");
}

// Values that would add a line to the job script are refused; a value written into it is one
// word; SLURM's own time formats all pass.
TEST(SweepOutputs, EveryValueWrittenIntoTheJobScriptIsCheckedOrQuoted) {
  SweepFolder f;
  const std::string base = f.command() + " --results " + shell_word(f.dir / "r.jsonl") +
                           " --emit-slurm " + shell_word(f.dir / "job");
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"--time " + sh_word("1:00\ntouch X"),
       "--time: expected a SLURM time limit: MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS or "
       "UNLIMITED, got '1:00\\ntouch X'"},
      {"--time 1:2:3:4",
       "--time: expected a SLURM time limit: MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS or "
       "UNLIMITED, got '1:2:3:4'"},
      {"--partition " + sh_word("short\ntouch X"),
       "--partition: expected a partition name (letters, digits, '_', '-', '.'; a list separated "
       "by commas), got 'short\\ntouch X'"},
      {"--sbatch=" + sh_word("--mem=1G\ntouch X"),
       "--sbatch: expected one sbatch option such as --mem=4G (one word: no blanks, quotes, "
       "backslashes or control characters), got '--mem=1G\\ntouch X'"},
      {"--sbatch='--comment=two words'",
       "--sbatch: expected one sbatch option such as --mem=4G (one word: no blanks, quotes, "
       "backslashes or control characters), got '--comment=two words'"},
      {"--sbatch=--account=a/b", "--sbatch: expected an account name in '--account=a/b'"},
      {"--sbatch=-t1:x",
       "--sbatch: expected a SLURM time limit (MM, MM:SS, HH:MM:SS, D-HH, ...) "
       "in '-t1:x'"},
  };
  for (const auto& [option, message] : refused) {
    const CommandResult r =
        run_command("'" + std::string(MMSIM_BINARY) + "' " + base + " " + option);
    EXPECT_EQ(r.status, 2) << option;
    EXPECT_EQ(r.err, "mmsim: " + message + "\n") << option;
    EXPECT_FALSE(fs::exists(f.dir / "job")) << option;
  }
  for (const std::string time :
       {"90", "90:30", "1:30:00", "2-12", "2-12:30", "2-12:30:15", "UNLIMITED"}) {
    const CommandResult r = mmsim(base + " --time " + time + " --partition short,long");
    EXPECT_EQ(r.status, 0) << time << r.err;
    const std::string script = read_file(f.dir / "job" / "job.sh");
    EXPECT_NE(script.find("\n#SBATCH --time=" + time + "\n"), std::string::npos) << script;
    EXPECT_NE(script.find("\n#SBATCH --partition=short,long\n"), std::string::npos);
  }
}

// A --set value with a newline and quotes reaches the task as one argument: the script, run as a
// SLURM task would run it, runs no command of the value's.
TEST(SweepOutputs, ASetValueIsOneWordOfTheJobScript) {
  SweepFolder f;
  const std::string value = "description=it's\ntouch " + (f.dir / "X").string();
  const fs::path results = f.dir / "r.jsonl";
  const CommandResult r =
      mmsim(f.command() + " --results " + shell_word(results) + " --emit-slurm " +
            shell_word(f.dir / "job") + " --array-size 1 --set " + sh_word(value));
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string script = read_file(f.dir / "job" / "job.sh");
  EXPECT_NE(
      script.find(" --set 'description=it'\\''s\ntouch " + (f.dir / "X").string() + "' --results "),
      std::string::npos)
      << script;
  const CommandResult task =
      run_command("SLURM_ARRAY_TASK_ID=0 sh " + shell_word(f.dir / "job" / "job.sh"));
  EXPECT_EQ(task.status, 0) << task.err;
  EXPECT_FALSE(fs::exists(f.dir / "X"));
  const std::string records = read_file(f.dir / "r.task-0.jsonl");
  ASSERT_FALSE(records.empty());
  EXPECT_EQ(nlohmann::json::parse(records.substr(0, records.find('\n')))["set"],
            nlohmann::json::array({value}));
}

// Records read back (--resume, --collect) are checked one by one: a bad one is named with its
// line, exit status 2, and no output is left, partial or not.
TEST(SweepResults, ACorruptedRecordIsReportedAtItsLine) {
  SweepFolder f;
  const auto results = f.dir / "r.jsonl";
  ASSERT_EQ(mmsim(f.command() + " --results " + shell_word(results)).status, 0);
  std::string first, second;
  {
    std::ifstream in(results);
    std::getline(in, first);
    std::getline(in, second);
  }
  const auto changed = [&](const std::function<void(nlohmann::json&)>& change) {
    nlohmann::json record = nlohmann::json::parse(second);
    change(record);
    return record.dump();
  };
  const std::vector<std::pair<std::string, std::string>> cases = {
      {changed([](auto& r) {
         r.erase("stats");
         r.erase("verified");
         r["error"] = 5;
       }),
       ":2: not a run's record: 'error' is a number, expected a string"},
      {changed([](auto& r) { r.erase("command"); }),
       ":2: not a run's record: no 'command' (a run's record has index, case, values, set, "
       "command, seconds, and stats with verified or error)"},
      {changed([](auto& r) { r["stats"] = 5; }),
       ":2: not a run's record: 'stats' is a number, expected an object"},
      {changed([](auto& r) { r["set"] = {1}; }),
       ":2: not a run's record: 'set' is a list, expected a list of strings"},
      {"{\"case\": ",
       ":2:10: expected a run's record (a JSON object on one line), got invalid JSON"},
      {"[1, 2]", ":2: not a run's record: expected a run's record (a JSON object), got a list"},
      {std::string(100, '[') + std::string(100, ']'),
       ":2: not a run's record: nested more than 64 levels deep"},
  };
  for (const std::string mode : {"--resume", "--collect"}) {
    for (const auto& [line, message] : cases) {
      std::ofstream(results) << first << "\n" << line << "\n" << first << "\n";
      const std::string before = read_file(results);
      const CommandResult r = mmsim(f.command() + " --results " + shell_word(results) + " " + mode +
                                    " --csv " + shell_word(f.dir / "t.csv"));
      EXPECT_EQ(r.status, 2) << mode << " " << line;
      EXPECT_EQ(r.err, "mmsim: " + results.string() + message + "\n") << mode;
      EXPECT_EQ(r.out, "");
      EXPECT_EQ(read_file(results), before);
      EXPECT_EQ(TempDir::names_of(f.dir.path()),
                (std::vector<std::string>{"base.yaml", "r.jsonl", "sw.yaml"}))
          << mode << " " << line;
    }
  }
}

// A results file beyond the limit of an input (a sparse 5 GiB file) is refused without reading it.
TEST(SweepResults, AResultsFileBeyondTheLimitIsRefused) {
  SweepFolder f;
  const auto results = f.dir / "r.jsonl";
  std::ofstream(results) << "{}\n";
  fs::resize_file(results, std::uintmax_t{5} << 30);
  const CommandResult r = mmsim(f.command() + " --results " + shell_word(results) + " --resume");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "mmsim: --results: cannot read " + results.string() +
                       ": it holds more than 1.0 GiB (the limit of a results file)\n");
  EXPECT_EQ(fs::file_size(results), std::uintmax_t{5} << 30);
}

}  // namespace
}  // namespace mmsim::test
