// One output of a run (its statistics, its waveform, its timeline, its profile, ...): a part
// that names its files, attaches what records it to the simulation, checks its size before the
// run, renders itself and commits its files through the pending-file machinery. The runner
// (runner.cpp) goes through the parts of the outputs a run is asked for, phase by phase;
// output_parts.cpp lists every part (docs/architecture.md, "Adding an output").
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "hw/machine/simulation.hpp"
#include "sw/program/warp_program.hpp"
#include "testbench/input/memory_budget.hpp"
#include "testbench/outputs/asked_output.hpp"
#include "testbench/run/run_options.hpp"
#include "testbench/run/run_outcome.hpp"
#include "testbench/waveforms/waveform_output.hpp"

namespace mmsim {

// The run as the parts see it once its program is made and prepared.
struct RunPlan {
  const Testbench& testbench;
  const MachineConfig& machine;  // as it runs
  WarpProgram& program;
  WaveformCycles cycles;  // the run's cycles by the program's bounds on time
};

class OutputPart {
 public:
  virtual ~OutputPart() = default;

  // Its files, each located where it was asked for: none may be an input of the run or another
  // output (checked before anything runs).
  virtual std::vector<NamedFile> files() const { return {}; }
  // Makes its pending files, once the checks passed (an output that cannot be written is
  // reported before the work).
  virtual void open() {}
  // What it holds in memory while the run goes, counted in the memory check before the run.
  virtual std::vector<MemoryEstimate::Part> memory(const MachineConfig& /*machine*/) const {
    return {};
  }
  // Before the run: its size from the program's bounds on time, against its limit.
  virtual void check_size(const RunPlan& /*plan*/) {}
  // What records it, into the simulation's options; `watch`: what to call now and then while
  // the run goes (a check that throws past a limit).
  virtual void attach(SimulationOptions& /*options*/,
                      std::vector<std::function<void()>>& /*watch*/) {}
  // The simulation made, before it runs.
  virtual void start(Simulation& /*simulation*/, const RunPlan& /*plan*/) {}
  // The run over, the simulation still there: its part of the outcome.
  virtual void finish(Simulation& /*simulation*/, RunOutcome& /*outcome*/,
                      const WarpProgram& /*program*/) {}
  // The outcome complete: writes its files (every output is complete before any is committed).
  virtual void render(const RunOutcome& /*outcome*/) {}
  // Makes its files complete, and says so in the outcome (RunOutcome::written).
  virtual void commit(RunOutcome& /*outcome*/) {}
  // After every file is in place: what goes to standard output.
  virtual void write_standard_output(const RunOutcome& /*outcome*/) {}
};

// What a part is made from: the testbench, the command line's options, and its entry's name.
struct PartContext {
  const Testbench& testbench;
  const RunOptions& options;
  std::string name;  // outputs.<name>, RunOptions::outputs[name]

  // Its request, the command line's over the testbench's (`options` its option names).
  AskedOutput asked(OutputOptions options) const {
    const auto it = this->options.outputs.find(name);
    return AskedOutput(testbench, name, it == this->options.outputs.end() ? nullptr : &it->second,
                       this->options.outputs_option, std::move(options));
  }
};

// The option that asks for an output's file (--stats FILE): an empty name is refused.
void add_file_option(CLI::App& run, const std::string& option, OutputRequest& request,
                     const std::string& help);
// An option that sets one of an output's numbers (--timeline-limit 2^20), within [min, max].
void add_number_option(CLI::App& run, const std::string& option,
                       std::optional<std::uint64_t>& value, std::uint64_t min, std::uint64_t max,
                       const std::string& help);

// The options of an output that keeps a window of a run in a file of bounded size: its file
// (--vcd, `help`), its window (--vcd-from, --vcd-to: "first cycle the waveform keeps") and its
// limit in bytes (--vcd-limit), each up to 2^62.
void add_windowed_file_options(CLI::App& run, const OutputOptions& options, OutputRequest& request,
                               const std::string& help);

// An entry of the table of outputs (output_parts.cpp).
struct OutputPartInfo {
  std::string name{};  // its request's: outputs.<name>, RunOptions::outputs[name]
  // Its file in --out-dir's folder ("" : none), and whether it goes there even when the
  // testbench does not ask for it.
  std::string folder_file{};
  bool always_in_folder = false;
  // Its options of `mmsim run`, into the command line's request (nullptr: none).
  void (*add_options)(CLI::App& run, OutputRequest& request) = nullptr;
  // Its part, or nullptr when the run is not asked for it.
  std::unique_ptr<OutputPart> (*make)(const PartContext& context) = nullptr;
};

}  // namespace mmsim
