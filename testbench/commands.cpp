#include "testbench/commands.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "hw/dispatch/dispatch_policy.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/memory/address_maps.hpp"
#include "hw/support/errors.hpp"
#include "sw/programs/catalogue.hpp"
#include "sw/support/suggest.hpp"
#include "testbench/congestion_experiment.hpp"
#include "testbench/congestion_report.hpp"
#include "testbench/integer_list.hpp"
#include "testbench/output_folder.hpp"
#include "testbench/pending_file.hpp"
#include "testbench/report.hpp"
#include "testbench/runner.hpp"

namespace mmsim {
namespace {

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
  options.progress = isatty(STDERR_FILENO) != 0;
  if (folder) {
    options.stats = (folder->path() / "stats.json").string();
    options.resolved = (folder->path() / "testbench.yaml").string();
    options.outputs_option = "--out-dir";
    if (!tb.vcd.file.empty()) options.vcd = (folder->path() / "trace.vcd").string();
    tb.vcd.file.clear();
    tb.stats.clear();
  }
  return options;
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
  std::vector<RunOutcome> outcomes;
  for (const std::string& policy : names) {
    std::vector<std::string> overrides = command.overrides;
    overrides.push_back("machine.dispatch=" + policy);
    Testbench tb = load_testbench(command.testbench, overrides);
    tb.vcd.file = for_policy(tb.vcd.file, policy);
    tb.stats = for_policy(tb.stats, policy);
    std::optional<OutputFolder> folder;  // one folder per run: DIR/<policy>
    if (out_dir) folder.emplace(out_dir->path() / policy, "--out-dir");
    RunOptions options = run_options(command, tb, folder ? &*folder : nullptr);
    if (!folder) {
      options.vcd = for_policy(options.vcd, policy);
      options.stats = for_policy(options.stats, policy);
    }
    outcomes.push_back(run_testbench(tb, options));
  }
  report_stream(outcomes) << format_policy_table(outcomes);
  const bool ok = std::all_of(outcomes.begin(), outcomes.end(),
                              [](const RunOutcome& o) { return o.verified.value_or(true); });
  return ok ? 0 : 1;
}

}  // namespace

int run_command(const RunCommand& command) {
  try {
    if (!command.policies.empty()) return run_policies(command);
    Testbench tb = load_testbench(command.testbench, command.overrides);
    std::optional<OutputFolder> folder;
    if (!command.out_dir.empty()) folder.emplace(command.out_dir, "--out-dir");
    const RunOutcome outcome =
        run_testbench(tb, run_options(command, tb, folder ? &*folder : nullptr));
    report_stream({outcome}) << format_report(outcome);
    return outcome.verified.value_or(true) ? 0 : 1;
  } catch (const InputError& e) {
    std::cerr << "mmsim: " << e.describe() << "\n";
    return 2;
  } catch (const SimulationError& e) {
    std::cerr << "mmsim: " << command.testbench << ": the run failed: " << e.what() << "\n";
    return 2;
  }
}

int congestion_command(const CongestionCommand& command) {
  try {
    CongestionSpec spec;
    for (const std::uint64_t w : parse_integer_list("--width", command.widths, 1, 1 << 16))
      spec.widths.push_back(static_cast<unsigned>(w));
    for (const std::uint64_t s :
         parse_integer_list("--super-warp", command.super_warps, 0, 1 << 16))
      spec.super_warps.push_back(static_cast<unsigned>(s));
    spec.arrays = parse_integer_list("--array", command.arrays, 1, kMaxMemoryWords);
    spec.rounds = parse_integer_option("--rounds", command.rounds, 1, std::uint64_t{1} << 40);
    spec.seed = parse_integer_option("--seed", command.seed, 0, ~std::uint64_t{0});
    spec.map = command.map;
    spec.threads =
        static_cast<unsigned>(parse_integer_option("--threads", command.threads, 0, 1024));
    OutputFiles outputs(
        {option_output(command.csv, "--csv"), option_output(command.json, "--json")});
    const std::vector<CongestionCell> cells = run_congestion(spec);
    outputs.write_all({congestion_csv(cells), congestion_json(spec, cells, provenance_now())});
    std::cout << format_congestion_table(spec, cells);
    return 0;
  } catch (const InputError& e) {
    std::cerr << "mmsim: " << e.describe() << "\n";
    return 2;
  }
}

int list_command(const std::string& what) {
  const bool all = what.empty();
  if (all || what == "models") {
    std::cout << "machine models (machine.model):\n";
    for (const MachineModel& m : machine_models())
      std::cout << fmt::format("  {:<8} {} [{}]\n", m.name, m.description, m.reference);
  }
  if (all || what == "maps") {
    std::cout << (all ? "\n" : "") << "address maps (machine.address_map, dmm and sdmm):\n";
    for (const AddressMapInfo& m : address_maps())
      std::cout << fmt::format("  {:<14} {}\n", m.name, m.description);
  }
  if (all || what == "policies") {
    std::cout << (all ? "\n" : "") << "dispatch policies (machine.dispatch):\n";
    for (const PolicyInfo& p : dispatch_policies())
      std::cout << fmt::format("  {:<14} {}\n", p.name, p.description);
  }
  if (all || what == "programs") {
    std::cout << (all ? "\n" : "")
              << "programs (program.name) and their parameters (program.params):\n";
    for (const ProgramInfo& p : programs()) {
      std::cout << fmt::format("  {:<22} {} [{}]\n", p.name, p.summary, p.source);
      for (const ParamSpec& s : p.params)
        std::cout << fmt::format("      {:<12} {:<17} {:<16} {}\n", s.name, to_string(s.type),
                                 s.default_value ? "default " + *s.default_value : "required",
                                 s.help);
    }
  }
  if (!all && what != "models" && what != "maps" && what != "policies" && what != "programs") {
    std::cerr << "mmsim: list: unknown list '" << what << "'"
              << suggestion(what, {"models", "maps", "policies", "programs"}) << "\n";
    return 2;
  }
  return 0;
}

}  // namespace mmsim
