#include "testbench/sweep_plan.hpp"

#include <map>
#include <stdexcept>

namespace mmsim {
namespace {

// a * b, or the largest value when it does not fit.
std::uint64_t saturating_product(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r = 0;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

// The axes a case runs: the sweep's grid with the case's own values where it gives some.
std::vector<const SweepAxis*> case_grid(const Sweep& sweep, const SweepCase& c) {
  std::vector<const SweepAxis*> axes;
  for (const SweepAxis& axis : sweep.grid) {
    const SweepAxis* chosen = &axis;
    for (const SweepAxis& own : c.grid)
      if (own.key == axis.key) chosen = &own;
    axes.push_back(chosen);
  }
  return axes;
}

std::uint64_t count_combinations(const Sweep& sweep, std::string& how) {
  std::uint64_t total = 0;
  for (const SweepCase& c : sweep.cases) {
    std::uint64_t runs = sweep.zip.empty() ? 1 : sweep.zip.front().values.size();
    for (const SweepAxis* axis : case_grid(sweep, c))
      runs = saturating_product(runs, axis->values.size());
    total = total > UINT64_MAX - runs ? UINT64_MAX : total + runs;
  }
  how = std::to_string(sweep.cases.size()) + (sweep.cases.size() == 1 ? " case" : " cases");
  for (const SweepAxis& axis : sweep.grid)
    how += " x " + std::to_string(axis.values.size()) + " " + axis.key;
  if (!sweep.zip.empty()) how += " x " + std::to_string(sweep.zip.front().values.size()) + " zip";
  return total;
}

// Expands one combination: the values and assignments of the run, its derived values computed.
// Returns false when a condition leaves it out.
bool expand(const Sweep& sweep, const SweepCase& c, const std::vector<const SweepAxis*>& grid,
            const std::vector<std::size_t>& index, std::size_t zip_index, SweepRun& run) {
  std::map<std::string, std::string> value = sweep.base_values;  // as the run will see them
  if (sweep.drop_expect) run.assignments.push_back("expect={}");
  if (sweep.drop_outputs) run.assignments.push_back("outputs={}");
  const auto assign = [&](const std::string& key, const std::string& text) {
    run.assignments.push_back(key + "=" + text);
    value[key] = text;
  };
  for (const SweepAssignment& a : c.set) assign(a.key, a.value);
  for (std::size_t g = 0; g < grid.size(); ++g) {
    assign(grid[g]->key, grid[g]->values[index[g]]);
    run.values.push_back(grid[g]->values[index[g]]);
  }
  for (const SweepAxis& axis : sweep.zip) {
    assign(axis.key, axis.values[zip_index]);
    run.values.push_back(axis.values[zip_index]);
  }
  std::map<std::string, std::string> options;
  for (const std::string& assignment : sweep.overrides) {
    const std::size_t eq = assignment.find('=');
    options[assignment.substr(0, eq)] = assignment.substr(eq + 1);
    value[assignment.substr(0, eq)] = assignment.substr(eq + 1);
  }
  const auto value_of = [&](const std::string& name) {
    return *sweep_integer(value.at(sweep.name_keys.at(name)));
  };
  try {
    std::vector<std::string> derived(c.derived.size());
    for (const std::size_t i : c.derived_order) {
      const SweepDerived& d = c.derived[i];
      const auto option = options.find(d.key);
      derived[i] = option != options.end() ? option->second
                                           : std::to_string(d.expression.evaluate(value_of));
      if (option == options.end()) assign(d.key, derived[i]);
    }
    run.values.insert(run.values.end(), derived.begin(), derived.end());
    for (const std::vector<SweepExpression>* conditions : {&sweep.condition, &c.condition})
      for (const SweepExpression& condition : *conditions)
        if (condition.evaluate(value_of) == 0) return false;
  } catch (const std::domain_error& e) {
    run.error = e.what();
    run.values.resize(sweep.keys().size());
  }
  run.assignments.insert(run.assignments.end(), sweep.overrides.begin(), sweep.overrides.end());
  return true;
}

}  // namespace

SweepPlan plan_sweep(const Sweep& sweep, std::uint64_t max_runs) {
  SweepPlan plan;
  std::string how;
  plan.combinations = count_combinations(sweep, how);
  if (plan.combinations > max_runs) {
    const SourceLocation where = !sweep.grid.empty()  ? sweep.grid.front().where
                                 : !sweep.zip.empty() ? sweep.zip.front().where
                                                      : sweep.cases.front().where;
    throw InputError(where,
                     "the sweep makes " +
                         (plan.combinations == UINT64_MAX ? std::string("more than 2^64")
                                                          : std::to_string(plan.combinations)) +
                         " runs (" + how + "), more than the limit of " + std::to_string(max_runs) +
                         " (--max-runs raises it)");
  }
  const std::size_t zip_length = sweep.zip.empty() ? 1 : sweep.zip.front().values.size();
  for (std::size_t ci = 0; ci < sweep.cases.size(); ++ci) {
    const SweepCase& c = sweep.cases[ci];
    const std::vector<const SweepAxis*> grid = case_grid(sweep, c);
    std::vector<std::size_t> index(grid.size(), 0);
    while (true) {
      for (std::size_t z = 0; z < zip_length; ++z) {
        SweepRun run{.case_index = ci};
        if (!expand(sweep, c, grid, index, z, run)) continue;
        run.index = plan.runs.size();
        plan.runs.push_back(std::move(run));
      }
      std::size_t g = grid.size();  // odometer: the last key varies fastest
      while (g > 0 && ++index[g - 1] == grid[g - 1]->values.size()) index[--g] = 0;
      if (g == 0) break;
    }
  }
  return plan;
}

nlohmann::json run_head(const Sweep& sweep, const SweepRun& run) {
  nlohmann::json values = nlohmann::json::object();
  const std::vector<std::string> keys = sweep.keys();
  for (std::size_t k = 0; k < keys.size(); ++k) values[keys[k]] = sweep_value_json(run.values[k]);
  std::string command = "mmsim run " + shell_quote(sweep.testbench.string());
  for (const std::string& assignment : run.assignments)
    command += " --set " + shell_quote(assignment);
  return {{"index", run.index},
          {"case", sweep.cases[run.case_index].label},
          {"values", values},
          {"set", sweep.overrides},
          {"command", command}};
}

std::string run_identity(const nlohmann::json& record) {
  return nlohmann::json{{"case", record.value("case", nlohmann::json())},
                        {"values", record.value("values", nlohmann::json())},
                        {"set", record.value("set", nlohmann::json())}}
      .dump();
}

}  // namespace mmsim
