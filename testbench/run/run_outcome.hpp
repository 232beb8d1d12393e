// What a run produced, that its report, its statistics JSON and a sweep's record are made of:
// the machine as it ran, the simulation's result, the program's check and figures, the bounds,
// the expectations, the races found, the outputs written and where they came from.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/simulation.hpp"
#include "hw/observers/profile.hpp"
#include "hw/observers/race_detector.hpp"
#include "sw/program/bound.hpp"
#include "sw/program/warp_program.hpp"
#include "testbench/outputs/provenance.hpp"
#include "testbench/run/profile_report.hpp"

namespace mmsim {

// Statistics written to standard output (--stats -, or outputs.stats: "-").
inline constexpr const char* kStandardOutput = "-";

// An output a run wrote, as its report lists it: "waveform", "w.vcd  (gtkwave w.vcd w.gtkw)".
struct WrittenOutput {
  std::string label;
  std::string text;
  bool standard_output = false;  // the statistics went to standard output
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
  std::vector<std::string> changed_by;  // overrides of the machine or the program (--set)
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
  std::vector<ProgramFigure> figures;   // what the program measured about itself
  std::vector<ProgramTable> tables;     // what it read and how it mapped it
  std::optional<ProfileTable> profile;  // outputs.profile or --profile: counts per site
  ProfileView profile_view;             // how the report shows it (--profile=stages,all)
  std::optional<bool> verified;         // none: nothing to verify
  std::vector<std::string> warnings;
  std::vector<std::string> errors;     // what failed verification besides data and expectations
  std::vector<WrittenOutput> written;  // the outputs written, in the report's order
  Provenance provenance;               // who made the run, when and where
  nlohmann::ordered_json resolved;     // the testbench as it ran (resolved_testbench.hpp)
};

// Races the race detector lists (all are counted).
inline constexpr std::size_t kListedRaces = 100;

// The value a bound is compared with.
double measured(const RunOutcome& outcome, const Bound& bound);

}  // namespace mmsim
