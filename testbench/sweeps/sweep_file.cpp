#include "testbench/sweeps/sweep_file.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include "hw/support/counted.hpp"
#include "sw/support/suggest.hpp"
#include "testbench/input/yaml_input.hpp"

namespace mmsim {
namespace {

std::string last_component(const std::string& key) { return key.substr(key.rfind('.') + 1); }

bool sets(const std::string& key, const std::string& section) {
  return key == section || key.rfind(section + ".", 0) == 0;
}

std::string scalar(const YamlInput& input, const YAML::Node& node, const std::string& path) {
  if (!node.IsScalar())
    throw InputError(input.where(node, path), path + ": expected a value, got " +
                                                  yaml_describe(node) + " (one value per run)");
  return node.Scalar();
}

// The place of a scalar's first character (after the quote of a quoted one).
SourceLocation text_start(const YamlInput& input, const YAML::Node& node, const std::string& path) {
  SourceLocation where = input.where(node, path);
  if (where.line > 0 && node.Tag() == "!") ++where.column;
  return where;
}

// A mapping whose keys must be unique (yaml-cpp keeps both entries of a repeated key).
void refuse_duplicates(const YamlInput& input, const YAML::Node& map, const std::string& path) {
  std::set<std::string> seen;
  for (const auto& entry : map)
    if (!seen.insert(entry.first.Scalar()).second)
      throw InputError(input.where(entry.first, path), "duplicate key '" + entry.first.Scalar() +
                                                           "' in " + path +
                                                           " (one of them would be lost)");
}

std::vector<SweepAxis> load_axes(const YamlInput& input, const YAML::Node& map,
                                 const std::string& path) {
  if (!map.IsMap())
    throw InputError(input.where(map, path), path + ": expected a mapping of key.path: [values]");
  refuse_duplicates(input, map, path);
  std::vector<SweepAxis> axes;
  for (const auto& entry : map) {
    SweepAxis axis{.key = entry.first.Scalar(), .where = input.where(entry.first, path)};
    const std::string what = path + "." + axis.key;
    const YAML::Node values = entry.second;
    if (!values.IsSequence() || values.size() == 0)
      yaml_expected(values, input.where(values, path), what, "a non-empty list of values");
    for (const auto& value : values) {
      axis.values.push_back(scalar(input, value, what));
      axis.value_where.push_back(input.where(value, path));
    }
    axes.push_back(std::move(axis));
  }
  return axes;
}

// A value twice in one list of the grid would run the same runs twice.
void refuse_repeated_values(const std::vector<SweepAxis>& axes, const std::string& path) {
  for (const SweepAxis& axis : axes) {
    std::set<std::string> seen;
    for (std::size_t i = 0; i < axis.values.size(); ++i)
      if (!seen.insert(sweep_value_json(axis.values[i]).dump()).second)
        throw InputError(axis.value_where[i],
                         path + "." + axis.key + ": " + axis.values[i] +
                             " is in the list already (a run would run twice)");
  }
}

// The same for a position of the zip lists that repeats an earlier one in every list.
void refuse_repeated_positions(const std::vector<SweepAxis>& zip) {
  std::set<std::string> seen;
  for (std::size_t i = 0; !zip.empty() && i < zip.front().values.size(); ++i) {
    nlohmann::json position = nlohmann::json::array();
    for (const SweepAxis& axis : zip) position.push_back(sweep_value_json(axis.values[i]));
    if (!seen.insert(position.dump()).second)
      throw InputError(zip.front().value_where[i],
                       "zip: position " + std::to_string(i + 1) + " (" + position.dump() +
                           ") repeats an earlier one (a run would run twice)");
  }
}

std::vector<SweepExpression> load_conditions(const YamlInput& input, const YAML::Node& node,
                                             const std::string& path) {
  std::vector<SweepExpression> conditions;
  if (node.IsScalar()) {
    conditions.emplace_back(node.Scalar(), text_start(input, node, path));
    return conditions;
  }
  if (!node.IsSequence())
    yaml_expected(node, input.where(node, path), path, "a condition or a list of conditions");
  for (const auto& item : node)
    conditions.emplace_back(scalar(input, item, path), text_start(input, item, path));
  return conditions;
}

std::vector<SweepDerived> load_derived(const YamlInput& input, const YAML::Node& map,
                                       const std::string& path) {
  if (!map.IsMap())
    throw InputError(input.where(map, path), path + ": expected a mapping of key.path: expression");
  refuse_duplicates(input, map, path);
  std::vector<SweepDerived> derived;
  for (const auto& entry : map) {
    const std::string key = entry.first.Scalar();
    derived.push_back({.key = key,
                       .where = input.where(entry.first, path),
                       .expression = SweepExpression(scalar(input, entry.second, path + "." + key),
                                                     text_start(input, entry.second, path))});
  }
  return derived;
}

SweepCase load_case(const YamlInput& input, const YAML::Node& node, const std::string& path) {
  if (!node.IsMap())
    throw InputError(input.where(node, path),
                     path + ": expected {label: ..., set: {...}, grid: {...}, where: [...]}");
  refuse_duplicates(input, node, path);
  const YamlSection c(input, node, path);
  c.allow({"label", "set", "grid", "derived", "where"});
  SweepCase out{.label = c.string("label"), .where = c.where()};
  if (c.has("set")) {
    const YAML::Node set = c.node("set");
    if (!set.IsMap()) c.fail("set", "expected a mapping of key.path: value");
    refuse_duplicates(input, set, path + ".set");
    for (const auto& entry : set)
      out.set.push_back(
          {.key = entry.first.Scalar(),
           .value = scalar(input, entry.second, path + ".set." + entry.first.Scalar()),
           .where = input.where(entry.first, path + ".set")});
  }
  if (c.has("grid")) {
    out.grid = load_axes(input, c.node("grid"), path + ".grid");
    refuse_repeated_values(out.grid, path + ".grid");
  }
  if (c.has("derived")) out.derived = load_derived(input, c.node("derived"), path + ".derived");
  if (c.has("where")) out.condition = load_conditions(input, c.node("where"), path + ".where");
  return out;
}

// The scalars of a mapping (and of the mappings in it) by dotted path, and where each is.
void collect_scalars(const YamlInput& input, const YAML::Node& node, const std::string& prefix,
                     Sweep& sweep) {
  for (const auto& entry : node) {
    const std::string path = prefix + entry.first.Scalar();
    if (entry.second.IsScalar()) {
      sweep.base_values[path] = entry.second.Scalar();
      sweep.base_where[path] = input.where(entry.second, path);
    }
    if (entry.second.IsMap()) collect_scalars(input, entry.second, path + ".", sweep);
  }
}

// Which key each name of the expressions stands for: the key of that full path, or the one key
// whose last component it is.
class NameResolver {
 public:
  void add(const std::string& key) { keys_.insert(key); }

  std::string resolve(const SweepExpression::Name& name) const {
    if (keys_.count(name.text)) return name.text;
    std::vector<std::string> matches;
    for (const std::string& key : keys_)
      if (last_component(key) == name.text) matches.push_back(key);
    if (matches.size() == 1) return matches.front();
    if (matches.size() > 1)
      throw InputError(name.where, "'" + name.text + "' is ambiguous: " + matches[0] + " or " +
                                       matches[1] + " (write the full path)");
    std::vector<std::string> candidates(keys_.begin(), keys_.end());
    for (const std::string& key : keys_) candidates.push_back(last_component(key));
    throw InputError(name.where, "unknown name '" + name.text +
                                     "': neither a key of the sweep nor a value of its testbench" +
                                     suggestion(name.text, candidates));
  }

 private:
  std::set<std::string> keys_;
};

// Checks every name of `e` for `c`: a key the case has, holding integers wherever it is set.
void check_names(const Sweep& sweep, const SweepCase& c, const SweepExpression& e,
                 const NameResolver& names, const std::map<std::string, SourceLocation>& options) {
  for (const SweepExpression::Name& name : e.names()) {
    const std::string key = names.resolve(name);
    const auto integer_at = [&](const std::string& text, const SourceLocation& where) {
      if (!sweep_integer(text))
        throw InputError(where, key + " = '" + text + "' is not an integer, but '" + e.text() +
                                    "' (" + e.where().str() + ") computes with it");
    };
    if (const auto option = options.find(key); option != options.end()) {
      const std::string& assignment = option->second.file;
      integer_at(assignment.substr(assignment.find('=') + 1), option->second);
      continue;
    }
    bool found = false;
    for (const SweepDerived& d : sweep.derived) found = found || d.key == key;
    for (const std::vector<SweepAxis>* axes : {&c.grid, &sweep.grid, &sweep.zip})
      for (const SweepAxis& axis : *axes)
        if (axis.key == key && !found) {
          for (std::size_t i = 0; i < axis.values.size(); ++i)
            integer_at(axis.values[i], axis.value_where[i]);
          found = true;
        }
    for (const SweepAssignment& a : c.set)
      if (a.key == key && !found) {
        integer_at(a.value, a.where);
        found = true;
      }
    if (const auto it = sweep.base_values.find(key); !found && it != sweep.base_values.end()) {
      integer_at(it->second, sweep.base_where.at(key));
      found = true;
    }
    if (!found)
      throw InputError(name.where,
                       "'" + name.text + "' (" + key + ") has no value in case '" + c.label + "'");
  }
}

// The derived values in an order where each comes after those it refers to.
std::vector<std::size_t> evaluation_order(const std::vector<SweepDerived>& derived,
                                          const NameResolver& names) {
  std::vector<std::size_t> order;
  std::vector<bool> done(derived.size(), false);
  while (order.size() < derived.size()) {
    const std::size_t before = order.size();
    for (std::size_t i = 0; i < derived.size(); ++i) {
      if (done[i]) continue;
      bool ready = true;
      for (const SweepExpression::Name& name : derived[i].expression.names()) {
        const std::string key = names.resolve(name);
        for (std::size_t j = 0; j < derived.size(); ++j)
          ready = ready && (done[j] || derived[j].key != key);
      }
      if (!ready) continue;
      done[i] = true;
      order.push_back(i);
    }
    if (order.size() == before) {
      std::size_t i = 0;
      while (done[i]) ++i;
      throw InputError(derived[i].where, "derived." + derived[i].key +
                                             " depends on itself (through '" +
                                             derived[i].expression.text() + "')");
    }
  }
  return order;
}

}  // namespace

std::optional<std::int64_t> sweep_integer(const std::string& text) {
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc()) return std::nullopt;
  if (ptr == end) return value;
  if (*ptr != '^' || value != 2) return std::nullopt;
  std::int64_t exponent = 0;
  const auto [p2, ec2] = std::from_chars(ptr + 1, end, exponent);
  if (ec2 != std::errc() || p2 != end || exponent < 0 || exponent > 62) return std::nullopt;
  return std::int64_t{1} << exponent;
}

nlohmann::json sweep_value_json(const std::string& text) {
  if (const auto integer = sweep_integer(text)) return *integer;
  if (text == "true" || text == "false") return text == "true";
  return text;
}

std::vector<std::string> Sweep::keys() const {
  std::vector<std::string> out;
  for (const SweepAxis& axis : grid) out.push_back(axis.key);
  for (const SweepAxis& axis : zip) out.push_back(axis.key);
  for (const SweepDerived& d : derived) out.push_back(d.key);
  return out;
}

Sweep load_sweep(const std::filesystem::path& file, const std::vector<std::string>& overrides) {
  YamlInput input(file, "sweep");
  refuse_duplicates(input, input.root(), "sweep");
  const YamlSection root(input, input.root(), "");
  root.allow(
      {"name", "description", "testbench", "cases", "grid", "zip", "derived", "where", "columns"});
  Sweep sweep;
  sweep.file = file;
  sweep.overrides = overrides;
  sweep.name = root.optional_string("name").value_or(file.stem().string());
  sweep.description = root.optional_string("description").value_or("");
  sweep.testbench = file.parent_path() / root.string("testbench");

  if (root.has("cases")) {
    const YAML::Node cases = root.node("cases");
    if (!cases.IsSequence() || cases.size() == 0)
      root.fail("cases", "expected a list of {label: ..., set: {...}}");
    std::set<std::string> labels;
    for (std::size_t i = 0; i < cases.size(); ++i) {
      SweepCase c = load_case(input, cases[i], "cases[" + std::to_string(i) + "]");
      if (!labels.insert(c.label).second)
        throw InputError(c.where, "cases[" + std::to_string(i) + "]: the label '" + c.label +
                                      "' is taken by an earlier case");
      sweep.cases.push_back(std::move(c));
    }
  } else {
    sweep.cases.push_back({.label = sweep.name, .where = root.where()});
  }
  if (root.has("grid")) {
    sweep.grid = load_axes(input, root.node("grid"), "grid");
    refuse_repeated_values(sweep.grid, "grid");
  }
  if (root.has("zip")) {
    sweep.zip = load_axes(input, root.node("zip"), "zip");
    for (const SweepAxis& axis : sweep.zip)
      if (axis.values.size() != sweep.zip.front().values.size())
        throw InputError(axis.where, "zip." + axis.key + ": " +
                                         counted(axis.values.size(), "value") + ", but zip." +
                                         sweep.zip.front().key + " has " +
                                         std::to_string(sweep.zip.front().values.size()) +
                                         " (zip lists vary together)");
    refuse_repeated_positions(sweep.zip);
  }
  if (root.has("derived")) sweep.derived = load_derived(input, root.node("derived"), "derived");
  if (root.has("where")) sweep.condition = load_conditions(input, root.node("where"), "where");
  if (!root.has("columns")) {
    sweep.columns = {{"cycles", root.where()},
                     {"stages", root.where()},
                     {"syncthreads", root.where()},
                     {"verified", root.where()}};
  } else {
    const YAML::Node columns = root.node("columns");
    if (!columns.IsSequence() || columns.size() == 0)
      root.fail("columns", "expected a list of statistics keys");
    for (const auto& column : columns)
      sweep.columns.push_back({scalar(input, column, "columns"), input.where(column, "columns")});
  }

  // A key set by two of grid, zip and derived would take one of the values silently.
  std::map<std::string, std::string> owner;
  const auto claim = [&](const std::string& key, const SourceLocation& where,
                         const std::string& section) {
    const auto [it, fresh] = owner.emplace(key, section);
    if (!fresh)
      throw InputError(where,
                       section + "." + key + ": " + key + " is set by " + it->second + " already");
  };
  for (const SweepAxis& axis : sweep.grid) claim(axis.key, axis.where, "grid");
  for (const SweepAxis& axis : sweep.zip) claim(axis.key, axis.where, "zip");
  for (const SweepDerived& d : sweep.derived) claim(d.key, d.where, "derived");
  for (SweepCase& c : sweep.cases) {
    for (const SweepAxis& axis : c.grid)
      if (owner.count(axis.key) == 0 || owner[axis.key] != "grid")
        throw InputError(axis.where, "grid." + axis.key + " of case '" + c.label +
                                         "': a case's grid replaces values of the sweep's grid, "
                                         "which has no " +
                                         axis.key);
    std::vector<SweepDerived> own = std::move(c.derived);
    c.derived = sweep.derived;
    for (SweepDerived& d : own) {
      const auto it = std::find_if(c.derived.begin(), c.derived.end(),
                                   [&](const SweepDerived& x) { return x.key == d.key; });
      if (it == c.derived.end())
        throw InputError(d.where, "derived." + d.key + " of case '" + c.label +
                                      "': a case's derived values replace the sweep's, which "
                                      "has no " +
                                      d.key);
      *it = std::move(d);
    }
  }

  const YamlInput base = [&] {
    try {
      return YamlInput(sweep.testbench, "testbench");
    } catch (const InputError& e) {
      if (e.where().line > 0) throw;  // a place in the testbench itself
      throw InputError(root.where("testbench"),
                       "testbench: " + sweep.testbench.string() + ": " + e.what());
    }
  }();
  collect_scalars(base, base.root(), "", sweep);
  NameResolver names;
  for (const auto& [key, text] : sweep.base_values) names.add(key);
  std::map<std::string, SourceLocation> options;  // key -> the --set that sets it
  for (const std::string& assignment : overrides) {
    const std::string key = assignment.substr(0, assignment.find('='));
    names.add(key);
    options[key] = {"--set " + assignment, 0, 0};
  }
  for (const auto& [key, section] : owner) names.add(key);
  for (const SweepCase& c : sweep.cases)
    for (const SweepAssignment& a : c.set) names.add(a.key);
  std::vector<const SweepExpression*> expressions;
  for (SweepCase& c : sweep.cases) {
    c.derived_order = evaluation_order(c.derived, names);
    for (const SweepDerived& d : c.derived) expressions.push_back(&d.expression);
    for (const SweepExpression& e : c.condition) expressions.push_back(&e);
  }
  for (const SweepExpression& e : sweep.condition) expressions.push_back(&e);
  for (const SweepExpression* e : expressions)
    for (const SweepExpression::Name& name : e->names())
      sweep.name_keys[name.text] = names.resolve(name);
  for (const SweepCase& c : sweep.cases) {
    for (const SweepDerived& d : c.derived) check_names(sweep, c, d.expression, names, options);
    for (const SweepExpression& e : sweep.condition) check_names(sweep, c, e, names, options);
    for (const SweepExpression& e : c.condition) check_names(sweep, c, e, names, options);
  }

  std::vector<std::string> keys;
  for (const auto& [key, section] : owner) keys.push_back(key);
  for (const auto& [key, where] : options) keys.push_back(key);
  for (const SweepCase& c : sweep.cases)
    for (const SweepAssignment& a : c.set) keys.push_back(a.key);
  const auto drop = [&](const std::string& section) {
    for (const std::string& key : keys)
      if (sets(key, section)) return false;
    return static_cast<bool>(base.root()[section]);
  };
  sweep.drop_expect = drop("expect");
  sweep.drop_outputs = drop("outputs");
  return sweep;
}

}  // namespace mmsim
