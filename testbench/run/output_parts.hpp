// Every output a run may write, one line each (output_parts.cpp), and the parts of one run: those
// it is asked for, taken through the run's phases together.
#pragma once

#include <memory>
#include <vector>

#include "testbench/run/output_part.hpp"
#include "testbench/run/progress_line.hpp"

namespace mmsim {

// The table of outputs, in the order the report lists what they wrote.
const std::vector<OutputPartInfo>& output_parts();

class OutputParts {
 public:
  // The parts `testbench` and `options` ask for (InputError for a request that is not valid).
  OutputParts(const Testbench& testbench, const RunOptions& options);
  OutputParts(const OutputParts&) = delete;  // the simulation's options point to it
  OutputParts& operator=(const OutputParts&) = delete;

  // Their files (check_distinct_files).
  std::vector<NamedFile> files() const;
  void open();
  std::vector<MemoryEstimate::Part> memory(const MachineConfig& machine) const;
  void check_size(const RunPlan& plan);
  // The simulation's options, with a progress line on stderr for long runs (`progress`), the
  // caller's `heartbeat` (may be empty) and the parts' checks while it runs.
  SimulationOptions simulation_options(bool progress, const std::function<void()>& heartbeat);
  void start(Simulation& simulation, const RunPlan& plan);
  void finish(Simulation& simulation, RunOutcome& outcome, const WarpProgram& program);
  // Renders every part, then commits every file, then writes standard output.
  void write(RunOutcome& outcome);

 private:
  std::vector<std::unique_ptr<OutputPart>> parts_;
  std::vector<std::function<void()>> watch_;
  std::unique_ptr<ProgressLine> progress_;
};

}  // namespace mmsim
