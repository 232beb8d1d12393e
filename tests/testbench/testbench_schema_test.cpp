// The table of testbench keys is the one place a key is declared: what it says of a key (its
// default, its place in the testbench as it ran, the keys a mapping allows) is what the loader
// and the runner do. (That docs/testbench.md's tables are the table's: docs.testbench_reference.)
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "support/command.hpp"
#include "support/temp_dir.hpp"
#include "testbench/input/testbench.hpp"
#include "testbench/input/testbench_schema.hpp"
#include "testbench/run/runner.hpp"

namespace mmsim::test {
namespace {

// Every key left at its default (threads and memory: the program's own).
const std::string kFlat = R"(machine: {model: dmm, width: 4, latency: 3}
program: {name: sum_simple, params: {n: 64}}
)";
const std::string kHierarchical = R"(machine: {model: hmm, width: 4, latency: 3, threads: 4}
program:
  name: trace
  warps: [[{read: [0, 1, 2, 3]}]]
)";

nlohmann::ordered_json resolved(const std::string& yaml) {
  TempDir dir;
  return preview_testbench(load_testbench(dir.write("testbench.yaml", yaml))).resolved;
}

// The value at a dotted path of the testbench as it ran, or null.
const nlohmann::ordered_json* at(const nlohmann::ordered_json& value, const std::string& path) {
  const nlohmann::ordered_json* node = &value;
  for (std::size_t start = 0; start <= path.size();) {
    const std::size_t dot = std::min(path.find('.', start), path.size());
    const std::string key = path.substr(start, dot - start);
    if (!node->is_object() || !node->contains(key)) return nullptr;
    node = &node->at(key);
    start = dot + 1;
  }
  return node;
}

// A default the reference gives as a value: 1, `round_robin`, `false` (not "none", "empty").
std::optional<std::string> literal(const std::string& text) {
  std::string value = text;
  if (value.size() > 2 && value.front() == '`' && value.back() == '`')
    value = value.substr(1, value.size() - 2);
  if (value.find_first_of(" ;`") != std::string::npos || value.empty() || value == "none" ||
      value == "empty")
    return std::nullopt;
  return value;
}

TEST(TestbenchSchema, EveryDefaultOfTheReferenceIsWhatTheRunTakes) {
  const nlohmann::ordered_json flat = resolved(kFlat);
  const nlohmann::ordered_json hierarchical = resolved(kHierarchical);
  std::set<std::string> checked;
  for (const TestbenchKey& key : testbench_keys()) {
    const std::optional<std::string> value = literal(key.default_text);
    if (!value || !key.resolved) continue;
    for (const nlohmann::ordered_json* run : {&flat, &hierarchical}) {
      const nlohmann::ordered_json* taken = at(*run, key.path);
      if (!taken) continue;
      const std::string shown = taken->is_string() ? taken->get<std::string>() : taken->dump();
      EXPECT_EQ(shown, *value) << key.path;
      checked.insert(key.path);
    }
  }
  // The machine's defaults, the hierarchical machine's among them, were all met.
  EXPECT_EQ(checked,
            (std::set<std::string>{"machine.super_warp", "machine.dispatch", "machine.seed",
                                   "machine.barrier_latency", "machine.compute_latency",
                                   "machine.write_conflict", "machine.race_check",
                                   "machine.multiprocessors", "machine.kernel_latency",
                                   "machine.shared.model", "machine.shared.latency"}));
}

// Each mapping of the testbench as it ran holds its keys in the table's order.
void expect_table_order(const nlohmann::ordered_json& value, const std::string& path) {
  const std::vector<std::string> keys = keys_of(path);
  std::size_t next = 0;
  for (const auto& [key, item] : value.items()) {
    const auto found = std::find(keys.begin() + static_cast<std::ptrdiff_t>(next), keys.end(), key);
    ASSERT_NE(found, keys.end()) << (path.empty() ? "" : path + ".") << key
                                 << " is out of the table's order";
    next = static_cast<std::size_t>(found - keys.begin()) + 1;
    const std::string child = path.empty() ? key : path + "." + key;
    if (item.is_object() && !keys_of(child).empty()) expect_table_order(item, child);
  }
}

TEST(TestbenchSchema, TheTestbenchAsItRanFollowsTheTable) {
  expect_table_order(resolved(kFlat + "expect: {syncthreads: 6, cycles: 200}\n"), "");
  expect_table_order(resolved(kHierarchical), "");
  const nlohmann::ordered_json rsu = resolved(
      "machine: {model: rsdmm, width: 4, latency: 3, super_warp: 2}\n"
      "program: {name: sum_simple, params: {n: 64}}\n");
  expect_table_order(rsu, "");
  EXPECT_EQ(at(rsu, "machine.rsu")->dump(), R"({"seed":1})");
}

TEST(TestbenchSchema, AMappingAllowsTheKeysOfTheTableAndSuggestsTheNearest) {
  TempDir dir;
  const auto message = [&](const std::string& yaml) {
    try {
      load_testbench(dir.write("testbench.yaml", yaml));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("loaded");
  };
  EXPECT_EQ(message(kFlat + "outputs: {stat: out.json}\n"),
            "unknown key 'stat' in outputs (did you mean 'stats'?)");
  EXPECT_EQ(message("machine: {model: hmm, width: 4, latency: 3, shared: {latncy: 2}}\n"
                    "program: {name: sum_simple}\n"),
            "unknown key 'latncy' in machine.shared (did you mean 'latency'?)");
  EXPECT_EQ(message(kFlat + "expect: {cycle: 3}\n"),
            "unknown key 'cycle' in expect (did you mean 'cycles'?)");
  EXPECT_EQ(message("machine: {model: dmm, width: 4, latency: 3, shared: {latency: 2}}\n"
                    "program: {name: sum_simple}\n"),
            "machine.shared: machine.shared applies to model hmm (the hierarchical machine), "
            "not dmm");
}

// A key that fills one member (a field row, testbench/input/key_field.hpp) takes the values
// within its row's bounds or choices and writes them as it ran; one outside them is refused at
// its place with the bounds, exit status 2, nothing written.
TEST(TestbenchSchema, AFieldTakesItsBoundsAndWritesWhatItTook) {
  const std::string hmm = "machine: {model: hmm, width: 4, latency: 3, threads: 8, ";
  const std::string trace =
      "program: {name: trace, warps: [[{read: [0, 1, 2, 3]}], [{sync: true}]]}\n";
  const nlohmann::ordered_json taken =
      resolved(hmm +
               "compute_latency: 16777216, ports: 65536, write_conflict: lowest_lane, "
               "race_check: true, multiprocessors: 2, shared: {model: pram, latency: 7}}\n" +
               trace);
  EXPECT_EQ(at(taken, "machine.compute_latency")->dump(), "16777216");
  EXPECT_EQ(at(taken, "machine.ports")->dump(), "65536");
  EXPECT_EQ(at(taken, "machine.write_conflict")->dump(), R"("lowest_lane")");
  EXPECT_EQ(at(taken, "machine.race_check")->dump(), "true");
  EXPECT_EQ(at(taken, "machine.multiprocessors")->dump(), "2");
  EXPECT_EQ(at(taken, "machine.shared.model")->dump(), R"("pram")");
  EXPECT_EQ(at(taken, "machine.shared.latency")->dump(), "7");

  struct Refused {
    std::string line;   // the machine's keys
    std::string where;  // ":line:column" of the value
    std::string message;
  };
  for (const Refused& c : std::vector<Refused>{
           {"compute_latency: 16777217}", ":1:74",
            "machine.compute_latency: expected an integer from 0 to 16777216, got '16777217'"},
           {"ports: 0}", ":1:64", "machine.ports: expected an integer from 1 to 65536, got '0'"},
           {"write_conflict: highest}", ":1:73",
            "machine.write_conflict: unknown write-conflict rule 'highest' (expected one of: "
            "highest_lane, lowest_lane)"},
           {"race_check: 1}", ":1:69", "machine.race_check: expected true or false, got '1'"},
           {"shared: {latency: 0}}", ":1:75",
            "machine.shared.latency: expected an integer from 1 to 16777216, got '0'"},
           {"shared: {model: umm}}", ":1:73",
            "machine.shared.model: unknown shared memory model 'umm' (did you mean 'dmm'?)"},
       }) {
    TempDir dir;
    const auto file = dir.write("bench.yaml", hmm + c.line + "\n" + trace);
    const auto stats = dir / "out.json";
    const CommandResult r = mmsim("run " + shell_word(file) + " --stats " + shell_word(stats));
    EXPECT_EQ(r.status, 2) << c.line << ": " << r.err;
    EXPECT_NE(r.err.find("mmsim: " + file.string() + c.where + ": " + c.message), std::string::npos)
        << c.line << ": " << r.err;
    EXPECT_FALSE(std::filesystem::exists(stats)) << c.line;
  }
}

// A field left out is its member's default, which the reference gives and the testbench as it
// ran writes (where its row writes it at the default: ports and shared.ports only when not 1,
// kernel_latency on a flat machine only when not 0, multiprocessors only on the hierarchical
// machine, super_warp only where the model lets it differ).
TEST(TestbenchSchema, AFieldLeftOutIsItsDefaultAsTheReferenceSaysIt) {
  const nlohmann::ordered_json flat = resolved(kFlat);
  const nlohmann::ordered_json hierarchical = resolved(kHierarchical);
  for (const std::string path :
       {"machine.seed", "machine.barrier_latency", "machine.compute_latency",
        "machine.write_conflict", "machine.race_check", "machine.super_warp"}) {
    ASSERT_NE(at(flat, path), nullptr) << path;
    const std::string shown =
        at(flat, path)->is_string() ? at(flat, path)->get<std::string>() : at(flat, path)->dump();
    EXPECT_EQ(literal(testbench_key(path).default_text), shown) << path;
  }
  EXPECT_EQ(testbench_key("machine.seed").default_text, "1");
  EXPECT_EQ(testbench_key("machine.write_conflict").default_text, "`highest_lane`");
  EXPECT_EQ(testbench_key("machine.race_check").default_text, "`false`");
  EXPECT_EQ(testbench_key("machine.shared.model").default_text, "`dmm`");
  EXPECT_EQ(testbench_key("machine.ports").default_text, "1");
  for (const char* path : {"machine.ports", "machine.kernel_latency", "machine.multiprocessors"})
    EXPECT_EQ(at(flat, path), nullptr) << path;
  EXPECT_EQ(at(hierarchical, "machine.kernel_latency")->dump(), "0");
  EXPECT_EQ(at(hierarchical, "machine.multiprocessors")->dump(), "1");
  EXPECT_EQ(at(hierarchical, "machine.shared.ports"), nullptr);
  EXPECT_EQ(at(hierarchical, "machine.shared.latency")->dump(), "1");
  // Models of one dispatch unit fix s = p/w: super_warp is theirs, not the testbench's.
  EXPECT_EQ(at(resolved("machine: {model: pram, width: 4, latency: 3}\n"
                        "program: {name: sum_simple, params: {n: 64}}\n"),
               "machine.super_warp"),
            nullptr);
}

// The machine's quantities are named as the keys that set them, nested as they are: what the
// statistics and Python's machine view name them.
TEST(TestbenchSchema, TheMachinesQuantitiesAreNamedAsItsKeys) {
  MachineConfig m;
  m.model = "hmm";
  m.width = 4;
  m.memory_words = 96;
  m.shared.words = 12;
  m.shared.ports = 2;
  m.multiprocessors = 3;
  const nlohmann::ordered_json all = machine_quantities(m, QuantityKeys::of_its_model);
  EXPECT_EQ(all.dump(),
            R"({"model":"hmm","width":4,"latency":1,"threads":0,"super_warp":1,)"
            R"("dispatch":"round_robin","seed":1,"barrier_latency":0,"compute_latency":0,)"
            R"("write_conflict":"highest_lane","ports":1,"memory":96,"local_memory":0,)"
            R"("address_map":"interleaved","multiprocessors":3,"kernel_latency":0,)"
            R"("shared":{"model":"dmm","latency":1,"ports":2,"memory":12,)"
            R"("address_map":"interleaved"},"global":{"width":4}})");
  // A flat machine: the hierarchical machine's keys only where every model's are asked for.
  m.model = "dmm";
  const nlohmann::ordered_json flat = machine_quantities(m, QuantityKeys::of_its_model);
  for (const char* key : {"multiprocessors", "shared", "global"})
    EXPECT_FALSE(flat.contains(key)) << key;
  EXPECT_EQ(machine_quantities(m, QuantityKeys::every_model).at("shared").at("memory"), 12);
}

}  // namespace
}  // namespace mmsim::test
