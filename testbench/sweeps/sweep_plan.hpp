// A sweep expanded into its runs: every case, every combination of the grid, each position of
// the zip lists, the derived values computed, the conditions applied.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "testbench/outputs/provenance.hpp"
#include "testbench/sweeps/sweep_file.hpp"

namespace mmsim {

struct SweepRun {
  std::size_t index = 0;  // position in the sweep's order
  std::size_t case_index = 0;
  std::vector<std::string> values{};       // one per Sweep::keys(), as written (derived: decimal)
  std::vector<std::string> assignments{};  // the run's --set options, in the order applied
  std::string error{};  // a derived value or condition that could not be computed
};

struct SweepPlan {
  std::vector<SweepRun> runs;
  std::uint64_t combinations = 0;  // before the conditions
};

// The runs in the sweep's order (case by case; the grid's last key varies fastest, zip's lists
// inside it). Throws InputError, before expanding anything, when the cases and values make more
// than `max_runs` combinations.
SweepPlan plan_sweep(const Sweep& sweep, std::uint64_t max_runs);

// What a results record says about its run before the run: index, case, values (typed), the
// sweep's --set options, and the command that reproduces it.
nlohmann::json run_head(const Sweep& sweep, const SweepRun& run);
// The identity of the run a record (or a head) describes: its case, values and --set options.
std::string run_identity(const nlohmann::json& record);

}  // namespace mmsim
