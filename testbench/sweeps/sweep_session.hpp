// A sweep as `mmsim sweep` runs it: a testbench over cases and values, on a local pool of worker
// processes or as a SLURM job array, every finished run appended to a results file, the table
// at the end. The request holds the command's options as given (cli/sweep_command.cpp declares
// them).
#pragma once

#include <string>
#include <vector>

namespace mmsim {

struct SweepRequest {
  std::string sweep;                   // the sweep file
  std::vector<std::string> overrides;  // --set, applied to every run
  std::string markdown;
  std::string csv;
  std::string json;
  std::string results;     // default: <sweep file's stem>.results.jsonl in the current folder
  std::string jobs = "0";  // worker processes; 0: one per core
  std::string max_runs = "100000";
  bool resume = false;   // keep the results file and run only what it lacks
  bool collect = false;  // run nothing: the table from the results (and the SLURM tasks')
  // SLURM: --slurm writes the job script and submits it; --emit-slurm DIR only writes it.
  bool slurm = false;
  bool wait = false;  // --slurm: wait for the job, then collect
  std::string emit_slurm;
  std::string partition;
  std::string time;
  std::string array_size = "0";  // 0: one task per run, at most 100
  std::string cpus_per_task = "1";
  std::vector<std::string> sbatch_options;
  std::string task;  // "I/K": the job script's task I of K
  bool quiet = false;  // the Python API: no table on standard output, no progress
};

// Exit status: 0 every run verified (or had nothing to verify), 1 a run failed or was not
// verified (or, with --collect, results are missing), 2 invalid input, 130 interrupted (SIGINT,
// SIGTERM; 129 by SIGHUP).
int run_sweep(const SweepRequest& command);
// The same, its invalid input thrown (InputError) rather than reported: the Python API's.
int execute_sweep(const SweepRequest& command);

}  // namespace mmsim
