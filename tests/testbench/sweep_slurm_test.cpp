// mmsim sweep --slurm on a one-node SLURM cluster started here (scripts/slurm_local): the job
// array's table equals the local pool's, byte for byte. SLURM that cannot be started is a
// failure, not a skipped test: scripts/setup installs it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/command.hpp"

namespace mmsim::test {
namespace {

const std::string kSlurmLocal = std::string(MMSIM_SOURCE_DIR) + "/scripts/slurm_local";

// Stops the cluster's daemons however the test ends.
class LocalCluster {
 public:
  explicit LocalCluster(std::filesystem::path state) : state_(std::move(state)) {
    started_ = run_command("'" + kSlurmLocal + "' start '" + state_.string() + "'");
  }
  ~LocalCluster() { run_command("'" + kSlurmLocal + "' stop '" + state_.string() + "'"); }
  LocalCluster(const LocalCluster&) = delete;
  LocalCluster& operator=(const LocalCluster&) = delete;

  const CommandResult& started() const { return started_; }
  std::string environment() const {
    return "SLURM_CONF='" + (state_ / "slurm.conf").string() + "' ";
  }

 private:
  std::filesystem::path state_;
  CommandResult started_;
};

TEST(SweepSlurm, TheJobArraysTableEqualsTheLocalPools) {
  TempDir dir;
  LocalCluster cluster(dir / "slurm");
  ASSERT_EQ(cluster.started().status, 0)
      << "SLURM could not be started on this machine (scripts/setup installs slurmctld, slurmd, "
         "slurm-client and munge; the test runs as root):\n"
      << cluster.started().out << cluster.started().err;
  EXPECT_EQ(cluster.started().out,
            "export SLURM_CONF=" + (dir / "slurm" / "slurm.conf").string() + "\n");

  dir.write("base.yaml",
            "machine: {model: dmm, width: 4, latency: 3, threads: 16}\n"
            "program: {name: contiguous_access, params: {n: 64}}\n");
  const auto sweep = dir.write("s.yaml",
                               "name: slurm-check\ntestbench: base.yaml\n"
                               "cases:\n  - {label: contiguous}\n"
                               "  - {label: stride, set: {program.name: stride_access}}\n"
                               "grid: {machine.latency: [1, 3, 9], program.params.n: [64, 128]}\n"
                               "columns: [cycles, stages, bounds.time_lower.ratio, verified]\n");
  const std::string sweep_args = "sweep '" + sweep.string() + "' --markdown '" +
                                 (dir / "t.md").string() + "' --csv '" + (dir / "t.csv").string() +
                                 "'";
  const CommandResult local =
      mmsim(sweep_args + " --results '" + (dir / "local.jsonl").string() + "'");
  ASSERT_EQ(local.status, 0) << local.err;
  const std::string local_md = read_file(dir / "t.md");
  const std::string local_csv = read_file(dir / "t.csv");
  std::filesystem::remove(dir / "t.md");
  std::filesystem::remove(dir / "t.csv");

  const auto results = dir / "slurm.jsonl";
  const CommandResult slurm =
      run_command(cluster.environment() + "'" + MMSIM_BINARY + "' " + sweep_args + " --results '" +
                  results.string() + "' --slurm --wait --array-size 2");
  ASSERT_EQ(slurm.status, 0) << slurm.out << slurm.err;
  EXPECT_NE(slurm.err.find("12 to run in 2 SLURM array tasks"), std::string::npos) << slurm.err;
  EXPECT_EQ(without_provenance(read_file(dir / "t.md")), without_provenance(local_md));
  EXPECT_EQ(read_file(dir / "t.csv"), local_csv);
  EXPECT_EQ(without_provenance(slurm.out), without_provenance(local.out));

  // Each task ran its share (runs I, I+2, ...) into its own file.
  for (int task = 0; task < 2; ++task) {
    const std::string records = read_file(dir / ("slurm.task-" + std::to_string(task) + ".jsonl"));
    EXPECT_EQ(std::count(records.begin(), records.end(), '\n'), 6) << records;
    std::istringstream lines(records);
    for (std::string line; std::getline(lines, line);)
      EXPECT_EQ(nlohmann::json::parse(line)["index"].get<int>() % 2, task) << line;
  }
  EXPECT_NE(read_file(dir / "slurm.jsonl.slurm" / "job.sh").find("#SBATCH --array=0-1\n"),
            std::string::npos);
  const CommandResult collected =
      mmsim(sweep_args + " --results '" + results.string() + "' --collect");
  EXPECT_EQ(collected.status, 0) << collected.err;
  EXPECT_EQ(without_provenance(collected.out), without_provenance(local.out));
}

}  // namespace
}  // namespace mmsim::test
