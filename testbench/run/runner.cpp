#include "testbench/run/runner.hpp"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>

#include "hw/machine/machine_models.hpp"
#include "hw/support/counted.hpp"
#include "hw/support/errors.hpp"
#include "sw/program/program_error.hpp"
#include "testbench/input/memory_budget.hpp"
#include "testbench/outputs/pending_file.hpp"
#include "testbench/run/resolved_testbench.hpp"
#include "testbench/run/stats_json.hpp"
#include "testbench/waveforms/gtkwave_view.hpp"
#include "testbench/waveforms/waveform_output.hpp"
#include "testbench/waveforms/waveform_pipe.hpp"
#include "testbench/waveforms/waveform_scopes.hpp"

namespace mmsim {
namespace {

// A progress line on stderr once a run has taken a couple of seconds, refreshed twice a second.
class ProgressLine {
 public:
  void update(Cycle now) {
    const auto t = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(t - start_).count();
    if (elapsed < 2.0 || elapsed - last_ < 0.5) return;
    last_ = elapsed;
    std::fprintf(stderr, "\rmmsim: simulated %llu cycles in %.1f s",
                 static_cast<unsigned long long>(now), elapsed);
    std::fflush(stderr);
    shown_ = true;
  }
  ~ProgressLine() {
    if (shown_) std::fprintf(stderr, "\r\033[K");
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  double last_ = 0;
  bool shown_ = false;
};

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
                                     .local_words = m.local_words};
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

std::vector<RaceDetector::MemoryScope> memory_scopes(Machine& machine) {
  std::vector<RaceDetector::MemoryScope> scopes;
  const bool one_block = machine.config().multiprocessors == 1;
  for (MemoryId m = 0; m < machine.memory_count(); ++m)
    scopes.push_back({machine.memory(m).words(), one_block || m != 0});
  return scopes;
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
    inputs.push_back({file.string(), tb.locate("program"), "a file program " + tb.program +
                                                                " reads"});
  return inputs;
}

// The output an option names, else the one the testbench's `key` names.
NamedFile output_file(const Testbench& tb, const std::string& path, const std::string& key,
                      const std::string& option_path, const std::string& option) {
  if (!option_path.empty()) return option_output(option_path, option);
  NamedFile file;
  file.path = path;
  file.where = tb.locate(key);
  file.role = "the output of " + key;
  return file;
}

// The outputs a run writes, each located where it was asked for.
struct RunOutputs {
  WaveformPlan wave;  // the waveform and its GTKWave view
  NamedFile stats;    // no path when they go to standard output
  bool stats_on_stdout = false;
  SourceLocation stdout_where;
  NamedFile resolved;
  NamedFile timeline;
  std::vector<NamedFile> all() const {
    std::vector<NamedFile> files = {wave.file, stats, resolved, timeline};
    for (const NamedFile& view : wave.view_files()) files.push_back(view);
    return files;
  }
};

RunOutputs name_outputs(const Testbench& tb, const RunOptions& options) {
  const std::string& named_by = options.outputs_option;
  RunOutputs out;
  out.wave =
      plan_waveform(tb, options.vcd, named_by.empty() ? "--vcd" : named_by, options.vcd_options);
  out.stats = output_file(tb, tb.stats, "outputs.stats", options.stats,
                          named_by.empty() ? "--stats" : named_by);
  out.stats_on_stdout = out.stats.path == kStandardOutput;
  out.stdout_where = out.stats.where;
  if (out.stats_on_stdout) out.stats.path.clear();
  out.resolved = option_output(options.resolved, "--out-dir");
  out.timeline = output_file(tb, tb.timeline, "outputs.timeline", options.timeline,
                             named_by.empty() ? "--timeline" : named_by);
  return out;
}

// The cycles a run takes, as the program's bounds on time say before it runs: at least its
// lower bound (or its exact figure), and likely the papers' order (constant 1) where that is more.
WaveformCycles expected_cycles(WarpProgram& program, const MachineConfig& machine) {
  WaveformCycles cycles;
  for (const Bound& b : program.bounds(machine, RunResult{})) {
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

constexpr const char* kNarrowTheTimeline =
    "narrow it to a window of time units (--timeline-from and --timeline-to), or raise the limit "
    "(--timeline-limit)";

// Why a timeline of `size` is refused, and how to narrow it.
std::string timeline_refusal(const std::string& size, const RunOptions& options) {
  return "this timeline would take " + size + " of JSON, more than the limit of " +
         format_bytes(options.timeline_limit) + ": " + kNarrowTheTimeline;
}

// Why a timeline is refused once it passes its limit while the run goes (a run with no end).
std::string timeline_passed(const RunOptions& options) {
  return "this timeline passed the limit of " + format_bytes(options.timeline_limit) +
         " of JSON while the run went on: " + kNarrowTheTimeline;
}

// What a timeline holds in memory while it is written.
MemoryEstimate::Part timeline_memory(const MachineConfig& machine) {
  const std::uint64_t memories =
      machine_model(machine).hierarchical ? 1 + machine.multiprocessors : 1;
  const std::uint64_t lanes = std::uint64_t{machine.width} * machine.super_warp;
  return {"timeline: its buffer and tables",
          Timeline::memory_bytes(machine.warps(), memories, lanes, machine.width), ""};
}

// Refuses before the run a timeline whose likely size, from the program's bounds on time, is
// past the limit: each warp issues at most one instruction per l time units (an instruction
// takes k + l - 1 >= l), and each memory takes at most one dispatch per time unit.
void check_timeline_size(const NamedFile& file, const RunOptions& options,
                         const WaveformCycles& cycles, const MachineConfig& machine) {
  const Cycle end = std::min<Cycle>(cycles.likely, options.timeline_to);
  if (end < options.timeline_from) return;
  const std::uint64_t window = end - options.timeline_from + 1;
  const std::uint64_t memories =
      machine_model(machine).hierarchical ? 1 + machine.multiprocessors : 1;
  const std::uint64_t dispatches = window * memories;
  const std::uint64_t slices =
      std::min<std::uint64_t>(machine.warps() * (window / std::max(machine.latency, 1u) + 1),
                              dispatches * machine.super_warp);
  const double bytes = static_cast<double>(slices) * kTimelineBytesPerSlice +
                       static_cast<double>(dispatches) * kTimelineBytesPerDispatch;
  const std::string size = "about " + format_bytes(static_cast<std::uint64_t>(bytes)) +
                           " (at most " + std::to_string(slices) + " slices in " +
                           std::to_string(window) + " time units)";
  if (bytes > static_cast<double>(options.timeline_limit))
    throw InputError(file.where, timeline_refusal(size, options));
  if (bytes > static_cast<double>(kWaveformNotice))
    std::fprintf(stderr, "mmsim: the timeline may take %s of JSON (limit %s)\n", size.c_str(),
                 format_bytes(options.timeline_limit).c_str());
}

// Writes `text` to standard output, every byte, or throws InputError at `where`.
void write_standard_output(const std::string& text, const SourceLocation& where) {
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(STDOUT_FILENO, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw InputError(where, std::string("cannot write the statistics to standard output: ") +
                                  std::strerror(n < 0 ? errno : ENOSPC));
    written += static_cast<std::size_t>(n);
  }
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
  o.bounds = program->bounds(o.machine, o.result);
  o.figures = program->figures();
  o.tables = program->tables();
  return o;
}

void check_run_outputs(const Testbench& tb, const RunOptions& options) {
  check_distinct_files(input_files(tb), name_outputs(tb, options).all());
}

RunOutcome run_testbench(const Testbench& testbench, const RunOptions& options) {
  const RunOutputs named = name_outputs(testbench, options);
  const WaveformPlan& wave = named.wave;
  const NamedFile& vcd = wave.file;
  const NamedFile& stats = named.stats;
  const bool stats_on_stdout = named.stats_on_stdout;
  const SourceLocation& stdout_where = named.stdout_where;
  const NamedFile& resolved = named.resolved;
  const NamedFile& timeline = named.timeline;
  const std::vector<NamedFile> outputs = named.all();
  check_distinct_files(input_files(testbench), outputs);
  // Made before the run, so that an output that cannot be written is reported before the work.
  std::optional<PendingFile> vcd_file;
  std::optional<PendingFile> stats_file;
  std::optional<PendingFile> resolved_file;
  std::optional<PendingFile> timeline_file;
  std::vector<std::unique_ptr<PendingFile>> view_files;
  if (!vcd.path.empty()) vcd_file.emplace(vcd.path, vcd.where);
  if (!stats.path.empty()) stats_file.emplace(stats.path, stats.where);
  if (!resolved.path.empty()) resolved_file.emplace(resolved.path, resolved.where);
  if (!timeline.path.empty()) timeline_file.emplace(timeline.path, timeline.where);
  for (const NamedFile& view : wave.view_files())
    view_files.push_back(std::make_unique<PendingFile>(view.path, view.where));

  // The run is accepted: the program's own code (program.file, program.library) runs from here.
  std::optional<Testbench> loaded;
  const Testbench& tb = with_program_code(testbench, loaded);
  std::unique_ptr<WarpProgram> program = make_program(tb);
  check_distinct_files(program_input_files(tb, *program), outputs);
  const ResolvedMachine machine = machine_for(tb, *program);
  RunOutcome o = named_outcome(tb, machine, options.command);
  std::vector<MemoryEstimate::Part> output_memory;
  if (timeline_file) output_memory.push_back(timeline_memory(o.machine));
  check_run_memory(tb, o.machine, *program, output_memory);  // before anything big is allocated
  prepare_program(tb, *program);

  SimulationOptions sim_options;
  std::optional<WaveformPipe> waveform;  // outlives the Simulation, which closes the trace file
  auto scopes = std::make_shared<ScopeSelection>(wave.scopes);
  if (vcd_file) {
    waveform.emplace(*vcd_file, vcd.where, wave.window, wave.format, waveform_limit(wave));
    sim_options.vcd_base = waveform->systemc_base();
    sim_options.trace_from = wave.window.from;
    sim_options.trace_to = wave.window.to;
    if (!wave.scopes.empty())
      sim_options.trace_selection = [scopes](const std::string& name) { return (*scopes)(name); };
  }
  // Now and then while the run goes: its progress line, the caller's heartbeat, and the
  // waveform's limit (the timeline checks its own as it writes).
  ProgressLine progress;
  if (options.progress || options.heartbeat || waveform)
    sim_options.progress = [&](Cycle now) {
      if (options.progress) progress.update(now);
      if (options.heartbeat) options.heartbeat();
      if (waveform) waveform->check();
    };
  std::vector<GtkwaveViewFile> view;
  sim_options.stats_interval = options.stats_interval;
  std::optional<Profile> profile;
  if (tb.profile || options.profile) sim_options.recorders.push_back(&profile.emplace());
  std::optional<BoundedWriter> timeline_writes;
  std::optional<Timeline> recorded;
  if (timeline_file) {
    check_timeline_size(timeline, options, expected_cycles(*program, o.machine), o.machine);
    timeline_writes.emplace(*timeline_file, options.timeline_limit, timeline.where,
                            timeline_passed(options));
    recorded.emplace(options.timeline_from, options.timeline_to,
                     [&timeline_writes](std::string_view piece) { timeline_writes->write(piece); });
    sim_options.recorders.push_back(&*recorded);
  }
  try {
    Simulation simulation(machine, sim_options);
    if (vcd_file) {
      if (const auto unmatched = scopes->unmatched())
        throw InputError(wave.scope_where[*unmatched],
                         "scope '" + wave.scopes[*unmatched] +
                             "' matches no signal of this machine (names look like "
                             "machine.warp_3.state, machine.memory.bank_0.entry_address: "
                             "docs/waveforms.md)");
      check_waveform_size(wave,
                          estimate_waveform(simulation.traced_signals().size(),
                                            expected_cycles(*program, o.machine), wave.window));
    }
    std::unique_ptr<RaceDetector> detector;
    if (tb.race_check) {
      detector = std::make_unique<RaceDetector>(memory_scopes(simulation.machine()), kListedRaces);
      for (MemoryId m = 0; m < simulation.machine().memory_count(); ++m)
        simulation.memory(m).set_observer(detector.get());
    }
    if (recorded) {
      std::vector<std::string> labels;
      for (MemoryId m = 0; m < simulation.machine().memory_count(); ++m)
        labels.push_back(simulation.memory(m).label());
      recorded->start(machine_model(o.machine).hierarchical ? o.machine.multiprocessors : 1,
                      std::move(labels));
    }
    program->initialize(simulation.memory());
    o.result = simulation.run(*program);
    program->verify(simulation.memory());
    if (wave.view)
      view = gtkwave_view(simulation.machine(), simulation.traced_signals(), *wave.view,
                          wave.window.from, std::min(o.result.cycles(), wave.window.to));
    if (detector) {
      o.race_check = true;
      o.race_count = detector->count();
      o.races = detector->races();
    }
  } catch (const ProgramError&) {
    throw;  // the program's own failure (a Python exception): its own message, exit status 1
  } catch (const SimulationError& e) {
    // What the program did (an address outside memory, a deadlock): located at the program.
    throw InputError(tb.locate("program"), std::string("the run failed: ") + e.what());
  }
  // Under race_check a divergence is an error: the barriers no longer separate what the
  // program meant them to (the run still ends: a finished warp no longer holds a barrier).
  for (const std::string& divergence : barrier_divergences(o.result, o.machine))
    (o.race_check ? o.errors : o.warnings).push_back(divergence);

  const Verification& v = program->verification();
  o.program_checked = v.applicable();
  o.elements_checked = v.checked();
  o.mismatches = v.mismatches();
  o.first_mismatch = v.first_mismatch();
  const std::map<std::string, std::uint64_t> figures = {
      {"cycles", o.result.cycles()},         {"dispatches", o.result.counters.dispatches},
      {"stages", o.result.counters.stages},  {"requests", o.result.counters.requests},
      {"syncthreads", o.result.syncthreads}, {"grid_syncs", o.result.grid_syncs}};
  for (const auto& [figure, expected] : tb.expect)
    o.expectations.push_back({figure, expected, figures.at(figure)});
  if (o.program_checked || !o.expectations.empty() || o.race_check) {
    bool ok = !o.program_checked || v.passed();
    for (const Expectation& e : o.expectations) ok = ok && e.met();
    o.verified = ok && o.race_count == 0 && o.errors.empty();
  }
  o.bounds = program->bounds(o.machine, o.result);
  o.figures = program->figures();
  o.tables = program->tables();
  if (profile) {
    o.profile = profile->table();
    for (ProgramTable& t : program->profile_tables(*o.profile)) o.tables.push_back(std::move(t));
  }

  // Every output is complete before any is committed. Names and paths may hold bytes that are
  // not UTF-8 (file names are bytes): JSON gets U+FFFD in their place.
  if (waveform) waveform->finish();
  if (stats_file)
    stats_file->write(stats_json(o).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
                      "\n");
  for (std::size_t i = 0; i < view.size(); ++i) view_files[i]->write(view[i].contents);
  if (resolved_file) resolved_file->write(yaml_text(o.resolved));
  if (recorded) recorded->finish();
  if (vcd_file) {
    vcd_file->commit();
    o.vcd_file = vcd.path;
  }
  for (const auto& file : view_files) file->commit();
  if (wave.view) o.gtkw_file = std::filesystem::path(vcd.path).replace_extension(".gtkw").string();
  if (stats_file) {
    stats_file->commit();
    o.stats_file = stats.path;
  }
  if (resolved_file) {
    resolved_file->commit();
    o.resolved_file = resolved.path;
  }
  if (timeline_file) {
    timeline_file->commit();
    o.timeline_file = timeline.path;
  }
  if (stats_on_stdout) {
    write_standard_output(
        stats_json(o).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n",
        stdout_where);
    o.stats_file = kStandardOutput;
  }
  return o;
}

}  // namespace mmsim
