// A sweep file: one base testbench, run for every case and every combination of values (the
// format is in docs/sweeps.md):
//
//   name: transpose-sweep
//   testbench: ../transpose_naive_dmm.yaml        # relative to the sweep file
//   cases:                                         # optional; a label, the values it sets,
//     - {label: DMM, set: {machine.model: dmm},    #   its own grid values, derived values
//        derived: {machine.super_warp: 1}}         #   and conditions
//     - {label: RSDMM, set: {machine.model: rsdmm}, where: [width >= 4]}
//   grid:                                          # every combination (cartesian product)
//     machine.latency: [1, 2, 4]
//   zip:                                           # lists that vary together (equal lengths)
//     machine.width: [4, 8, 16]
//     program.params.n: [2^8, 2^10, 2^12]
//   derived:                                       # values computed per run
//     machine.super_warp: log2(width)
//     machine.threads: round_up(1024, super_warp*width)
//   where: [n >= width*latency]                    # runs kept only where every condition holds
//   columns: [cycles, stages, verified]            # paths into the statistics JSON
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sw/program/input_error.hpp"
#include "testbench/sweep_expression.hpp"

namespace mmsim {

// A testbench value the sweep sets: key.path = YAML text.
struct SweepAssignment {
  std::string key;
  std::string value;
  SourceLocation where;
};

// One key of the grid (or of zip) with its values.
struct SweepAxis {
  std::string key;
  SourceLocation where;
  std::vector<std::string> values{};  // YAML text, as written
  std::vector<SourceLocation> value_where{};
};

struct SweepDerived {
  std::string key;
  SourceLocation where;
  SweepExpression expression;
};

struct SweepCase {
  std::string label;
  SourceLocation where;
  std::vector<SweepAssignment> set{};
  std::vector<SweepAxis> grid{};             // replaces the sweep's axes of the same keys
  std::vector<SweepExpression> condition{};  // `where`, besides the sweep's
  // Every derived value of the sweep, in the sweep's order, with the case's own expressions
  // (its `derived`) in place of the sweep's; and the order in which to compute them.
  std::vector<SweepDerived> derived{};
  std::vector<std::size_t> derived_order{};
};

struct SweepColumn {
  std::string path;
  SourceLocation where;
};

struct Sweep {
  std::filesystem::path file;
  std::string name;
  std::string description;
  std::filesystem::path testbench;
  std::vector<SweepCase> cases;  // at least one
  std::vector<SweepAxis> grid;
  std::vector<SweepAxis> zip;
  std::vector<SweepDerived> derived;
  std::vector<SweepExpression> condition;
  std::vector<SweepColumn> columns;
  std::map<std::string, std::string> name_keys;      // each name of the expressions -> its key
  std::map<std::string, std::string> base_values;    // the base testbench's scalars, by path
  std::map<std::string, SourceLocation> base_where;  // where each is written
  std::vector<std::string> overrides;  // --set, applied to every run after the sweep's values
  // The base testbench's `expect` and `outputs`, dropped unless the sweep (its values or --set)
  // sets them: its expected figures belong to one run, its outputs would be written by every run.
  bool drop_expect = false;
  bool drop_outputs = false;

  // The keys the table shows for each run: the grid's, zip's, then the derived ones.
  std::vector<std::string> keys() const;
};

// Loads and checks a sweep file with the --set overrides of the command line. Throws InputError
// (file:line:column) for anything invalid: unknown or duplicate keys, zip lists of different
// lengths, malformed expressions, names that no sweep key answers to, derived values that
// depend on each other in a cycle.
Sweep load_sweep(const std::filesystem::path& file, const std::vector<std::string>& overrides);

// A sweep value's integer, if it is one (plain or 2^k).
std::optional<std::int64_t> sweep_integer(const std::string& text);
// A sweep value as typed JSON: an integer, true or false, or the text.
nlohmann::json sweep_value_json(const std::string& text);

}  // namespace mmsim
