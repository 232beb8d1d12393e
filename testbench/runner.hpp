// Runs a testbench: builds the program and the machine, simulates, verifies, and writes the
// requested outputs (each complete or not at all).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "hw/machine/simulation.hpp"
#include "sw/program/bound.hpp"
#include "sw/program/warp_program.hpp"
#include "testbench/provenance.hpp"
#include "testbench/race_detector.hpp"
#include "testbench/testbench.hpp"

namespace mmsim {

// Statistics written to standard output (--stats -, or outputs.stats: "-").
inline constexpr const char* kStandardOutput = "-";

struct RunOptions {
  std::string vcd;              // overrides outputs.vcd (its file)
  WaveformOptions vcd_options;  // override the other keys of outputs.vcd
  std::string stats;            // overrides outputs.stats; kStandardOutput: one line on stdout
  std::string resolved;         // writes the resolved testbench (YAML) to this file
  bool progress = false;        // a progress line on stderr for long runs
  Cycle stats_interval = 0;     // > 0: the counters every so many time units (time_series)
  std::string command;          // recorded in the statistics; "" = this process's command line
  // The option that named vcd, stats and resolved (messages): "--out-dir" for its folder's
  // files; empty: --vcd and --stats themselves.
  std::string outputs_option;
};

struct Expectation {
  std::string figure;
  std::uint64_t expected;
  std::uint64_t measured;
  bool met() const { return expected == measured; }
};

struct RunOutcome {
  std::string name;
  std::string description;
  std::string file;
  MachineConfig machine;  // as run: thread count, memory and latency resolved
  std::string program;
  RunResult result;
  // The program's own check of its result.
  bool program_checked = false;
  std::uint64_t elements_checked = 0;
  std::uint64_t mismatches = 0;
  std::string first_mismatch;
  std::vector<Expectation> expectations;
  std::vector<Bound> bounds;
  // The race detector's findings (race_check): every race counted, the first ones listed.
  bool race_check = false;
  std::uint64_t race_count = 0;
  std::vector<RaceDetector::Race> races;
  std::vector<ProgramFigure> figures;  // what the program measured about itself
  std::vector<ProgramTable> tables;    // what it read and how it mapped it
  std::optional<bool> verified;        // none: nothing to verify
  std::vector<std::string> warnings;
  std::vector<std::string> errors;  // what failed verification besides data and expectations
  std::string vcd_file;             // written, if any
  std::string gtkw_file;            // the waveform's GTKWave save file, if any
  std::string stats_file;           // written, if any (kStandardOutput: to standard output)
  std::string resolved_file;        // written, if any
  Provenance provenance;            // who made the run, when and where
  nlohmann::ordered_json resolved;  // the testbench as it ran (resolved_testbench.hpp)
};

// Races the race detector lists (all are counted).
inline constexpr std::size_t kListedRaces = 100;

// Throws InputError (an invalid testbench) or SimulationError (a program or the hardware failed).
RunOutcome run_testbench(const Testbench& testbench, const RunOptions& options = {});

// What a run of `testbench` will report, without running it: the program made, the machine
// resolved, the bounds and the program's figures named, every measurement zero. Throws as
// run_testbench does for an invalid testbench.
RunOutcome preview_testbench(const Testbench& testbench);

// The value a bound is compared with.
double measured(const RunOutcome& outcome, const Bound& bound);

}  // namespace mmsim
