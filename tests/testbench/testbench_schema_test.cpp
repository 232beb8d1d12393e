// The table of testbench keys is the one place a key is declared: what it says of a key (its
// default, its place in the testbench as it ran, the keys a mapping allows) is what the loader
// and the runner do. (That docs/testbench.md's tables are the table's: docs.testbench_reference.)
#include <gtest/gtest.h>

#include <set>
#include <string>

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

}  // namespace
}  // namespace mmsim::test
