#include "testbench/sweep.hpp"

#include <fmt/format.h>

#include "hw/support/errors.hpp"
#include "testbench/runner.hpp"
#include "testbench/stats_json.hpp"
#include "testbench/yaml_input.hpp"

namespace mmsim {
namespace {

std::string scalar_text(const YAML::Node& node, const SourceLocation& where,
                        const std::string& what) {
  if (!node.IsScalar())
    throw InputError(where, what + ": expected a value, got " + yaml_describe(node));
  return node.Scalar();
}

// The value at a dotted path of the statistics, as table text.
std::string cell(const nlohmann::json& stats, const std::string& column) {
  const nlohmann::json* node = &stats;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = column.find('.', start);
    const std::string key =
        column.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!node->is_object() || !node->contains(key)) return "-";
    node = &(*node)[key];
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  if (node->is_boolean()) return node->get<bool>() ? "yes" : "no";
  if (node->is_null()) return "n/a";
  if (node->is_number_float()) {
    const double v = node->get<double>();
    return std::abs(v) >= 100 ? fmt::format("{:.1f}", v) : fmt::format("{:.3g}", v);
  }
  if (node->is_string()) return node->get<std::string>();
  return node->dump();
}

std::vector<std::string> header(const Sweep& sweep) {
  std::vector<std::string> h = {"case"};
  for (const auto& [key, values] : sweep.grid) h.push_back(key);
  h.insert(h.end(), sweep.columns.begin(), sweep.columns.end());
  return h;
}

std::vector<std::string> row_cells(const Sweep& sweep, const SweepRow& row) {
  std::vector<std::string> cells = {row.label};
  cells.insert(cells.end(), row.values.begin(), row.values.end());
  for (const std::string& column : sweep.columns)
    cells.push_back(row.error.empty() ? cell(row.stats, column)
                                      : (column == sweep.columns.front() ? row.error : ""));
  return cells;
}

}  // namespace

Sweep load_sweep(const std::filesystem::path& file) {
  YamlInput input(file, "sweep");
  const YamlSection root(input, input.root(), "");
  root.allow({"name", "description", "testbench", "cases", "grid", "columns"});
  Sweep sweep;
  sweep.file = file;
  sweep.name = root.optional_string("name").value_or(file.stem().string());
  sweep.description = root.optional_string("description").value_or("");
  sweep.testbench = file.parent_path() / root.string("testbench");
  if (root.has("cases")) {
    const YAML::Node cases = root.node("cases");
    if (!cases.IsSequence()) root.fail("cases", "expected a list of {label: ..., set: {...}}");
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const std::string path = "cases[" + std::to_string(i) + "]";
      if (!cases[i].IsMap())
        throw InputError(input.where(cases[i], "cases"),
                         path + ": expected {label: ..., set: {...}}");
      const YamlSection c(input, cases[i], path);
      c.allow({"label", "set"});
      Sweep::Case out{c.string("label"), {}};
      if (const auto set = c.optional_section("set"))
        for (const std::string& key : set->keys())
          out.overrides.push_back(
              key + "=" + scalar_text(set->node(key), set->where(key), path + ".set." + key));
      sweep.cases.push_back(std::move(out));
    }
  }
  if (sweep.cases.empty()) sweep.cases.push_back({sweep.name, {}});
  if (const auto grid = root.optional_section("grid"))
    for (const std::string& key : grid->keys()) {
      const YAML::Node values = grid->node(key);
      if (!values.IsSequence() || values.size() == 0)
        grid->fail(key, "expected a non-empty list of values");
      std::vector<std::string> texts;
      for (std::size_t i = 0; i < values.size(); ++i)
        texts.push_back(scalar_text(values[i], grid->where(key), "grid." + key));
      sweep.grid.emplace_back(key, std::move(texts));
    }
  if (!root.has("columns")) {
    sweep.columns = {"cycles", "stages", "syncthreads", "verified"};
  } else {
    const YAML::Node columns = root.node("columns");
    if (!columns.IsSequence()) root.fail("columns", "expected a list of statistics keys");
    for (std::size_t i = 0; i < columns.size(); ++i)
      sweep.columns.push_back(scalar_text(columns[i], root.where("columns"), "columns"));
  }
  return sweep;
}

std::vector<SweepRow> run_sweep(const Sweep& sweep, const std::vector<std::string>& overrides) {
  load_testbench(sweep.testbench, overrides);  // the base itself must be valid
  std::vector<SweepRow> rows;
  // Odometer over the grid, for every case.
  for (const Sweep::Case& c : sweep.cases) {
    std::vector<std::size_t> index(sweep.grid.size(), 0);
    while (true) {
      SweepRow row;
      row.label = c.label;
      std::vector<std::string> sets = c.overrides;
      for (std::size_t g = 0; g < sweep.grid.size(); ++g) {
        const std::string& value = sweep.grid[g].second[index[g]];
        row.values.push_back(value);
        sets.push_back(sweep.grid[g].first + "=" + value);
      }
      sets.insert(sets.end(), overrides.begin(), overrides.end());
      try {
        row.stats = stats_json(run_testbench(load_testbench(sweep.testbench, sets)));
      } catch (const InputError& e) {
        row.error = e.what();
      } catch (const SimulationError& e) {
        row.error = e.what();
      }
      rows.push_back(std::move(row));
      std::size_t g = sweep.grid.size();
      while (g > 0 && ++index[g - 1] == sweep.grid[g - 1].second.size()) index[--g] = 0;
      if (g == 0) break;
    }
  }
  return rows;
}

std::string sweep_markdown(const Sweep& sweep, const std::vector<SweepRow>& rows,
                           const std::string& command) {
  std::string out = "# " + sweep.name + "\n\n";
  if (!sweep.description.empty()) out += sweep.description + "\n\n";
  out += "Generated by `" + command + "`; base testbench `" + sweep.testbench.filename().string() +
         "`.\n\n";
  const auto line = [&out](const std::vector<std::string>& cells) {
    out += "|";
    for (const std::string& c : cells) out += " " + c + " |";
    out += "\n";
  };
  const std::vector<std::string> h = header(sweep);
  line(h);
  line(std::vector<std::string>(h.size(), "---"));
  for (const SweepRow& row : rows) line(row_cells(sweep, row));
  return out;
}

std::string sweep_csv(const Sweep& sweep, const std::vector<SweepRow>& rows) {
  const auto quote = [](const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (const char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
  };
  std::string out;
  const auto line = [&](const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < cells.size(); ++i) out += (i ? "," : "") + quote(cells[i]);
    out += "\n";
  };
  line(header(sweep));
  for (const SweepRow& row : rows) line(row_cells(sweep, row));
  return out;
}

nlohmann::json sweep_json(const Sweep& sweep, const std::vector<SweepRow>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const SweepRow& row : rows) {
    nlohmann::json values = nlohmann::json::object();
    for (std::size_t g = 0; g < sweep.grid.size(); ++g) values[sweep.grid[g].first] = row.values[g];
    nlohmann::json entry = {{"case", row.label}, {"values", values}, {"stats", row.stats}};
    if (!row.error.empty()) entry["error"] = row.error;
    out.push_back(entry);
  }
  return out;
}

}  // namespace mmsim
