// The cluster engine of sweeps: a SLURM job array. Task I of K runs the runs I, I+K, I+2K, ...
// of the sweep (skipping those the results already hold) with `mmsim sweep --task I/K` and
// appends them to a results file of its own beside the sweep's; `mmsim sweep --collect` (or
// --resume) merges them into the table.
//
// The job script is text that a shell runs and sbatch reads: every value written into it is
// either checked against SLURM's own syntax (a time, a partition, an #SBATCH option as one
// word) or quoted as one shell word, so that no value can add a line or a command.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace mmsim {

struct SlurmJob {
  std::string name;                    // the sweep's
  std::filesystem::path mmsim;         // absolute
  std::filesystem::path sweep;         // as given: relative to workdir
  std::filesystem::path results;       // as given: relative to workdir
  std::filesystem::path folder;        // the job script and the tasks' output (absolute)
  std::string folder_option;           // the option that names the folder (messages)
  std::filesystem::path workdir;       // where the tasks run: the submitting folder
  std::vector<std::string> overrides;  // --set
  std::uint64_t max_runs = 0;
  std::size_t tasks = 1;
  unsigned cpus_per_task = 1;
  std::string partition;                    // empty: the cluster's default
  std::string time;                         // empty: the partition's default
  std::vector<std::string> sbatch_options;  // more #SBATCH lines, as given
};

// Whether `text` is a time limit as SLURM writes one: minutes, minutes:seconds,
// hours:minutes:seconds, days-hours, days-hours:minutes, days-hours:minutes:seconds, UNLIMITED
// or INFINITE.
bool is_slurm_time(std::string_view text);
// Whether `text` is a list of partition (or account) names: letters, digits, '_', '-', '.',
// separated by commas.
bool is_slurm_names(std::string_view text);

// The job script (folder/job.sh). Throws InputError, located at the option that gave it, for a
// value that cannot be written into it (a time or a partition SLURM would not read, an #SBATCH
// option that is not one word, a path with blanks, quotes or control characters on an #SBATCH
// line).
std::string slurm_job_script(const SlurmJob& job);

// Submits the script with sbatch; returns the job id. Throws std::runtime_error with sbatch's
// own message when it refuses (or cannot be found).
std::string submit_slurm_job(const std::filesystem::path& script);

// Returns once no task of the job is pending or running (squeue).
void wait_for_slurm_job(const std::string& id);

}  // namespace mmsim
