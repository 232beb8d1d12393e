// mmsim: run testbenches on the memory machine models, list what is available.
#include <CLI/CLI.hpp>

#include "testbench/commands.hpp"
#include "testbench/plan_command.hpp"
#include "testbench/sweep_command.hpp"

int main(int argc, char** argv) {
  CLI::App app{"mmsim - cycle-accurate simulator of the memory machine models of GPUs"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "mmsim 0.1.0");

  mmsim::RunCommand run;
  CLI::App* run_app = app.add_subcommand("run", "simulate a YAML testbench and report");
  run_app->add_option("testbench", run.testbench, "testbench YAML file")->required();
  run_app->add_option("--set", run.overrides, "override a testbench value: key.path=value")
      ->allow_extra_args(false);
  run_app->add_option("--vcd", run.vcd, "write a waveform (VCD) to this file");
  run_app->add_option("--stats", run.stats, "write the statistics (JSON) to this file");
  run_app
      ->add_option("--policies", run.policies,
                   "run once per dispatch policy (all, or a comma-separated list) and print a "
                   "table; output files get the policy's name before their extension")
      ->delimiter(',');

  mmsim::CongestionCommand congestion;
  CLI::App* congestion_app = app.add_subcommand(
      "congestion", "the congestion experiment of seed 002 (section VI, Table II)");
  // The last of a repeated option wins, so that scripts can override their defaults.
  congestion_app->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  congestion_app->add_option("--width", congestion.widths, "widths w: a list such as 16,32,64")
      ->capture_default_str();
  congestion_app
      ->add_option("--super-warp", congestion.super_warps,
                   "super warp sizes s: a list such as 1-10")
      ->capture_default_str();
  congestion_app
      ->add_option("--array", congestion.arrays, "array sizes n: a list such as 1024,2^20")
      ->capture_default_str();
  congestion_app->add_option("--rounds", congestion.rounds, "rounds per cell")
      ->capture_default_str();
  congestion_app->add_option("--seed", congestion.seed, "seed of every random choice")
      ->capture_default_str();
  congestion_app->add_option("--map", congestion.map, "address map (mmsim list maps)")
      ->capture_default_str();
  congestion_app->add_option("--threads", congestion.threads, "worker threads (0: one per core)")
      ->capture_default_str();
  congestion_app->add_option("--csv", congestion.csv, "write the cells as CSV to this file");
  congestion_app->add_option("--json", congestion.json, "write the cells as JSON to this file");

  std::string what;
  CLI::App* list_app = app.add_subcommand(
      "list", "list machine models, address maps, dispatch policies and programs");
  list_app->add_option("what", what, "models, maps, policies or programs (default: all)");

  mmsim::PlanCommand plan;
  CLI::App* plan_app =
      app.add_subcommand("plan", "plan an offline permutation and write its schedule");
  plan_app->add_option("--n", plan.n, "array size")->required();
  plan_app->add_option("--width", plan.width, "machine width w")->required();
  plan_app->add_option("--permutation", plan.permutation,
                       "random[:seed] | bit_reversal | transpose | stride[:s] | identity | FILE "
                       "(one destination per line)");
  plan_app->add_option("--seed", plan.seed, "seed of a random permutation");
  plan_app->add_option("--machine", plan.machine, "dmm (Theorem 6) or umm (Theorem 8)");
  plan_app->add_option("--algorithm", plan.algorithm,
                       "edge colouring: automatic | matching_decomposition | euler_split");
  plan_app->add_option("--out", plan.out, "write the schedule to this file");
  plan_app->add_option("--stats", plan.stats, "write statistics (JSON) to this file");

  mmsim::SweepCommand sweep;
  CLI::App* sweep_app = app.add_subcommand(
      "sweep", "run a testbench over cases and values on all cores, or as a SLURM job array");
  sweep_app->add_option("sweep", sweep.sweep, "sweep YAML file")->required();
  sweep_app->add_option("--set", sweep.overrides, "override a value in every run: key.path=value")
      ->allow_extra_args(false);
  sweep_app->add_option("--markdown", sweep.markdown, "write the table (markdown) to this file");
  sweep_app->add_option("--csv", sweep.csv, "write the table (CSV, typed values) to this file");
  sweep_app->add_option("--json", sweep.json, "write the table (JSON, typed values) to this file");
  sweep_app->add_option("--results", sweep.results,
                        "append each finished run to this JSON-lines file (default: the "
                        "sweep file's name with .results.jsonl, here)");
  sweep_app->add_flag("--resume", sweep.resume, "keep the results file and run what it lacks");
  sweep_app->add_flag("--collect", sweep.collect,
                      "run nothing: the table from the results file and its SLURM tasks' files");
  sweep_app->add_option("--jobs,-j", sweep.jobs, "worker processes (0: one per core)")
      ->capture_default_str();
  sweep_app->add_option("--max-runs", sweep.max_runs, "refuse sweeps of more runs than this")
      ->capture_default_str();
  sweep_app->add_flag("--slurm", sweep.slurm, "submit the sweep as a SLURM job array (sbatch)");
  sweep_app->add_flag("--wait", sweep.wait, "with --slurm: wait for the job, then collect");
  sweep_app->add_option("--emit-slurm", sweep.emit_slurm,
                        "only write the SLURM job script into this folder");
  sweep_app->add_option("--partition", sweep.partition, "SLURM partition");
  sweep_app->add_option("--time", sweep.time, "SLURM time limit per task");
  sweep_app
      ->add_option("--array-size", sweep.array_size,
                   "SLURM array tasks (0: one per run, at most 100)")
      ->capture_default_str();
  sweep_app
      ->add_option("--cpus-per-task", sweep.cpus_per_task,
                   "cores per SLURM task (its worker processes)")
      ->capture_default_str();
  sweep_app
      ->add_option("--sbatch", sweep.sbatch_options,
                   "another #SBATCH line for the job script, e.g. --sbatch=--mem=4G")
      ->allow_extra_args(false);
  sweep_app->add_option("--task", sweep.task, "I/K: run task I of K (the SLURM job script's)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  if (*run_app) return mmsim::run_command(run);
  if (*plan_app) return mmsim::plan_command(plan);
  if (*sweep_app) return mmsim::sweep_command(sweep);
  if (*congestion_app) return mmsim::congestion_command(congestion);
  return mmsim::list_command(what);
}
