// Outputs appear complete or not at all, and never replace what they should not: temporaries
// renamed over regular files only, devices and FIFOs written in place, links followed, every
// write checked. Devices are private nodes made with mknod in a temporary folder (as root).
#include "testbench/outputs/pending_file.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "support/temp_dir.hpp"

namespace mmsim::test {
namespace {

namespace fs = std::filesystem;

std::string error_of(const fs::path& target) {
  try {
    PendingFile file(target, {"--out", 0, 0});
    file.write("x");
    file.commit();
  } catch (const InputError& e) {
    return e.describe();
  }
  return "no error";
}

TEST(PendingFile, AppearsOnlyWhenCommitted) {
  TempDir dir;
  const auto target = dir / "out.json";
  {
    PendingFile file(target);
    file.write("{}");
    EXPECT_FALSE(fs::exists(target));
    const std::vector<std::string> names = dir.names();
    ASSERT_EQ(names.size(), 1u);
    EXPECT_EQ(names[0].rfind("out.json.partial-", 0), 0u) << names[0];
  }
  EXPECT_TRUE(fs::is_empty(dir.path()));
  {
    PendingFile file(target);
    file.write("{\"a\": ");
    file.write("1}");
    file.commit();
  }
  EXPECT_EQ(read_file(target), "{\"a\": 1}");
  EXPECT_EQ(dir.names(), std::vector<std::string>{"out.json"});
}

TEST(PendingFile, ReplacesARegularFileAndKeepsItsPermissions) {
  TempDir dir;
  const auto target = dir.write("out.txt", "old content");
  fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  PendingFile file(target);
  file.write("new");
  file.commit();
  EXPECT_EQ(read_file(target), "new");
  EXPECT_EQ(fs::status(target).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
}

TEST(PendingFile, WritesThroughSymbolicLinksAndKeepsThem) {
  TempDir dir;
  fs::create_directory(dir / "data");
  fs::create_symlink("data/real.json", dir / "link.json");
  fs::create_symlink("link.json", dir / "link2.json");  // a chain
  PendingFile file(dir / "link2.json");
  file.write("42");
  file.commit();
  EXPECT_TRUE(fs::is_symlink(dir / "link2.json"));
  EXPECT_TRUE(fs::is_symlink(dir / "link.json"));
  EXPECT_EQ(read_file(dir / "data/real.json"), "42");
  EXPECT_EQ(TempDir::names_of(dir / "data"), std::vector<std::string>{"real.json"});
}

TEST(PendingFile, WritesACharacterDeviceInPlace) {
  TempDir dir;
  const auto null = dir.device("null", TempDir::kNullDevice);
  if (!null) GTEST_SKIP() << "mknod needs root";
  PendingFile file(*null);
  file.write("discarded");
  file.commit();
  EXPECT_TRUE(fs::is_character_file(*null)) << "the device was replaced";
  EXPECT_EQ(dir.names(), std::vector<std::string>{"null"});
}

TEST(PendingFile, AFullDiskFailsTheWrite) {
  TempDir dir;
  const auto full = dir.device("full", TempDir::kFullDevice);
  if (!full) GTEST_SKIP() << "mknod needs root";
  EXPECT_EQ(error_of(*full), "--out: cannot write " + full->string() + ": No space left on device");
  EXPECT_TRUE(fs::is_character_file(*full));
}

TEST(PendingFile, RefusesWhatCannotBeWrittenBeforeAnyWork) {
  TempDir dir;
  fs::create_symlink("loop2", dir / "loop1");
  fs::create_symlink("loop1", dir / "loop2");
  dir.write("file", "");
  const std::string long_name(5000, 'a');
  const std::vector<std::pair<fs::path, std::string>> cases = {
      {dir.path(), "it is a folder"},
      {dir / "no/such/out.json", "no folder " + (dir / "no/such").string()},
      {dir / "file/out.json", (dir / "file").string() + " is not a folder"},
      {dir / "loop1", "Too many levels of symbolic links"},
      {dir / long_name, "File name too long"},
  };
  for (const auto& [target, reason] : cases) {
    EXPECT_EQ(error_of(target), "--out: cannot write " + target.string() + ": " + reason);
  }
  EXPECT_EQ(dir.names(), (std::vector<std::string>{"file", "loop1", "loop2"}));
}

TEST(PendingFile, WithoutALocationTheErrorIsAtThePath) {
  TempDir dir;
  try {
    PendingFile file(dir.path());
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.describe(), dir.path().string() + ": cannot write: it is a folder");
  }
}

TEST(PendingFile, OutputFilesCommitAllOrNothing) {
  TempDir dir;
  {
    OutputFiles outputs({option_output((dir / "a.csv").string(), "--csv"),
                         option_output("", "--markdown"),
                         option_output((dir / "b.json").string(), "--json")});
    outputs.write_all({"a", "ignored", "b"});
  }
  EXPECT_EQ(read_file(dir / "a.csv"), "a");
  EXPECT_EQ(read_file(dir / "b.json"), "b");
  {
    // Opened, never written: nothing changes, nothing is left.
    OutputFiles outputs({option_output((dir / "a.csv").string(), "--csv")});
  }
  EXPECT_EQ(read_file(dir / "a.csv"), "a");
  EXPECT_EQ(dir.names(), (std::vector<std::string>{"a.csv", "b.json"}));
}

TEST(CheckDistinctFiles, RefusesAnOutputThatIsAnInputOrAnotherOutputByAnyName) {
  TempDir dir;
  const auto input = dir.write("tb.yaml", "x");
  fs::create_symlink("tb.yaml", dir / "alias.yaml");
  fs::create_hard_link(input, dir / "hard.yaml");
  NamedFile in;
  in.path = input.string();
  in.where.file = input.string();
  in.role = "the testbench";
  const auto error = [&](const std::vector<NamedFile>& outputs) -> std::string {
    try {
      check_distinct_files({in}, outputs);
    } catch (const InputError& e) {
      return e.describe();
    }
    return "no error";
  };
  for (const fs::path& same : {input, dir / "alias.yaml", dir / "hard.yaml", dir / "./tb.yaml"})
    EXPECT_EQ(error({option_output(same.string(), "--stats")}),
              "--stats: cannot write " + same.string() + ": it is also the testbench (" +
                  input.string() + ")");
  const std::string x = (dir / "x.json").string();
  const std::string dot_x = (dir / "." / "x.json").string();
  EXPECT_EQ(error({option_output(x, "--vcd"), option_output(dot_x, "--stats")}),
            "--stats: cannot write " + dot_x + ": it is also the output of --vcd (" + x + ")");
  EXPECT_EQ(error({option_output(x, "--vcd"), option_output((dir / "y.json").string(), "--stats")}),
            "no error");
  if (const auto null = dir.device("null", TempDir::kNullDevice)) {
    EXPECT_EQ(
        error({option_output(null->string(), "--vcd"), option_output(null->string(), "--stats")}),
        "no error");
  }
}

// A signal that comes while the temporary is being made waits until it is registered, then
// removes it: the process ends by the signal and leaves nothing (the window between making a
// path and registering it is closed by RemovalSignalsHeld, as every output does).
TEST(PendingFile, ASignalWhileTheTemporaryIsMadeRemovesIt) {
  TempDir dir;
  TempDir marks;  // "made": the child got past making the temporary with the signal pending
  const pid_t child = ::fork();
  if (child == 0) {
    {
      const RemovalSignalsHeld held;
      ::kill(::getpid(), SIGTERM);  // pending until `held` ends
      PendingFile file(dir / "out.json");
      file.write("{}");
      if (dir.names().size() != 1) ::_exit(3);  // the temporary exists, registered
      marks.write("made", "");
    }
    ::_exit(4);  // not reached: the signal ends the process
  }
  int raw = 0;
  ASSERT_EQ(::waitpid(child, &raw, 0), child);
  EXPECT_TRUE(WIFSIGNALED(raw) && WTERMSIG(raw) == SIGTERM) << "status " << raw;
  EXPECT_TRUE(fs::exists(marks / "made"));
  EXPECT_TRUE(fs::is_empty(dir.path())) << dir.names().front();
}

}  // namespace
}  // namespace mmsim::test
