#include "testbench/input/testbench_schema.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <map>
#include <stdexcept>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "sw/support/suggest.hpp"

namespace mmsim {
namespace {

constexpr std::int64_t kMaxInt = std::numeric_limits<std::int64_t>::max();

// The rows of the keys of the mapping at `path`, in the table's order.
std::vector<const TestbenchKey*> rows_of(const std::string& path) {
  std::vector<const TestbenchKey*> rows;
  for (const TestbenchKey& key : testbench_keys())
    if (key.parent() == path) rows.push_back(&key);
  return rows;
}

// 2^16 for powers of two from 2^10 on, the number itself below.
std::string bound_text(std::int64_t value) {
  const auto u = static_cast<std::uint64_t>(value);
  if (value >= 1024 && std::has_single_bit(u)) return "2^" + std::to_string(std::countr_zero(u));
  return std::to_string(value);
}

// A cell of a Markdown table: a | inside it would end the cell.
std::string cell(const std::string& text) {
  std::string out;
  for (const char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

}  // namespace

std::string TestbenchKey::name() const { return path.substr(path.rfind('.') + 1); }

std::string TestbenchKey::parent() const {
  const std::size_t dot = path.rfind('.');
  return dot == std::string::npos ? "" : path.substr(0, dot);
}

const TestbenchKey& testbench_key(const std::string& path) {
  for (const TestbenchKey& key : testbench_keys())
    if (key.path == path) return key;
  throw std::out_of_range("no testbench key " + path);
}

std::vector<std::string> keys_of(const std::string& path) {
  std::vector<std::string> names;
  for (const TestbenchKey* key : rows_of(path)) names.push_back(key->name());
  return names;
}

std::int64_t KeyValue::integer() const {
  return parent_.integer(key_.name(), key_.type.min, key_.type.max);
}

bool KeyValue::boolean() const { return parent_.boolean(key_.name()); }

std::string KeyValue::string() const { return parent_.string(key_.name()); }

std::string KeyValue::choice() const {
  const std::string value = parent_.string(key_.name());
  const std::vector<std::string> choices = key_.type.choices();
  if (std::find(choices.begin(), choices.end(), value) == choices.end())
    fail("unknown " + key_.type.noun + " '" + value + "'" + suggestion(value, choices));
  return value;
}

YamlSection KeyValue::section() const { return parent_.section(key_.name()); }

void KeyValue::fail(const std::string& message) const { parent_.fail(key_.name(), message); }

void allow_keys(const YamlSection& section) { section.allow(keys_of(section.path())); }

void read_keys(const YamlSection& section, Testbench& tb) {
  for (const TestbenchKey* key : rows_of(section.path())) {
    const std::string name = key->name();
    if (!section.has(name)) {
      if (key->required)
        throw InputError(section.where(), section.name() + ": missing required key '" + name + "'");
      if (key->absent) key->absent(section, tb);
      continue;
    }
    if (key->applies == Applies::hierarchical && !machine_model(tb.machine).hierarchical)
      section.fail(name, key->path + " applies to model hmm (the hierarchical machine), not " +
                             tb.machine.model);
    tb.where[key->path] = section.where(name);
    key->load(KeyValue(section, *key), tb);
  }
}

void load_keys(const YamlSection& section, Testbench& tb) {
  allow_keys(section);
  read_keys(section, tb);
}

nlohmann::ordered_json resolved_keys(const std::string& path, const ResolvedView& view) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const TestbenchKey* key : rows_of(path)) {
    if (key->resolved) {
      if (std::optional<nlohmann::ordered_json> value = key->resolved(view))
        out[key->name()] = std::move(*value);
    } else if (key->type.kind == KeyType::Kind::mapping) {
      out[key->name()] = resolved_keys(key->path, view);
    }
  }
  return out;
}

nlohmann::ordered_json machine_quantities(const MachineConfig& machine, QuantityKeys which,
                                          const std::string& path) {
  const bool hierarchical = machine_model(machine).hierarchical;
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const TestbenchKey* key : rows_of(path)) {
    if (key->applies == Applies::hierarchical && !hierarchical &&
        which == QuantityKeys::of_its_model)
      continue;
    if (key->quantity) {
      out[key->name()] = key->quantity(machine);
    } else if (key->type.kind == KeyType::Kind::mapping) {
      nlohmann::ordered_json inner = machine_quantities(machine, which, key->path);
      if (!inner.empty()) out[key->name()] = std::move(inner);
    }
  }
  return out;
}

std::string type_text(const TestbenchKey& key) {
  if (!key.type_text.empty()) return key.type_text;
  const KeyType& type = key.type;
  switch (type.kind) {
    case KeyType::Kind::string:
      return "string";
    case KeyType::Kind::boolean:
      return "boolean";
    case KeyType::Kind::mapping:
      return "mapping";
    case KeyType::Kind::integer:
      if (type.max == kMaxInt) return "integer ≥ " + bound_text(type.min);
      return "integer " + bound_text(type.min) + " .. " + bound_text(type.max);
    case KeyType::Kind::choice: {
      std::string out;
      for (const std::string& choice : type.choices())
        out += (out.empty() ? "`" : ", `") + choice + "`";
      return out;
    }
    case KeyType::Kind::other:
      break;
  }
  throw std::logic_error("testbench key " + key.path + " has no type text");
}

std::string reference_table(const std::string& table, const std::string& base) {
  std::vector<const TestbenchKey*> rows;
  for (const TestbenchKey& key : testbench_keys())
    if (key.table == table) rows.push_back(&key);
  const bool defaults = std::any_of(
      rows.begin(), rows.end(), [](const TestbenchKey* key) { return !key->default_text.empty(); });
  std::string out = defaults ? "| key | type | default | meaning |\n|---|---|---|---|\n"
                             : "| key | type | meaning |\n|---|---|---|\n";
  for (const TestbenchKey* key : rows) {
    const std::string name = base.empty() || key->path.rfind(base + ".", 0) != 0
                                 ? key->path
                                 : key->path.substr(base.size() + 1);
    out += "| `" + name + "` | " + cell(type_text(*key)) + " | ";
    if (defaults) out += cell(key->required ? "required" : key->default_text) + " | ";
    out += cell(key->meaning) + " |\n";
  }
  return out;
}

}  // namespace mmsim
