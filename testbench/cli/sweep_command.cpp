// mmsim sweep: its options, into the request that sweeps/sweep_session.hpp runs.
#include <memory>

#include "testbench/cli/subcommands.hpp"
#include "testbench/sweeps/sweep_session.hpp"

namespace mmsim {

Subcommand add_sweep_command(CLI::App& app) {
  auto sweep = std::make_shared<SweepRequest>();
  CLI::App* sweep_app = add_subcommand(
      app, "sweep", "run a testbench over cases and values on all cores, or as a SLURM job array",
      "0 every run verified (or had nothing to verify), 1 a run failed its checks, 2 invalid "
      "input or an output that cannot be written, 130 interrupted (129 by SIGHUP)");
  sweep_app->add_option("sweep", sweep->sweep, "sweep YAML file")->required();
  sweep_app->add_option("--set", sweep->overrides, "override a value in every run: key.path=value")
      ->allow_extra_args(false)
      ->default_str("");
  sweep_app->add_option("--markdown", sweep->markdown, "write the table (markdown) to this file")
      ->check(output_name());
  sweep_app->add_option("--csv", sweep->csv, "write the table (CSV, typed values) to this file")
      ->check(output_name());
  sweep_app->add_option("--json", sweep->json, "write the table (JSON, typed values) to this file")
      ->check(output_name());
  sweep_app
      ->add_option("--results", sweep->results,
                   "append each finished run to this JSON-lines file (default: the "
                   "sweep file's name with .results.jsonl, here)")
      ->check(output_name());
  sweep_app->add_flag("--resume", sweep->resume, "keep the results file and run what it lacks");
  sweep_app->add_flag("--collect", sweep->collect,
                      "run nothing: the table from the results file and its SLURM tasks' files");
  sweep_app->add_option("--jobs,-j", sweep->jobs, "worker processes (0: one per core)")
      ->capture_default_str();
  sweep_app->add_option("--max-runs", sweep->max_runs, "refuse sweeps of more runs than this")
      ->capture_default_str();
  sweep_app->add_flag("--slurm", sweep->slurm, "submit the sweep as a SLURM job array (sbatch)");
  sweep_app->add_flag("--wait", sweep->wait, "with --slurm: wait for the job, then collect");
  sweep_app
      ->add_option("--emit-slurm", sweep->emit_slurm,
                   "only write the SLURM job script into this folder")
      ->check(output_name());
  sweep_app->add_option("--partition", sweep->partition, "SLURM partition");
  sweep_app->add_option("--time", sweep->time, "SLURM time limit per task");
  sweep_app
      ->add_option("--array-size", sweep->array_size,
                   "SLURM array tasks (0: one per run, at most 100)")
      ->capture_default_str();
  sweep_app
      ->add_option("--cpus-per-task", sweep->cpus_per_task,
                   "cores per SLURM task (its worker processes)")
      ->capture_default_str();
  sweep_app
      ->add_option("--sbatch", sweep->sbatch_options,
                   "another #SBATCH line for the job script, e.g. --sbatch=--mem=4G")
      ->allow_extra_args(false);
  sweep_app->add_option("--task", sweep->task, "I/K: run task I of K (the SLURM job script's)");
  return {sweep_app, [sweep] { return run_sweep(*sweep); }};
}

}  // namespace mmsim
