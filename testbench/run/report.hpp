// The human-readable report of a run.
#pragma once

#include <string>
#include <vector>

#include "testbench/run/run_outcome.hpp"

namespace mmsim {

// Races the report lists (the statistics JSON lists more).
inline constexpr std::size_t kShownRaces = 10;

std::string format_report(const RunOutcome& outcome);
// One testbench run under several dispatch policies: a line per run (policy, cycles,
// syncthreads, dispatches, races under race_check, verified), then what failed.
std::string format_policy_table(const std::vector<RunOutcome>& outcomes);
// "m[48]: warp 1 read (instruction 5, cycle 87) and warp 0 write (instruction 3, cycle 92)";
// on a machine of several memories the cell names its memory ("SM 2 shared m[48]").
std::string format_race(const RaceDetector::Race& race, const RunResult& result);

}  // namespace mmsim
