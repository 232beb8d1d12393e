// mmsim: run testbenches on the memory machine models, list what is available.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>

#include "hw/support/types.hpp"
#include "sw/program/input_error.hpp"
#include "sw/support/suggest.hpp"
#include "testbench/commands.hpp"
#include "testbench/integer_list.hpp"
#include "testbench/plan_command.hpp"
#include "testbench/provenance.hpp"
#include "testbench/standard_output.hpp"
#include "testbench/sweep_command.hpp"

namespace {

// Integer options take plain integers or 2^k within [min, max]; a negative number is refused
// (CLI11 alone would wrap it to a huge unsigned value).
CLI::Validator integer_in(std::uint64_t min, std::uint64_t max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        try {
          text = std::to_string(mmsim::parse_integer_option("", text, min, max));
          return {};
        } catch (const mmsim::InputError& e) {
          return e.what();
        }
      },
      "");
}

// The message for a mistyped command or option name, with the nearest valid one; empty when
// the command line has none.
std::string mistyped_name(CLI::App& app, int argc, char** argv) {
  int i = 1;
  while (i < argc && argv[i][0] == '-') ++i;  // --help, --version
  if (i == argc) return {};
  const std::string command = argv[i];
  const std::vector<CLI::App*> subcommands = app.get_subcommands([](CLI::App*) { return true; });
  std::vector<std::string> commands;
  for (const CLI::App* sub : subcommands) commands.push_back(sub->get_name());
  const auto sub = std::find_if(subcommands.begin(), subcommands.end(),
                                [&](const CLI::App* s) { return s->get_name() == command; });
  if (sub == subcommands.end())
    return "unknown command '" + command + "'" + mmsim::suggestion(command, commands);
  std::vector<std::string> options;
  for (const CLI::Option* option : (*sub)->get_options())
    for (const std::string& name : option->get_lnames()) options.push_back("--" + name);
  for (int j = i + 1; j < argc; ++j) {
    const std::string arg = std::string(argv[j]).substr(0, std::string(argv[j]).find('='));
    if (arg == "--") break;
    if (arg.rfind("--", 0) == 0 && std::find(options.begin(), options.end(), arg) == options.end())
      return command + ": unknown option '" + arg + "'" + mmsim::suggestion(arg, options);
  }
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  mmsim::set_command_line(argc, argv);
  CLI::App app{"mmsim - cycle-accurate simulator of the memory machine models of GPUs"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("mmsim ") + mmsim::mmsim_version());
  app.option_defaults()->always_capture_default();  // --help shows every default

  mmsim::RunCommand run;
  CLI::App* run_app = app.add_subcommand("run", "simulate a YAML testbench and report");
  run_app->footer(
      "Exit status: 0 verified (or nothing to verify), 1 a check, an expectation or the race "
      "detector failed, 2 invalid input or an output that cannot be written.");
  run_app->add_option("testbench", run.testbench, "testbench YAML file")->required();
  run_app->add_option("--set", run.overrides, "override a testbench value: key.path=value")
      ->allow_extra_args(false)
      ->default_str("");
  CLI::Option* vcd = run_app->add_option(
      "--vcd", run.vcd,
      "write a waveform to this file: VCD, or FST / LXT2 by the extension .fst / "
      ".lxt2; a GTKWave save file (.gtkw) is written beside it");
  run_app->add_option("--vcd-from", run.vcd_options.from, "first cycle the waveform shows")
      ->type_name("INT|2^k");
  run_app->add_option("--vcd-to", run.vcd_options.to, "last cycle the waveform shows")
      ->type_name("INT|2^k");
  run_app
      ->add_option("--vcd-scope", run.vcd_options.scopes,
                   "show only these scopes (glob patterns, repeatable), e.g. 'machine.warp_[0-3]'")
      ->allow_extra_args(false)
      ->default_str("");
  run_app
      ->add_option("--vcd-limit", run.vcd_options.limit,
                   "refuse a waveform estimated larger than this many bytes of VCD (default 2^30)")
      ->type_name("INT|2^k");
  CLI::Option* stats = run_app->add_option(
      "--stats", run.stats,
      "write the statistics (JSON) to this file; - writes them to standard output as one line "
      "(the report goes to standard error)");
  run_app
      ->add_option("--out-dir", run.out_dir,
                   "write the run's outputs into this folder (made if missing): testbench.yaml "
                   "(the testbench as it ran), stats.json, and trace.vcd when the testbench asks "
                   "for a waveform (outputs.vcd)")
      ->excludes(vcd)
      ->excludes(stats);
  run_app
      ->add_option("--stats-interval", run.stats_interval,
                   "add the counters every N time units to the statistics (time_series)")
      ->type_name("INT|2^k")
      ->transform(integer_in(1, std::uint64_t{1} << 40))
      ->default_str("");
  run_app
      ->add_option("--policies", run.policies,
                   "run once per dispatch policy (all, or a comma-separated list) and print a "
                   "table; output files get the policy's name before their extension")
      ->delimiter(',')
      ->default_str("");

  mmsim::CongestionCommand congestion;
  CLI::App* congestion_app = app.add_subcommand(
      "congestion", "the congestion experiment of Nakano and Matsumae 2013 (section VI, Table II)");
  congestion_app->footer(
      "Exit status: 0 done, 2 invalid options or an output that cannot be written.");
  // The last of a repeated option wins, so that scripts can override their defaults.
  congestion_app->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  congestion_app->add_option("--width", congestion.widths, "widths w: a list such as 16,32,64");
  congestion_app->add_option("--super-warp", congestion.super_warps,
                             "super warp sizes s: a list such as 1-10");
  congestion_app->add_option("--array", congestion.arrays,
                             "array sizes n: a list such as 1024,2^20");
  congestion_app->add_option("--rounds", congestion.rounds, "rounds per cell");
  congestion_app->add_option("--seed", congestion.seed, "seed of every random choice");
  congestion_app->add_option("--map", congestion.map, "address map (mmsim list maps)");
  congestion_app->add_option("--threads", congestion.threads, "worker threads (0: one per core)");
  congestion_app->add_option("--csv", congestion.csv, "write the cells as CSV to this file");
  congestion_app->add_option("--json", congestion.json, "write the cells as JSON to this file");

  std::string what;
  CLI::App* list_app = app.add_subcommand(
      "list", "list machine models, address maps, dispatch policies and programs");
  list_app->footer("Exit status: 0 listed, 2 an unknown list.");
  list_app->add_option("what", what, "models, maps, policies or programs (default: all)");

  mmsim::PlanCommand plan;
  CLI::App* plan_app =
      app.add_subcommand("plan", "plan an offline permutation and write its schedule");
  plan_app->footer(
      "Exit status: 0 planned and checked, 1 the plan failed its check, 2 invalid input or an "
      "output that cannot be written.");
  plan_app->add_option("--n", plan.n, "array size")
      ->required()
      ->default_str("")
      ->type_name("INT|2^k")
      ->transform(integer_in(1, mmsim::kMaxMemoryWords));
  plan_app->add_option("--width", plan.width, "machine width w")
      ->required()
      ->default_str("")
      ->type_name("INT|2^k")
      ->transform(integer_in(1, 1 << 16));
  plan_app->add_option("--permutation", plan.permutation,
                       "random[:seed] | bit_reversal | transpose | stride[:s] | identity | FILE "
                       "(one destination per line)");
  plan_app->add_option("--seed", plan.seed, "seed of a random permutation")
      ->type_name("INT|2^k")
      ->transform(integer_in(0, ~std::uint64_t{0}));
  plan_app->add_option("--machine", plan.machine, "dmm (Theorem 6) or umm (Theorem 8)");
  plan_app->add_option("--algorithm", plan.algorithm,
                       "edge colouring: automatic | matching_decomposition | euler_split");
  plan_app->add_option("--out", plan.out, "write the schedule to this file");
  plan_app->add_option("--stats", plan.stats, "write statistics (JSON) to this file");

  mmsim::SweepCommand sweep;
  CLI::App* sweep_app = app.add_subcommand(
      "sweep", "run a testbench over cases and values on all cores, or as a SLURM job array");
  sweep_app->footer(
      "Exit status: 0 every run verified (or had nothing to verify), 1 a run failed its checks, "
      "2 invalid input or an output that cannot be written, 130 interrupted (129 by SIGHUP).");
  sweep_app->add_option("sweep", sweep.sweep, "sweep YAML file")->required();
  sweep_app->add_option("--set", sweep.overrides, "override a value in every run: key.path=value")
      ->allow_extra_args(false)
      ->default_str("");
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

  app.footer(
      "Exit status: 0 success, 1 a verification failed, 2 invalid input or an output that "
      "cannot be written; interrupted (SIGINT, SIGTERM), mmsim removes its unfinished outputs.");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    const std::string typo = mistyped_name(app, argc, argv);
    std::cerr << "mmsim: " << (typo.empty() ? std::string(e.what()) : typo) << " (see --help)\n";
    return 2;
  }
  // Every command's standard output is checked: a write that failed makes the exit status 2.
  mmsim::CheckedStandardOutput standard_output;
  if (*run_app) return standard_output.finish(mmsim::run_command(run));
  if (*plan_app) return standard_output.finish(mmsim::plan_command(plan));
  if (*sweep_app) return standard_output.finish(mmsim::sweep_command(sweep));
  if (*congestion_app) return standard_output.finish(mmsim::congestion_command(congestion));
  return standard_output.finish(mmsim::list_command(what));
}
