// mmsim run: simulate a YAML testbench and report (once, or once per dispatch policy).
#include <unistd.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <vector>

#include "hw/dispatch/dispatch_policy.hpp"
#include "hw/support/errors.hpp"
#include "sw/support/suggest.hpp"
#include "testbench/cli/subcommands.hpp"
#include "testbench/outputs/output_folder.hpp"
#include "sw/program/program_error.hpp"
#include "testbench/run/report.hpp"
#include "testbench/run/run_folder.hpp"
#include "testbench/run/runner.hpp"

namespace mmsim {
namespace {

struct RunCommand {
  std::string testbench;
  std::vector<std::string> overrides;
  std::string vcd;
  WaveformOptions vcd_options;  // --vcd-from, --vcd-to, --vcd-scope, --vcd-limit
  std::string stats;            // "-": standard output (the report then goes to stderr)
  // --out-dir: the folder of the run's outputs (testbench.yaml, stats.json, trace.vcd).
  std::string out_dir;
  std::uint64_t stats_interval = 0;  // --stats-interval: the counters every N time units
  bool profile = false;              // --profile: counts per source line
  std::string timeline;              // --timeline FILE.json
  std::uint64_t timeline_from = 0;
  std::optional<std::uint64_t> timeline_to;
  std::uint64_t timeline_limit = kDefaultTimelineLimit;
  // --policies: run once per dispatch policy ("all": every one) and print a table; each run's
  // output files get the policy's name before their extension (out.json -> out.random.json).
  std::vector<std::string> policies;
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
// only when the testbench asks for one.
RunOptions run_options(const RunCommand& command, Testbench& tb, const OutputFolder* folder) {
  RunOptions options;
  options.vcd = command.vcd;
  options.vcd_options = command.vcd_options;
  options.stats = command.stats;
  options.stats_interval = command.stats_interval;
  options.profile = command.profile;
  options.timeline = command.timeline;
  options.timeline_from = command.timeline_from;
  options.timeline_to = command.timeline_to.value_or(kNever);
  options.timeline_limit = command.timeline_limit;
  if (options.timeline_from > options.timeline_to)
    throw InputError({"--timeline-from", 0, 0}, "the window starts after it ends (--timeline-to " +
                                                    std::to_string(options.timeline_to) + ")");
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
    return o.stats_file == kStandardOutput;
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
    run.tb.vcd.file = for_policy(run.tb.vcd.file, policy);
    run.tb.stats = for_policy(run.tb.stats, policy);
    run.tb.timeline = for_policy(run.tb.timeline, policy);
    if (out_dir) run.folder.emplace(out_dir->path() / policy, "--out-dir");
    run.options = run_options(command, run.tb, run.folder ? &*run.folder : nullptr);
    if (!run.folder) {
      run.options.vcd = for_policy(run.options.vcd, policy);
      run.options.stats = for_policy(run.options.stats, policy);
      run.options.timeline = for_policy(run.options.timeline, policy);
    }
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
  CLI::App* run_app = app.add_subcommand("run", "simulate a YAML testbench and report");
  run_app->footer(
      "Exit status: 0 verified (or nothing to verify), 1 a check, an expectation or the race "
      "detector failed or the program itself failed (a Python program's exception), 2 invalid input or an output that cannot be written.");
  run_app->add_option("testbench", run->testbench, "testbench YAML file")->required();
  run_app->add_option("--set", run->overrides, "override a testbench value: key.path=value")
      ->allow_extra_args(false)
      ->default_str("");
  CLI::Option* vcd = run_app->add_option(
      "--vcd", run->vcd,
      "write a waveform to this file: VCD, or FST / LXT2 by the extension .fst / "
      ".lxt2; a GTKWave save file (.gtkw) is written beside it")
      ->check(output_name());
  run_app->add_option("--vcd-from", run->vcd_options.from, "first cycle the waveform shows")
      ->type_name("INT|2^k");
  run_app->add_option("--vcd-to", run->vcd_options.to, "last cycle the waveform shows")
      ->type_name("INT|2^k");
  run_app
      ->add_option("--vcd-scope", run->vcd_options.scopes,
                   "show only these scopes (glob patterns, repeatable), e.g. 'machine.warp_[0-3]'")
      ->allow_extra_args(false)
      ->default_str("");
  run_app
      ->add_option("--vcd-limit", run->vcd_options.limit,
                   "refuse a waveform estimated larger than this many bytes of VCD (default 2^30)")
      ->type_name("INT|2^k");
  CLI::Option* stats = run_app->add_option(
      "--stats", run->stats,
      "write the statistics (JSON) to this file; - writes them to standard output as one line "
      "(the report goes to standard error)")
      ->check(output_name());
  run_app
      ->add_option("--out-dir", run->out_dir,
                   "write the run's outputs into this folder (made if missing): testbench.yaml "
                   "(the testbench as it ran), stats.json, and trace.vcd when the testbench asks "
                   "for a waveform (outputs.vcd)")
      ->check(output_name())
      ->excludes(vcd)
      ->excludes(stats);
  run_app
      ->add_option("--stats-interval", run->stats_interval,
                   "add the counters every N time units to the statistics (time_series)")
      ->type_name("INT|2^k")
      ->transform(integer_in(1, std::uint64_t{1} << 40))
      ->default_str("");
  run_app->add_flag("--profile", run->profile,
                    "count every instruction at its source line (or trace line): the report's top "
                    "locations, the statistics' profile (as outputs.profile: true)");
  CLI::Option* timeline = run_app->add_option(
      "--timeline", run->timeline,
      "write the run as Chrome Trace Event JSON (open it in ui.perfetto.dev): a track per warp, "
      "a slice per instruction; one time unit = 1 us")
      ->check(output_name());
  run_app->add_option("--timeline-from", run->timeline_from, "first time unit the timeline keeps")
      ->type_name("INT|2^k")
      ->transform(integer_in(0, std::uint64_t{1} << 62))
      ->default_str("")
      ->needs(timeline);
  run_app->add_option("--timeline-to", run->timeline_to, "last time unit the timeline keeps")
      ->type_name("INT|2^k")
      ->transform(integer_in(0, std::uint64_t{1} << 62))
      ->default_str("")
      ->needs(timeline);
  run_app
      ->add_option("--timeline-limit", run->timeline_limit,
                   "refuse a timeline estimated larger than this many bytes (default 2^30)")
      ->type_name("INT|2^k")
      ->transform(integer_in(1, std::uint64_t{1} << 62))
      ->default_str("")
      ->needs(timeline);
  run_app
      ->add_option("--policies", run->policies,
                   "run once per dispatch policy (all, or a comma-separated list) and print a "
                   "table; output files get the policy's name before their extension")
      ->delimiter(',')
      ->default_str("");
  return {run_app, [run] { return run_command(*run); }};
}

}  // namespace mmsim
