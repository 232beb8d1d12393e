// Every key a testbench may hold, declared once (testbench_keys.cpp): where it lies, its type,
// its default, what it applies to, what it means, how it is read and what the testbench as it
// ran says of it. The one table drives the loader (the keys a mapping allows, the nearest one
// suggested for an unknown key, required keys, each value's bounds or choices, where each value
// came from), the testbench as it ran (run/resolved_testbench.hpp: its keys in the table's
// order, which the statistics' `resolved` section is) and the reference tables of
// docs/testbench.md (`testbench_reference` writes them; a test checks that they agree).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hw/machine/machine_config.hpp"
#include "testbench/input/testbench.hpp"
#include "testbench/input/yaml_input.hpp"

namespace mmsim {

// The type of a key's value, as the loader checks it and the reference names it.
struct KeyType {
  enum class Kind { string, integer, boolean, choice, mapping, other };
  Kind kind = Kind::other;
  std::int64_t min = 0;  // integers: the bounds
  std::int64_t max = 0;
  std::function<std::vector<std::string>()> choices{};  // choice: the names allowed
  std::string noun{};  // choice: what a name names, for errors ("machine model")
};

// The machines a key applies to; the loader refuses a key of the hierarchical machine on another
// (the other rules are the machine's own checks, hw/machine/machine_config.hpp).
enum class Applies { every_machine, hierarchical };

// A key's value as the loader meets it: the mapping that holds it and the key's row.
class KeyValue;

// The testbench as resolved for its run: the machine with what the program and the model's rules
// fixed (thread count, memory, latency).
struct ResolvedView {
  const Testbench& testbench;
  const MachineConfig& machine;
};

// A key's value in the testbench as it ran (none: left out).
using ResolvedValue = std::optional<nlohmann::ordered_json>;

struct TestbenchKey {
  std::string path{};  // dotted, from the top: "machine.shared.latency"
  KeyType type{};
  bool required = false;
  Applies applies = Applies::every_machine;
  // The reference: the table it is listed in ("" for none), its type when the type alone does
  // not say it, its default, its meaning (Markdown).
  std::string table{};
  std::string type_text{};
  std::string default_text{};
  std::string meaning{};
  // Reads the value into the testbench (where it came from is recorded for every key read).
  std::function<void(const KeyValue&, Testbench&)> load{};
  // When the key is absent (and not required): what the testbench then holds, if the type's
  // default is not enough.
  std::function<void(const YamlSection& parent, Testbench&)> absent{};
  // Its value in the testbench as it ran (none: left out). A mapping without one is the mapping
  // of its keys' values.
  std::function<ResolvedValue(const ResolvedView&)> resolved{};
  // The value of the machine's quantity the key sets, as the machine ran: the statistics'
  // machine keys and Python's machine view are these, under the key's name (machine_quantities).
  // None: the key is not a quantity of the machine.
  std::function<nlohmann::ordered_json(const MachineConfig&)> quantity{};

  std::string name() const;    // the last part of the path: "latency"
  std::string parent() const;  // the path of the mapping that holds it: "machine.shared"
};

// Every key, in the order of the reference (and of the testbench as it ran).
const std::vector<TestbenchKey>& testbench_keys();
// The key at `path`; throws std::out_of_range for a path the table lacks.
const TestbenchKey& testbench_key(const std::string& path);
// The names of the keys of the mapping at `path` ("" for the top).
std::vector<std::string> keys_of(const std::string& path);

class KeyValue {
 public:
  KeyValue(const YamlSection& parent, const TestbenchKey& key) : parent_(parent), key_(key) {}

  const TestbenchKey& key() const { return key_; }
  const YamlSection& parent() const { return parent_; }
  YAML::Node node() const { return parent_.node(key_.name()); }
  SourceLocation where() const { return parent_.where(key_.name()); }
  // Where item `index` of the list it holds comes from.
  SourceLocation where(std::size_t index) const { return parent_.where(key_.name(), index); }

  // The value read as its type says (bounds, choices), or InputError at it.
  std::int64_t integer() const;
  bool boolean() const;
  std::string string() const;
  std::string choice() const;
  YamlSection section() const;  // a mapping

  [[noreturn]] void fail(const std::string& message) const;

 private:
  const YamlSection& parent_;
  const TestbenchKey& key_;
};

// Reads the keys of the mapping `section` into `testbench`: refuses unknown keys (allow_keys),
// then reads each key of the table in its order (read_keys): a required key missing, a key of
// the hierarchical machine on another, and a value its type refuses are errors at their place.
void load_keys(const YamlSection& section, Testbench& testbench);
void allow_keys(const YamlSection& section);
void read_keys(const YamlSection& section, Testbench& testbench);

// The mapping at `path` in the testbench as it ran: its keys' values in the table's order.
nlohmann::ordered_json resolved_keys(const std::string& path, const ResolvedView& view);

// Which machine keys machine_quantities takes.
enum class QuantityKeys {
  of_its_model,  // those that apply to the machine's model (the statistics)
  every_model,   // every one, the hierarchical machine's included (Python's machine view)
};

// The machine's quantities under the table's names, nested as its keys are ("shared":
// {"memory": ...} for machine.shared.memory), in the table's order: every key below `path` that
// has a quantity.
nlohmann::ordered_json machine_quantities(const MachineConfig& machine, QuantityKeys which,
                                          const std::string& path = "machine");

// The type as the reference names it: "integer 1 .. 2^16", "`dmm`, `umm`", "boolean".
std::string type_text(const TestbenchKey& key);

// A reference table of docs/testbench.md (Markdown, one row per key listed in it): the keys named
// relative to `base` ("machine": `shared.latency`); the default column only when a key has one.
std::string reference_table(const std::string& table, const std::string& base);

}  // namespace mmsim
