// Runs a testbench: builds the program and the machine, simulates, verifies, and writes the
// requested outputs (each complete or not at all).
#pragma once

#include <functional>
#include <string>

#include "testbench/input/testbench.hpp"
#include "testbench/run/run_outcome.hpp"
#include "testbench/run/timeline.hpp"

namespace mmsim {

struct RunOptions {
  std::string vcd;              // overrides outputs.vcd (its file)
  WaveformOptions vcd_options;  // override the other keys of outputs.vcd
  std::string stats;            // overrides outputs.stats; kStandardOutput: one line on stdout
  std::string resolved;         // writes the resolved testbench (YAML) to this file
  bool progress = false;        // a progress line on stderr for long runs
  // Called now and then while the machine runs; it may throw to stop the run (the Python API's
  // Ctrl-C: the run unwinds, removing what it had begun).
  std::function<void()> heartbeat;
  Cycle stats_interval = 0;     // > 0: the counters every so many time units (time_series)
  bool profile = false;         // --profile: as outputs.profile: true
  std::string timeline;         // overrides outputs.timeline (its file)
  Cycle timeline_from = 0;      // the window of time units the timeline keeps
  Cycle timeline_to = kNever;
  std::uint64_t timeline_limit = kDefaultTimelineLimit;  // bytes refused beyond
  std::string command;  // recorded in the statistics; "" = this process's command line
  // The option that named vcd, stats and resolved (messages): "--out-dir" for its folder's
  // files; empty: --vcd and --stats themselves.
  std::string outputs_option;
};

// Refuses (InputError at the option or key that named it) an output of the run that is a file
// the run reads (the testbench, the program's file or library, a file a string parameter names)
// or another of its outputs: the same file by any name. run_testbench checks this first, and
// again once the program is made, against the files it says it reads.
void check_run_outputs(const Testbench& testbench, const RunOptions& options);

// Throws InputError (an invalid testbench) or SimulationError (a program or the hardware failed).
RunOutcome run_testbench(const Testbench& testbench, const RunOptions& options = {});

// What a run of `testbench` will report, without running it: the program made, the machine
// resolved, the bounds and the program's figures named, every measurement zero. Throws as
// run_testbench does for an invalid testbench.
RunOutcome preview_testbench(const Testbench& testbench);

}  // namespace mmsim
