// Memory up front: runs and plans that would not fit are refused before they allocate, with the
// estimate and the memory available (MMSIM_MEMORY_LIMIT stands in for a small machine).
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "support/command.hpp"
#include "testbench/memory_budget.hpp"

namespace mmsim::test {
namespace {

const std::string kConfigs = std::string(MMSIM_SOURCE_DIR) + "/configs/";

// Sets MMSIM_MEMORY_LIMIT for one test (unset afterwards).
class MemoryLimit {
 public:
  explicit MemoryLimit(const std::string& value) { setenv("MMSIM_MEMORY_LIMIT", value.c_str(), 1); }
  ~MemoryLimit() { unsetenv("MMSIM_MEMORY_LIMIT"); }
};

// A program with host data and nothing else (run_memory asks only for host_bytes).
class HostData final : public WarpProgram {
 public:
  explicit HostData(std::uint64_t bytes) : bytes_(bytes) {}
  std::uint64_t memory_words() const override { return 0; }
  std::uint64_t host_bytes() const override { return bytes_; }
  Task run(Warp&) override { co_return; }

 private:
  std::uint64_t bytes_;
};

// The hierarchical machine adds a shared memory per multiprocessor, in rows of w banks.
TEST(MemoryBudget, TheHierarchicalMachineCountsItsSharedMemories) {
  MachineConfig m;
  m.model = "hmm";
  m.width = 32;
  m.threads = 1024;
  m.multiprocessors = 4;
  m.memory_words = 1024;
  m.shared.words = 1000;  // 32 rows of 32 cells each
  const MemoryEstimate e = run_memory(m, HostData(0), false);
  ASSERT_EQ(e.parts.size(), 4u) << e.describe();  // memory, shared memories, warps, mmsim
  EXPECT_EQ(e.parts[1].what, "4 shared memories of 1000 words");
  EXPECT_EQ(e.parts[1].bytes, 4u * 8 * 1024);
  EXPECT_EQ(e.parts[1].key, "machine.shared.memory");
  m.shared.words = std::uint64_t{1} << 28;  // 8 GiB of shared memory in all
  EXPECT_EQ(run_memory(m, HostData(0), false).largest()->key, "machine.shared.memory");
}

TEST(MemoryBudget, TheRunEstimateAddsItsParts) {
  MachineConfig m;
  m.width = 32;
  m.threads = 1024;       // 32 warps
  m.memory_words = 1000;  // 32 rows of 32 cells: 1024 cells
  m.local_words = 2;
  const MemoryEstimate e = run_memory(m, HostData(5000), false);
  ASSERT_EQ(e.parts.size(), 4u) << e.describe();
  EXPECT_EQ(e.parts[0].what, "memory: 1000 words of 8 bytes");
  EXPECT_EQ(e.parts[0].bytes, 8u * 1024);
  EXPECT_EQ(e.parts[0].key, "machine.memory");
  EXPECT_EQ(e.parts[1].what, "32 warps of 32 lanes");
  EXPECT_EQ(e.parts[1].bytes, 32u * (1024 + 32 * (48 + 8 * 2)));
  EXPECT_EQ(e.parts[2].what, "the program's data");
  EXPECT_EQ(e.parts[2].bytes, 5000u);
  EXPECT_EQ(e.parts[3].what, "mmsim itself");
  EXPECT_EQ(e.total(), 8u * 1024 + 32 * (1024 + 32 * 64) + 5000 + (16u << 20));
  EXPECT_EQ(e.largest()->key, "machine.threads");
  // The race detector: 12 bytes per cell and two 32-byte records of accesses.
  m.memory_words = 4000;  // 125 rows
  const MemoryEstimate race = run_memory(m, HostData(0), true);
  ASSERT_EQ(race.parts.size(), 4u) << race.describe();
  EXPECT_EQ(race.parts[2].what, "the race detector");
  EXPECT_EQ(race.parts[2].bytes, 4000u * 76);
  EXPECT_EQ(race.largest()->key, "machine.race_check");
}

TEST(MemoryBudget, BytesAreShownInBinaryUnits) {
  EXPECT_EQ(format_bytes(1), "1 byte");
  EXPECT_EQ(format_bytes(1000), "1000 bytes");
  EXPECT_EQ(format_bytes(1536), "1.5 KiB");
  EXPECT_EQ(format_bytes(std::uint64_t{33} << 30), "33.0 GiB");
}

TEST(MemoryBudget, TheLimitComesFromTheEnvironmentOrTheMachine) {
  {
    const MemoryLimit limit("2^30");
    const auto available = available_memory();
    ASSERT_TRUE(available);
    EXPECT_EQ(available->bytes, std::uint64_t{1} << 30);
    EXPECT_EQ(available->source, "MMSIM_MEMORY_LIMIT");
  }
  {
    const MemoryLimit limit("12k");
    try {
      available_memory();
      ADD_FAILURE();
    } catch (const InputError& e) {
      EXPECT_EQ(e.where().file, "MMSIM_MEMORY_LIMIT");
    }
  }
  // Linux: MemAvailable, or less under a cgroup limit; never more than the machine has.
  const auto available = available_memory();
  ASSERT_TRUE(available);
  EXPECT_GT(available->bytes, 0u);
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t total_kb = 0;
  meminfo >> key >> total_kb;
  ASSERT_EQ(key, "MemTotal:");
  EXPECT_LE(available->bytes, total_kb * 1024);
}

TEST(MemoryBudget, ARunThatDoesNotFitIsRefusedBeforeItStarts) {
  TempDir dir;
  dir.write("big.yaml",
            "machine: {model: dmm, width: 32, latency: 8, threads: 1024}\n"
            "program:\n"
            "  name: contiguous_access\n"
            "  params: {n: 2^20, op: read}\n"
            "outputs: {stats: out.json, vcd: out.vcd}\n");
  const auto run = [&](const std::string& limit, const std::string& options = "") {
    return run_command("cd '" + dir.path().string() + "' && MMSIM_MEMORY_LIMIT=" + limit + " '" +
                       MMSIM_BINARY + "' run big.yaml " + options);
  };
  const CommandResult refused = run("2^24");
  EXPECT_EQ(refused.status, 2);
  EXPECT_EQ(refused.out, "");
  // 8 MiB of memory, 32 warps of 2.5 KiB, 16 MiB for mmsim itself.
  EXPECT_EQ(refused.err,
            "mmsim: big.yaml:4:15: program.params.n: this run needs about 24.1 MiB (memory: 2^20 "
            "words of 8 bytes 8.0 MiB + 32 warps of 32 lanes 80.0 KiB + mmsim itself 16.0 MiB), "
            "16.0 MiB are available (MMSIM_MEMORY_LIMIT)\n");
  EXPECT_FALSE(std::filesystem::exists(dir / "out.json"));
  EXPECT_FALSE(std::filesystem::exists(dir / "out.vcd"));
  EXPECT_FALSE(std::filesystem::exists(dir / "out.vcd.partial.vcd"));

  // machine.memory sets the size when the testbench gives it.
  const CommandResult memory = run("2^24", "--set machine.memory=2^21");
  EXPECT_EQ(memory.status, 2);
  EXPECT_NE(memory.err.find("--set machine.memory=2^21: machine.memory: this run needs about "),
            std::string::npos)
      << memory.err;
  // The race detector's state per address dominates.
  const CommandResult race = run("2^24", "--set machine.race_check=true");
  EXPECT_EQ(race.status, 2);
  EXPECT_NE(race.err.find("machine.race_check: this run needs about"), std::string::npos)
      << race.err;
  EXPECT_NE(race.err.find("the race detector 76.0 MiB"), std::string::npos) << race.err;

  const CommandResult fits = run("2^26");
  EXPECT_EQ(fits.status, 0) << fits.err;
  EXPECT_TRUE(std::filesystem::exists(dir / "out.json"));
}

TEST(MemoryBudget, AProgramsHostDataIsCountedBeforeItIsBuilt) {
  // 2^30 words to permute: its permutation alone would be 8 GiB, made only if the run fits.
  TempDir dir;
  const auto bench = dir.write(
      "perm.yaml",
      "machine: {model: dmm, width: 32, latency: 8, threads: 1024}\n"
      "program: {name: permute_dmm_conflict_free, params: {n: 2^30, permutation: random}}\n");
  const CommandResult r = run_command("MMSIM_MEMORY_LIMIT=2^32 '" + std::string(MMSIM_BINARY) +
                                      "' run '" + bench.string() + "'");
  EXPECT_EQ(r.status, 2);
  // The permutation (8 GiB), the plan (4 GiB) and the planner's arrays.
  EXPECT_EQ(r.err, "mmsim: " + bench.string() +
                       ":2:56: program.params.n: this run needs about 28.1 GiB (memory: 2^31 words "
                       "of 8 bytes 16.0 GiB + 32 warps of 32 lanes 80.0 KiB + the program's data "
                       "12.1 GiB + mmsim itself 16.0 MiB), 4.0 GiB are available "
                       "(MMSIM_MEMORY_LIMIT)\n");
}

TEST(MemoryBudget, APlanThatDoesNotFitIsRefusedBeforeItStarts) {
  TempDir dir;
  const auto plan = [&](const std::string& limit) {
    return run_command("cd '" + dir.path().string() + "' && MMSIM_MEMORY_LIMIT=" + limit + " '" +
                       MMSIM_BINARY +
                       "' plan --n 1048576 --width 32 --out plan.schedule --stats plan.json");
  };
  const CommandResult refused = plan("2^24");
  EXPECT_EQ(refused.status, 2);
  EXPECT_EQ(refused.err,
            "mmsim: --n: this plan needs about 30.2 MiB (the permutation of 2^20 elements "
            "8.0 MiB + the DMM plan and its check 6.2 MiB + mmsim itself 16.0 MiB), 16.0 MiB are "
            "available (MMSIM_MEMORY_LIMIT)\n");
  EXPECT_FALSE(std::filesystem::exists(dir / "plan.schedule"));
  EXPECT_FALSE(std::filesystem::exists(dir / "plan.json"));
  const CommandResult fits = plan("2^30");
  EXPECT_EQ(fits.status, 0) << fits.err;
  EXPECT_TRUE(std::filesystem::exists(dir / "plan.schedule"));
}

}  // namespace
}  // namespace mmsim::test
