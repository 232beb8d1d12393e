#include "testbench/sweeps/sweep_check.hpp"

#include <nlohmann/json.hpp>

#include "hw/support/errors.hpp"
#include "sw/support/suggest.hpp"
#include "testbench/input/yaml_input.hpp"
#include "testbench/run/runner.hpp"
#include "testbench/run/stats_json.hpp"

namespace mmsim {
namespace {

// Runs of a case tried before giving up on finding one that loads (the first combinations may
// be impossible machines, which are the runs' own errors).
constexpr int kTrials = 8;

// The unknown key at the place the sweep sets it (a case's set, grid, zip, derived), or as
// the loader found it (the base testbench, a --set option).
InputError relocated(const Sweep& sweep, const SweepCase& c, const UnknownKeyError& e) {
  const auto covers = [&](const std::string& key) {
    return key == e.path() || key.rfind(e.path() + ".", 0) == 0;
  };
  const auto at = [&](const SourceLocation& where, const std::string& what) {
    return InputError(where, what + ": " + e.what());
  };
  for (const SweepAssignment& a : c.set)
    if (covers(a.key)) return at(a.where, "case '" + c.label + "' sets " + a.key);
  for (const SweepAxis& axis : sweep.grid)
    if (covers(axis.key)) return at(axis.where, "grid." + axis.key);
  for (const SweepAxis& axis : sweep.zip)
    if (covers(axis.key)) return at(axis.where, "zip." + axis.key);
  for (const SweepDerived& d : c.derived)
    if (covers(d.key)) return at(d.where, "derived." + d.key);
  return e;
}

void add_paths(const nlohmann::json& node, const std::string& prefix,
               std::vector<std::string>& out) {
  if (!node.is_object()) return;
  for (const auto& [key, value] : node.items()) {
    out.push_back(prefix + key);
    add_paths(value, prefix + key + ".", out);
  }
}

}  // namespace

void check_sweep(const Sweep& sweep, const SweepPlan& plan, UserCode user_code) {
  std::vector<nlohmann::json> outlines;  // a previewed run's statistics, per case that has one
  for (std::size_t ci = 0; ci < sweep.cases.size(); ++ci) {
    int trials = 0;
    for (const SweepRun& run : plan.runs) {
      if (run.case_index != ci || !run.error.empty()) continue;
      if (++trials > kTrials) break;
      try {
        const Testbench tb = load_testbench(sweep.testbench, run.assignments);
        if (tb.written_params && user_code == UserCode::left_alone) break;
        outlines.push_back(stats_json(preview_testbench(tb)));
        break;
      } catch (const UnknownKeyError& e) {
        throw relocated(sweep, sweep.cases[ci], e);
      } catch (const InputError&) {
      } catch (const SimulationError&) {
      }
    }
  }
  if (outlines.empty()) return;  // no run loads: each will say why
  for (const SweepColumn& column : sweep.columns) {
    bool found = false;
    for (const nlohmann::json& stats : outlines) found = found || stats_at(stats, column.path);
    if (found) continue;
    std::vector<std::string> paths;
    for (const nlohmann::json& stats : outlines) add_paths(stats, "", paths);
    const std::string nearest = nearest_name(column.path, paths);
    throw InputError(column.where,
                     "columns: no run reports '" + column.path + "'" +
                         (nearest.empty() ? " (a path into the statistics JSON, docs/statistics.md)"
                                          : " (did you mean '" + nearest + "'?)"));
  }
}

}  // namespace mmsim
