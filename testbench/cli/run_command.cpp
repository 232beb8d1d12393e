// mmsim run: simulate a YAML testbench and report (once, or once per dispatch policy).
#include <unistd.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <vector>

#include "hw/dispatch/dispatch_policies.hpp"
#include "hw/support/errors.hpp"
#include "sw/program/program_error.hpp"
#include "sw/support/suggest.hpp"
#include "testbench/cli/subcommands.hpp"
#include "testbench/outputs/output_folder.hpp"
#include "testbench/run/output_parts.hpp"
#include "testbench/run/report.hpp"
#include "testbench/run/run_folder.hpp"
#include "testbench/run/runner.hpp"

namespace mmsim {
namespace {

struct RunCommand {
  std::string testbench;
  std::vector<std::string> overrides;
  // --out-dir: the folder of the run's outputs (testbench.yaml, stats.json, trace.vcd).
  std::string out_dir;
  // --policies: run once per dispatch policy ("all": every one) and print a table; each run's
  // output files get the policy's name before their extension (out.json -> out.random.json).
  std::vector<std::string> policies;
  // The outputs' options (each output's part declares its own) and how the run shows progress.
  RunOptions options;
};

// out.json -> out.<policy>.json (out -> out.<policy>); standard output stays.
std::string for_policy(const std::string& path, const std::string& policy) {
  if (path.empty() || path == kStandardOutput) return path;
  const std::filesystem::path p(path);
  return (p.parent_path() / (p.stem().string() + "." + policy + p.extension().string())).string();
}

// The policies --policies names, "all" standing for every one.
std::vector<std::string> policy_names(const std::vector<std::string>& given) {
  std::vector<std::string> known;
  for (const PolicyInfo& p : dispatch_policies()) known.push_back(p.name);
  if (given.size() == 1 && given.front() == "all") return known;
  for (const std::string& name : given)
    if (std::find(known.begin(), known.end(), name) == known.end())
      throw InputError({"--policies", 0, 0}, "unknown dispatch policy '" + name + "'" +
                                                 suggestion(name, known) + " (or all)");
  return given;
}

// The run's options; with --out-dir its outputs go into `folder` under fixed names, a waveform
// only when the testbench asks for one. A run of --policies names its files for its `policy`
// (out.json -> out.<policy>.json), the testbench's and the command line's, but a folder's.
RunOptions run_options(const RunCommand& command, Testbench& tb, const OutputFolder* folder,
                       const std::string& policy = "") {
  RunOptions options = command.options;
  if (!policy.empty()) {
    for (auto& [name, request] : tb.outputs) request.file = for_policy(request.file, policy);
    if (!folder)
      for (auto& [name, request] : options.outputs) request.file = for_policy(request.file, policy);
  }
  options.progress = isatty(STDERR_FILENO) != 0;
  if (folder) put_outputs_in(*folder, "--out-dir", options, tb);
  return options;
}

// What loading left out (--set of another program), on standard error before the run.
void say_notes(const Testbench& tb) {
  for (const std::string& note : tb.notes) std::cerr << "mmsim: note: " << note << "\n";
}

// The report goes to standard error when the statistics take standard output.
std::ostream& report_stream(const std::vector<RunOutcome>& outcomes) {
  const bool taken = std::any_of(outcomes.begin(), outcomes.end(), [](const RunOutcome& o) {
    return std::any_of(o.written.begin(), o.written.end(),
                       [](const WrittenOutput& w) { return w.standard_output; });
  });
  return taken ? std::cerr : std::cout;
}

int run_policies(const RunCommand& command) {
  const std::vector<std::string> names = policy_names(command.policies);
  std::optional<OutputFolder> out_dir;
  if (!command.out_dir.empty()) out_dir.emplace(command.out_dir, "--out-dir");
  // Every run's outputs are checked before the first run.
  struct PolicyRun {
    Testbench tb;
    std::optional<OutputFolder> folder;  // one folder per run: DIR/<policy>
    RunOptions options;
  };
  std::deque<PolicyRun> runs;  // in place: a folder does not move
  for (const std::string& policy : names) {
    std::vector<std::string> overrides = command.overrides;
    overrides.push_back("machine.dispatch=" + policy);
    PolicyRun& run = runs.emplace_back();
    run.tb = load_testbench(command.testbench, overrides, ProgramSwitch::drops);
    if (policy == names.front()) say_notes(run.tb);
    if (out_dir) run.folder.emplace(out_dir->path() / policy, "--out-dir");
    run.options = run_options(command, run.tb, run.folder ? &*run.folder : nullptr, policy);
    check_run_outputs(run.tb, run.options);
  }
  std::vector<RunOutcome> outcomes;
  for (PolicyRun& run : runs) outcomes.push_back(run_testbench(run.tb, run.options));
  report_stream(outcomes) << format_policy_table(outcomes);
  const bool ok = std::all_of(outcomes.begin(), outcomes.end(),
                              [](const RunOutcome& o) { return o.verified.value_or(true); });
  return ok ? 0 : 1;
}

// Exit status: 0 verified (or nothing to verify), 1 verification failed (any run, with
// --policies), 2 invalid input.
int run_command(const RunCommand& command) {
  try {
    if (!command.policies.empty()) return run_policies(command);
    Testbench tb = load_testbench(command.testbench, command.overrides, ProgramSwitch::drops);
    say_notes(tb);
    std::optional<OutputFolder> folder;
    if (!command.out_dir.empty()) folder.emplace(command.out_dir, "--out-dir");
    const RunOutcome outcome =
        run_testbench(tb, run_options(command, tb, folder ? &*folder : nullptr));
    report_stream({outcome}) << format_report(outcome);
    return outcome.verified.value_or(true) ? 0 : 1;
  } catch (const InputError& e) {
    std::cerr << "mmsim: " << e.describe() << "\n";
    return 2;
  } catch (const ProgramError& e) {
    std::cerr << "mmsim: " << command.testbench << ": the program failed: " << e.what() << "\n";
    return 1;
  } catch (const SimulationError& e) {
    std::cerr << "mmsim: " << command.testbench << ": the run failed: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace

Subcommand add_run_command(CLI::App& app) {
  auto run = std::make_shared<RunCommand>();
  CLI::App* run_app = add_subcommand(
      app, "run", "simulate a YAML testbench and report",
      "0 verified (or nothing to verify), 1 a check, an expectation or the race detector failed "
      "or the program itself failed (a Python program's exception), 2 invalid input or an "
      "output that cannot be written");
  run_app->add_option("testbench", run->testbench, "testbench YAML file")->required();
  run_app->add_option("--set", run->overrides, "override a testbench value: key.path=value")
      ->allow_extra_args(false)
      ->default_str("");
  // Each output's options, as its part declares them (testbench/run/output_parts.cpp).
  for (const OutputPartInfo& part : output_parts())
    if (part.add_options) part.add_options(*run_app, run->options.outputs[part.name]);
  run_app
      ->add_option("--out-dir", run->out_dir,
                   "write the run's outputs into this folder (made if missing): testbench.yaml "
                   "(the testbench as it ran), stats.json, and trace.vcd (timeline.json) when "
                   "the testbench asks for a waveform (a timeline)")
      ->check(output_name())
      ->excludes(run_app->get_option("--vcd"))
      ->excludes(run_app->get_option("--stats"));
  run_app
      ->add_option("--policies", run->policies,
                   "run once per dispatch policy (all, or a comma-separated list) and print a "
                   "table; output files get the policy's name before their extension")
      ->delimiter(',')
      ->default_str("");
  return {run_app, [run] { return run_command(*run); }};
}

}  // namespace mmsim
