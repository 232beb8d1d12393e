// Memory up front: runs and plans that would not fit are refused before they allocate, with the
// estimate and the memory available (MMSIM_MEMORY_LIMIT stands in for a small machine).
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "hw/mmu/mmu_pipeline.hpp"
#include "support/command.hpp"
#include "testbench/input/memory_budget.hpp"

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
  m.latency = 100;
  m.shared.latency = 4;
  const MemoryEstimate e = run_memory(m, HostData(0), false);
  // memory, shared memories, the global pipeline, the shared pipelines, warps, mmsim
  ASSERT_EQ(e.parts.size(), 6u) << e.describe();
  EXPECT_EQ(e.parts[1].what, "4 shared memories of 1000 words");
  EXPECT_EQ(e.parts[1].bytes, 4u * 8 * 1024);
  EXPECT_EQ(e.parts[1].key, "machine.shared.memory");
  EXPECT_EQ(e.parts[2].what, "the pipeline (l = 100)");
  EXPECT_EQ(e.parts[2].bytes, MmuPipeline::bytes(100));
  EXPECT_EQ(e.parts[2].key, "machine.latency");
  EXPECT_EQ(e.parts[3].what, "4 shared pipelines (l_s = 4)");
  EXPECT_EQ(e.parts[3].bytes, 4 * MmuPipeline::bytes(4));
  EXPECT_EQ(e.parts[3].key, "machine.shared.latency");
  m.shared.words = std::uint64_t{1} << 28;  // 8 GiB of shared memory in all
  EXPECT_EQ(run_memory(m, HostData(0), false).largest()->key, "machine.shared.memory");
  // A program that carries no data (a GPU trace): its memories take nothing for their words.
  m.memory_values = false;
  const MemoryEstimate no_values = run_memory(m, HostData(0), false);
  ASSERT_EQ(no_values.parts.size(), 4u) << no_values.describe();
  EXPECT_EQ(no_values.parts[0].what, "the pipeline (l = 100)");
  EXPECT_EQ(no_values.parts[1].what, "4 shared pipelines (l_s = 4)");
}

TEST(MemoryBudget, TheRunEstimateAddsItsParts) {
  MachineConfig m;
  m.width = 32;
  m.threads = 1024;       // 32 warps
  m.memory_words = 1000;  // 32 rows of 32 cells: 1024 cells
  m.local_words = 2;
  m.latency = 8;
  const MemoryEstimate e = run_memory(m, HostData(5000), false);
  ASSERT_EQ(e.parts.size(), 5u) << e.describe();
  EXPECT_EQ(e.parts[0].what, "memory: 1000 words of 8 bytes");
  EXPECT_EQ(e.parts[0].bytes, 8u * 1024);
  EXPECT_EQ(e.parts[0].key, "machine.memory");
  EXPECT_EQ(e.parts[1].what, "the pipeline (l = 8)");
  EXPECT_EQ(e.parts[1].bytes, MmuPipeline::bytes(8));
  EXPECT_EQ(e.parts[2].what, "32 warps of 32 lanes");
  EXPECT_EQ(e.parts[2].bytes, 32u * (1024 + 32 * (48 + 8 * 2)));
  EXPECT_EQ(e.parts[3].what, "the program's data");
  EXPECT_EQ(e.parts[3].bytes, 5000u);
  EXPECT_EQ(e.parts[4].what, "mmsim itself");
  EXPECT_EQ(e.total(),
            8u * 1024 + MmuPipeline::bytes(8) + 32 * (1024 + 32 * 64) + 5000 + (16u << 20));
  EXPECT_EQ(e.largest()->key, "machine.threads");
  // The race detector: 12 bytes per cell and two 16-byte records of accesses, each with its
  // share of its instruction's 24 bytes (a 32nd: 1 byte, rounded up); and the 8 batches of its
  // thread, each of 4096 accesses (72 bytes) and 2^15 addresses.
  m.memory_words = 4000;  // 125 rows
  const MemoryEstimate race = run_memory(m, HostData(0), true);
  ASSERT_EQ(race.parts.size(), 5u) << race.describe();
  EXPECT_EQ(race.parts[3].what, "the race detector");
  EXPECT_EQ(race.parts[3].bytes, 4000u * (12 + 2 * (16 + 1)) + 8 * (4096 * 72 + 32768 * 8));
  EXPECT_EQ(race.largest()->key, "machine.race_check");
}

// The pipeline holds the dispatches in flight, l + 2 of them: its ring grows with the latency,
// and so does the estimate (a ring of 2^24 stages is hundreds of MiB).
TEST(MemoryBudget, ThePipelineGrowsWithTheLatency) {
  const std::uint64_t per_stage = MmuPipeline::bytes(2) - MmuPipeline::bytes(1);
  EXPECT_EQ(MmuPipeline::bytes(1u << 24) - MmuPipeline::bytes(1u << 23), per_stage << 23);
  MachineConfig m;
  m.width = 4;
  m.threads = 16;
  m.memory_words = 16;
  m.latency = 1u << 24;
  const MemoryEstimate e = run_memory(m, HostData(0), false);
  EXPECT_EQ(e.largest()->key, "machine.latency");
  EXPECT_EQ(e.largest()->bytes, MmuPipeline::bytes(1u << 24));
  EXPECT_GE(e.largest()->bytes, (std::uint64_t{1} << 24) * sizeof(void*));
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
  // 8 MiB of memory, the pipeline, 32 warps of 2.5 KiB, 16 MiB for mmsim itself.
  EXPECT_EQ(refused.err,
            "mmsim: big.yaml:4:15: program.params.n: this run needs about 24.1 MiB (memory: 2^20 "
            "words of 8 bytes 8.0 MiB + the pipeline (l = 8) " +
                format_bytes(MmuPipeline::bytes(8)) +
                " + 32 warps of 32 lanes 80.0 KiB + mmsim itself 16.0 MiB), 16.0 MiB are "
                "available (MMSIM_MEMORY_LIMIT)\n");
  EXPECT_FALSE(std::filesystem::exists(dir / "out.json"));
  EXPECT_FALSE(std::filesystem::exists(dir / "out.vcd"));
  EXPECT_FALSE(std::filesystem::exists(dir / "out.vcd.partial.vcd"));

  // machine.memory sets the size when the testbench gives it.
  const CommandResult memory = run("2^24", "--set machine.memory=2^21");
  EXPECT_EQ(memory.status, 2);
  EXPECT_NE(memory.err.find("--set machine.memory=2^21: machine.memory: this run needs about "),
            std::string::npos)
      << memory.err;
  // The race detector's state per address dominates (46.0 MiB, and 4.25 MiB of batches).
  const CommandResult race = run("2^24", "--set machine.race_check=true");
  EXPECT_EQ(race.status, 2);
  EXPECT_NE(race.err.find("machine.race_check: this run needs about"), std::string::npos)
      << race.err;
  EXPECT_NE(race.err.find("the race detector 50.2 MiB"), std::string::npos) << race.err;

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
                       "of 8 bytes 16.0 GiB + the pipeline (l = 8) " +
                       format_bytes(MmuPipeline::bytes(8)) +
                       " + 32 warps of 32 lanes 80.0 KiB + the program's data 12.1 GiB + mmsim "
                       "itself 16.0 MiB), 4.0 GiB are available (MMSIM_MEMORY_LIMIT)\n");
}

// Every program's inputs and references are counted before they are made (the sorts' keys and
// their sorted copy, the sums' numbers), so that a run too large is refused at once, exit status
// 2, instead of aborting on std::bad_alloc while it builds them.
TEST(MemoryBudget, EveryProgramsInputIsCountedBeforeItIsMade) {
  const std::vector<std::pair<std::string, std::string>> runs = {
      {"bitonic_sort_dmm.yaml", "--set program.params.n=2^30"},
      {"merge_sort_hmm.yaml", "--set program.params.n=2^26"},
      {"cole_merge_sort_hmm.yaml", "--set program.params.n=2^26"},
      {"sum_simple.yaml", "--set program.params.n=2^30"},
      {"prefix_hybrid.yaml", "--set program.params.n=2^30"},
      {"hmm_sum.yaml", "--set program.params.n=2^30"},
      {"hmm_convolution.yaml", "--set program.params.n=2^30"},
  };
  for (const auto& [config, options] : runs) {
    const CommandResult r =
        run_command("MMSIM_MEMORY_LIMIT=2^20 '" + std::string(MMSIM_BINARY) + "' run " + kConfigs +
                    config + " " + options + " --set expect={} --set machine.race_check=false");
    EXPECT_EQ(r.status, 2) << config << r.err;
    EXPECT_NE(r.err.find(": this run needs about "), std::string::npos) << config << r.err;
    EXPECT_NE(r.err.find(" + the program's data "), std::string::npos) << config << r.err;
    EXPECT_NE(r.err.find("1.0 MiB are available (MMSIM_MEMORY_LIMIT)"), std::string::npos)
        << config << r.err;
  }
  // The sorts hold their keys and the sorted copy: 16 bytes per key.
  const CommandResult sort = run_command(
      "MMSIM_MEMORY_LIMIT=2^20 '" + std::string(MMSIM_BINARY) + "' run " + kConfigs +
      "bitonic_sort_dmm.yaml --set program.params.n=2^30 --set machine.race_check=false");
  EXPECT_NE(sort.err.find(" + the program's data 16.0 GiB + "), std::string::npos) << sort.err;
}

// A sweep whose grid holds runs too large checks them without making their inputs: those runs
// fail with the reason, the others run.
TEST(MemoryBudget, ASweepOfRunsTooLargeChecksThemWithoutMakingThem) {
  TempDir dir;
  dir.write("base.yaml", read_file(kConfigs + "bitonic_sort_dmm.yaml"));
  const auto sweep = dir.write("s.yaml",
                               "testbench: base.yaml\n"
                               "grid: {program.params.n: [2^10, 2^30], machine.race_check: "
                               "[false]}\ncolumns: [cycles, verified]\n");
  const CommandResult r =
      run_command("MMSIM_MEMORY_LIMIT=2^30 '" + std::string(MMSIM_BINARY) + "' sweep " +
                  shell_word(sweep) + " --results " + shell_word(dir / "r.jsonl") + " --jobs 1");
  EXPECT_EQ(r.status, 1) << r.err;
  std::ifstream in(dir / "r.jsonl");
  int failed = 0;
  for (std::string line; std::getline(in, line);)
    failed += line.find("this run needs about") != std::string::npos;
  EXPECT_EQ(failed, 1);
  EXPECT_NE(r.out.find("| 2^10 | false |"), std::string::npos) << r.out;
}

// A trace read from a file: its listing, estimated from the file's size and lines, is checked
// before the file is read as a trace.
TEST(MemoryBudget, ATraceFileIsCountedBeforeItIsRead) {
  TempDir dir;
  std::string csv;
  for (int i = 0; i < 20000; ++i) csv += "0,read,0,1,2,3\n";  // 300 KB: 2.4 MB at most
  dir.write("t.csv", csv);
  const auto bench = dir.write("t.yaml",
                               "machine: {model: dmm, width: 4, latency: 3, threads: 4}\n"
                               "program: {name: trace, params: {file: t.csv}}\n");
  const CommandResult refused = run_command(
      "MMSIM_MEMORY_LIMIT=17000000 '" + std::string(MMSIM_BINARY) + "' run " + shell_word(bench));
  EXPECT_EQ(refused.status, 2);
  EXPECT_EQ(
      refused.err.rfind(
          "mmsim: " + bench.string() + ":2:39: program.params.file: this run needs about ", 0),
      0u)
      << refused.err;
  EXPECT_NE(refused.err.find("(the program's input "), std::string::npos) << refused.err;
  const CommandResult fits = run_command("MMSIM_MEMORY_LIMIT=2^26 '" + std::string(MMSIM_BINARY) +
                                         "' run " + shell_word(bench));
  EXPECT_EQ(fits.status, 0) << fits.err;
}

// The address-space limit (ulimit -v) bounds the run as the machine's memory does: 2^30 words
// (8 GiB) are refused under 4 GB of address space, whatever the machine has.
TEST(MemoryBudget, TheAddressSpaceLimitIsHonoured) {
  if (run_command("ulimit -v 4000000; '" + std::string(MMSIM_BINARY) + "' --version").status != 0)
    GTEST_SKIP() << "mmsim cannot start under ulimit -v here (a sanitizer reserves its shadow)";
  TempDir dir;
  const auto bench = dir.write("rs.yaml",
                               "machine: {model: rsdmm, width: 4, latency: 3, threads: 4}\n"
                               "program:\n"
                               "  name: trace\n"
                               "  warps:\n"
                               "    - [ {read: [0, 1, 2, 2^30]} ]\n");
  const CommandResult r = run_command("ulimit -v 4000000; '" + std::string(MMSIM_BINARY) +
                                      "' run " + shell_word(bench));
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(
      r.err.rfind("mmsim: " + bench.string() + ":1:10: machine: this run needs about 8.0 GiB", 0),
      0u)
      << r.err;
  EXPECT_NE(r.err.find("are available (the address-space limit (ulimit -v) less what mmsim "
                       "maps)\n"),
            std::string::npos)
      << r.err;
}

// A latency of 2^24 makes the pipelines' rings large: refused at the key that sets it.
TEST(MemoryBudget, ALongPipelineIsRefusedAtItsLatency) {
  const std::vector<std::pair<std::string, std::string>> runs = {
      {"dmm_fig4.yaml --set machine.latency=2^24 --set expect={}",
       "mmsim: --set machine.latency=2^24: machine.latency: this run needs about "},
      {"hmm_sum.yaml --set machine.shared.latency=2^24 --set machine.multiprocessors=8",
       "mmsim: --set machine.shared.latency=2^24: machine.shared.latency: this run needs about "},
  };
  for (const auto& [run, message] : runs) {
    const CommandResult r = run_command("MMSIM_MEMORY_LIMIT=2^28 '" + std::string(MMSIM_BINARY) +
                                        "' run " + kConfigs + run);
    EXPECT_EQ(r.status, 2) << run;
    EXPECT_EQ(r.err.rfind(message, 0), 0u) << r.err;
  }
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
