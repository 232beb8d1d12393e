#include "testbench/run/runner.hpp"

#include <filesystem>
#include <iterator>
#include <map>
#include <memory>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/machine/resolved_machine.hpp"
#include "hw/support/counted.hpp"
#include "hw/support/errors.hpp"
#include "sw/program/model_bounds.hpp"
#include "sw/program/program_error.hpp"
#include "testbench/input/expect_figures.hpp"
#include "testbench/input/memory_budget.hpp"
#include "testbench/outputs/pending_file.hpp"
#include "testbench/run/output_parts.hpp"
#include "testbench/run/resolved_testbench.hpp"

namespace mmsim {
namespace {

// A program parameter found wrong, located in the testbench.
InputError param_error(const Testbench& tb, const ParamError& e) {
  return InputError(tb.locate("program.params." + e.param()),
                    "program.params." + e.param() + ": " + e.what());
}

// An error about a file as a whole (it cannot be opened, it is too large), found by a program
// in a file that a parameter names: located at that parameter in the testbench, the file named.
InputError file_error(const Testbench& tb, const InputError& e) {
  if (e.where().line > 0) return e;
  for (const ParamSpec& spec : tb.info().params) {
    if (spec.type != ParamType::string || !tb.args.params.has(spec.name)) continue;
    const std::string& value = tb.args.params.string(spec.name);
    if (value.empty() || (tb.args.base_dir / value).string() != e.where().file) continue;
    const std::string key = "program.params." + spec.name;
    return InputError(tb.locate(key), key + ": " + e.where().file + ": " + e.what());
  }
  return e;
}

std::unique_ptr<WarpProgram> make_program(const Testbench& tb) {
  const ProgramInfo& info = tb.info();
  try {
    if (info.made_bytes) check_input_memory(tb, info.made_bytes(tb.args));
    return info.make(tb.args);
  } catch (const ParamError& e) {
    throw param_error(tb, e);
  } catch (const InputError& e) {
    throw file_error(tb, e);
  }
}

// Builds the program's own data, once the run's memory has been accepted.
void prepare_program(const Testbench& tb, WarpProgram& program) {
  try {
    program.prepare();
  } catch (const ParamError& e) {
    throw param_error(tb, e);
  } catch (const InputError& e) {
    throw file_error(tb, e);
  }
}

// The machine as it will run, resolved once: the model's rules, the thread count (the
// program's own when the testbench leaves it out), the checks; then the memory sizes the
// program needs on it.
ResolvedMachine machine_for(const Testbench& tb, WarpProgram& program) {
  const auto invalid = [&](const ConfigError& e) {
    return InputError(tb.locate("machine." + e.key()), "machine." + e.key() + ": " + e.what());
  };
  DefaultThreads default_threads;
  if (!tb.threads_given)
    default_threads = [&](const MachineConfig& ruled) {
      const std::uint64_t threads = program.default_threads(ruled);
      if (threads == 0)
        throw InputError(tb.locate("machine"), "machine: missing required key 'threads' (program " +
                                                   tb.program + " has no thread count of its own)");
      if (threads > kMaxThreads)
        throw ProgramError("program " + tb.program + "'s default_threads() returned " +
                           std::to_string(threads) +
                           ": expected a thread count from 1 to 2^40 (as machine.threads takes)");
      return threads;
    };
  // What the program says about its thread count is its own error, located by itself.
  const ResolvedMachine resolved = [&] {
    try {
      if (machine_model(tb.machine).one_unit && tb.where.count("machine.super_warp"))
        throw ConfigError("super_warp", "model " + tb.machine.model +
                                            " dispatches all p threads as one unit; leave "
                                            "super_warp out");
      return resolve_machine(tb.machine, default_threads);
    } catch (const ConfigError& e) {
      throw invalid(e);
    }
  }();
  try {
    program.configure(resolved);
  } catch (const ConfigError& e) {
    throw invalid(e);
  } catch (const ParamError& e) {
    throw param_error(tb, e);
  }
  const MachineConfig& m = resolved;
  const std::uint64_t words = program.memory_words();
  ResolvedMachine::MemorySizes sizes{.words = m.memory_words,
                                     .shared_words = m.shared.words,
                                     .local_words = m.local_words,
                                     .values = program.keeps_values()};
  if (m.memory_words == 0) {
    sizes.words = words;
  } else if (m.memory_words < words) {
    throw InputError(tb.locate("machine.memory"),
                     "machine.memory: program " + tb.program + " needs " + counted(words, "word") +
                         ", machine.memory gives " + std::to_string(m.memory_words));
  }
  if (machine_model(m).hierarchical) {
    const std::uint64_t shared = program.shared_words();
    if (m.shared.words == 0) {
      sizes.shared_words = std::max<std::uint64_t>(shared, 1);
    } else if (m.shared.words < shared) {
      throw InputError(tb.locate("machine.shared.memory"),
                       "machine.shared.memory: program " + tb.program + " needs " +
                           counted(shared, "word") +
                           " of shared memory per multiprocessor, "
                           "machine.shared.memory gives " +
                           std::to_string(m.shared.words));
    }
  }
  const std::uint64_t local = program.local_words();
  if (tb.where.count("machine.local_memory") == 0) {
    sizes.local_words = local;
  } else if (m.local_words < local) {
    throw InputError(tb.locate("machine.local_memory"),
                     "machine.local_memory: program " + tb.program + " needs " +
                         counted(local, "word") + " per PE, machine.local_memory gives " +
                         std::to_string(m.local_words));
  }
  try {
    return resolved.with_memory(sizes);
  } catch (const ConfigError& e) {
    throw invalid(e);
  }
}

// "0-3, 7": warp numbers as ranges, the first `shown` ranges and how many more.
std::string warp_ranges(const std::vector<std::uint64_t>& warps, std::size_t shown) {
  std::string out;
  std::size_t ranges = 0;
  for (std::size_t i = 0; i < warps.size();) {
    std::size_t j = i;
    while (j + 1 < warps.size() && warps[j + 1] == warps[j] + 1) ++j;
    if (++ranges <= shown) {
      if (!out.empty()) out += ", ";
      out += std::to_string(warps[i]);
      if (j > i) out.append(1, '-').append(std::to_string(warps[j]));
    }
    i = j + 1;
  }
  if (ranges > shown) out += " and " + std::to_string(ranges - shown) + " more ranges";
  return out;
}

// Warps first .. first + count - 1 that passed different numbers of barriers (counts[warp] of
// them): "barrier divergence: the warps<where> executed different numbers of <what>: ..." with
// each count and its warps, or "" when they agree.
std::string divergence(const std::vector<std::uint64_t>& counts, std::uint64_t first,
                       std::uint64_t count, const std::string& where, const std::string& what) {
  std::map<std::uint64_t, std::vector<std::uint64_t>> warps_by_count;
  for (std::uint64_t warp = first; warp < first + count; ++warp)
    warps_by_count[counts[warp]].push_back(warp);
  if (warps_by_count.size() <= 1) return {};
  std::string out =
      "barrier divergence: the warps" + where + " executed different numbers of " + what + ":";
  std::size_t shown = 0;
  for (const auto& [n, warps] : warps_by_count) {
    if (++shown > 8) {
      out += "; and " + std::to_string(warps_by_count.size() - 8) + " more counts";
      break;
    }
    out += (shown > 1 ? "; " : " ") + std::string(warps.size() == 1 ? "warp " : "warps ") +
           warp_ranges(warps, 6) + " executed " + std::to_string(n);
  }
  return out;
}

// Barrier divergence within each block (its syncthreads, with the grid_syncs that also stop
// it), and over the machine (grid_syncs).
std::vector<std::string> barrier_divergences(const RunResult& r, const MachineConfig& m) {
  std::vector<std::string> out;
  const std::string what =
      r.grid_syncs == 0 ? "syncthreads" : "barriers (syncthreads and grid_syncs)";
  const std::uint64_t block_warps = m.block_warps();
  for (unsigned b = 0; b < m.multiprocessors; ++b) {
    const std::string where =
        m.multiprocessors == 1 ? "" : " of multiprocessor " + std::to_string(b);
    if (std::string d = divergence(r.warp_barriers, b * block_warps, block_warps, where, what);
        !d.empty())
      out.push_back(std::move(d));
  }
  if (std::string d =
          divergence(r.warp_grid_barriers, 0, r.warp_grid_barriers.size(), "", "grid_syncs");
      !d.empty())
    out.push_back(std::move(d));
  return out;
}

// What a run reads before it is made: the testbench, the program's file (program.file) or
// library (program.library), and the files its string parameters name (a trace, a permutation,
// a schedule, input values: any program may read them, a Python program's too). No output may
// replace one of them.
std::vector<NamedFile> input_files(const Testbench& tb) {
  std::vector<NamedFile> inputs;
  inputs.push_back(
      NamedFile{tb.file.string(), SourceLocation{tb.file.string(), 0, 0}, "the testbench"});
  if (tb.external) {
    const std::string key =
        tb.external->kind == ExternalProgram::Kind::python ? "program.file" : "program.library";
    inputs.push_back({tb.external->file.string(), tb.external->file_where, "the input of " + key});
  }
  for (const ParamSpec& spec : tb.info().params) {
    if (spec.type != ParamType::string || !tb.args.params.has(spec.name)) continue;
    const std::string& value = tb.args.params.string(spec.name);
    std::error_code error;
    const std::filesystem::path file = tb.args.base_dir / value;
    if (value.empty() || !std::filesystem::is_regular_file(file, error)) continue;
    const std::string key = "program.params." + spec.name;
    inputs.push_back({file.string(), tb.locate(key), "the input of " + key});
  }
  return inputs;
}

// The files the made program says it reads besides (the traces a kernels list names).
std::vector<NamedFile> program_input_files(const Testbench& tb, const WarpProgram& program) {
  std::vector<NamedFile> inputs;
  for (const std::filesystem::path& file : program.input_files())
    inputs.push_back(
        {file.string(), tb.locate("program"), "a file program " + tb.program + " reads"});
  return inputs;
}

// The cycles a run takes, as the program's bounds on time say before it runs: at least its
// lower bound (or its exact figure), and likely the papers' order (constant 1) where that is more.
WaveformCycles expected_cycles(WarpProgram& program, const MachineConfig& machine) {
  WaveformCycles cycles;
  for (const Bound& b : bounds_for_ports(machine, program.bounds(machine, RunResult{}))) {
    if (b.measure != Bound::Measure::cycles) continue;
    const auto value = static_cast<std::uint64_t>(b.value);
    if (b.kind == Bound::Kind::lower || b.kind == Bound::Kind::exact)
      cycles.at_least = std::max(cycles.at_least, value);
    if (b.kind == Bound::Kind::order || b.kind == Bound::Kind::exact)
      cycles.likely = std::max(cycles.likely, value);
  }
  cycles.likely = std::max(cycles.likely, cycles.at_least);
  return cycles;
}

// The outcome before the run: what ran, on `machine`.
RunOutcome named_outcome(const Testbench& tb, const ResolvedMachine& machine,
                         const std::string& command) {
  RunOutcome o;
  o.name = tb.name;
  o.description = tb.description;
  o.changed_by = tb.changed_by;
  o.file = tb.file.string();
  o.program = tb.program;
  o.machine = machine;
  o.provenance = provenance_now(command.empty() ? command_line() : command);
  o.resolved = resolved_testbench(tb, o.machine);
  return o;
}

// What the run found, once it is over: barrier divergence, the program's check, the
// expectations, the verdict, the bounds, the program's figures and tables (before those a part
// drew from the run: a profile's).
void conclude(const Testbench& tb, WarpProgram& program, RunOutcome& o) {
  // Under race_check a divergence is an error: the barriers no longer separate what the
  // program meant them to (the run still ends: a finished warp no longer holds a barrier).
  for (const std::string& divergence : barrier_divergences(o.result, o.machine))
    (o.race_check ? o.errors : o.warnings).push_back(divergence);
  const Verification& v = program.verification();
  o.program_checked = v.applicable();
  o.elements_checked = v.checked();
  o.mismatches = v.mismatches();
  o.first_mismatch = v.first_mismatch();
  for (const auto& [figure, expected] : tb.expect)
    o.expectations.push_back({figure, expected, expect_figure(figure).measure(o.result)});
  if (o.program_checked || !o.expectations.empty() || o.race_check) {
    bool ok = !o.program_checked || v.passed();
    for (const Expectation& e : o.expectations) ok = ok && e.met();
    o.verified = ok && o.race_count == 0 && o.errors.empty();
  }
  o.bounds = bounds_for_ports(o.machine, program.bounds(o.machine, o.result));
  o.figures = program.figures();
  std::vector<ProgramTable> tables = program.tables();
  o.tables.insert(o.tables.begin(), std::make_move_iterator(tables.begin()),
                  std::make_move_iterator(tables.end()));
}

}  // namespace

RunOutcome preview_testbench(const Testbench& testbench) {
  std::optional<Testbench> loaded;
  const Testbench& tb = with_program_code(testbench, loaded);
  std::unique_ptr<WarpProgram> program = make_program(tb);
  RunOutcome o = named_outcome(tb, machine_for(tb, *program), "");
  check_run_memory(tb, o.machine, *program);
  prepare_program(tb, *program);  // its bounds may need what it prepares (a permutation)
  o.race_check = tb.race_check;
  o.bounds = bounds_for_ports(o.machine, program->bounds(o.machine, o.result));
  o.figures = program->figures();
  o.tables = program->tables();
  return o;
}

void check_run_outputs(const Testbench& tb, const RunOptions& options) {
  check_distinct_files(input_files(tb), OutputParts(tb, options).files());
}

RunOutcome run_testbench(const Testbench& testbench, const RunOptions& options) {
  OutputParts parts(testbench, options);
  const std::vector<NamedFile> outputs = parts.files();
  check_distinct_files(input_files(testbench), outputs);
  parts.open();  // an output that cannot be written is reported before the work

  // The run is accepted: the program's own code (program.file, program.library) runs from here.
  std::optional<Testbench> loaded;
  const Testbench& tb = with_program_code(testbench, loaded);
  std::unique_ptr<WarpProgram> program = make_program(tb);
  check_distinct_files(program_input_files(tb, *program), outputs);
  const ResolvedMachine machine = machine_for(tb, *program);
  RunOutcome o = named_outcome(tb, machine, options.command);
  check_run_memory(tb, o.machine, *program, parts.memory(o.machine));  // before big allocations
  prepare_program(tb, *program);
  const RunPlan plan{tb, o.machine, *program, expected_cycles(*program, o.machine)};
  parts.check_size(plan);
  const SimulationOptions sim_options =
      parts.simulation_options(options.progress, options.heartbeat);
  try {
    Simulation simulation(machine, sim_options);
    parts.start(simulation, plan);
    program->initialize(simulation.memory());
    o.result = simulation.run(*program);
    program->verify(simulation.memory());
    parts.finish(simulation, o, *program);
  } catch (const ProgramError&) {
    throw;  // the program's own failure (a Python exception): its own message, exit status 1
  } catch (const SimulationError& e) {
    // What the program did (an address outside memory, a deadlock): located at the program.
    throw InputError(tb.locate("program"), std::string("the run failed: ") + e.what());
  }
  conclude(tb, *program, o);
  parts.write(o);  // every output complete before any is committed
  return o;
}

}  // namespace mmsim
