// Sweeps: one base testbench run for every case and every combination of a grid of values,
// reported as a table. A sweep file:
//
//   name: permutation-sweep
//   description: ...
//   testbench: ../permute_dmm_conflict_free_bit_reversal.yaml   # relative to the sweep file
//   cases:                       # optional; each a label and the values it sets
//     - {label: dmm straightforward, set: {machine.model: dmm, program.name:
//     permute_straightforward}}
//   grid:                        # optional; every combination, for every case
//     program.params.n: [256, 4096]
//   columns: [cycles, stages, verified, bounds.time_order.ratio]  # paths into the statistics JSON
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace mmsim {

struct Sweep {
  struct Case {
    std::string label;
    std::vector<std::string> overrides;  // "key.path=value"
  };
  std::filesystem::path file;
  std::string name;
  std::string description;
  std::filesystem::path testbench;
  std::vector<Case> cases;
  std::vector<std::pair<std::string, std::vector<std::string>>> grid;  // key, values (YAML text)
  std::vector<std::string> columns;
};

struct SweepRow {
  std::string label;                // the case
  std::vector<std::string> values;  // the grid values, in grid order
  nlohmann::json stats;             // the run's statistics (null when it could not run)
  std::string error;                // why it could not run
};

// Throws InputError for an invalid sweep file.
Sweep load_sweep(const std::filesystem::path& file);
// Runs every row; rows whose testbench is invalid for their values record the reason.
std::vector<SweepRow> run_sweep(const Sweep& sweep, const std::vector<std::string>& overrides);

std::string sweep_markdown(const Sweep& sweep, const std::vector<SweepRow>& rows,
                           const std::string& command);
std::string sweep_csv(const Sweep& sweep, const std::vector<SweepRow>& rows);
nlohmann::json sweep_json(const Sweep& sweep, const std::vector<SweepRow>& rows);

}  // namespace mmsim
