// The cluster engine of sweeps: a SLURM job array. Task I of K runs the runs I, I+K, I+2K, ...
// of the sweep (skipping those the results already hold) with `mmsim sweep --task I/K` and
// appends them to a results file of its own beside the sweep's; `mmsim sweep --collect` (or
// --resume) merges them into the table.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace mmsim {

struct SlurmJob {
  std::string name;                    // the sweep's
  std::filesystem::path mmsim;         // absolute
  std::filesystem::path sweep;         // as given: relative to workdir
  std::filesystem::path results;       // as given: relative to workdir
  std::filesystem::path folder;        // the job script and the tasks' output (absolute)
  std::filesystem::path workdir;       // where the tasks run: the submitting folder
  std::vector<std::string> overrides;  // --set
  std::uint64_t max_runs = 0;
  std::size_t tasks = 1;
  unsigned cpus_per_task = 1;
  std::string partition;                    // empty: the cluster's default
  std::string time;                         // empty: the partition's default
  std::vector<std::string> sbatch_options;  // more #SBATCH lines, as given
};

// Writes the job script (folder/job.sh, executable) and returns its path; throws
// std::system_error when it cannot.
std::filesystem::path write_slurm_job(const SlurmJob& job);

// Submits the script with sbatch; returns the job id. Throws std::runtime_error with sbatch's
// own message when it refuses (or cannot be found).
std::string submit_slurm_job(const std::filesystem::path& script);

// Returns once no task of the job is pending or running (squeue).
void wait_for_slurm_job(const std::string& id);

}  // namespace mmsim
