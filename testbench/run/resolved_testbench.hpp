// The testbench as it ran (the `resolved` statistics key, testbench.yaml of --out-dir): every
// machine value after the defaults, the --set overrides and the model's rules (threads, memory,
// shared memory, latency), every program parameter with its default, the trace's instructions
// and the expectations; files that parameters name become absolute paths. `mmsim run` of it
// reproduces the run: the same statistics, and the same resolved testbench.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "hw/machine/machine_config.hpp"
#include "testbench/input/testbench.hpp"

namespace mmsim {

// The random shift unit of a bank mapping: {shifts} when given, else {seed} (its own, or the
// machine's `seed`).
nlohmann::ordered_json rsu_json(const BankMapping& mapping, std::uint64_t seed);

// The hierarchical machine's shared memory: model, latency, its size under `words_key` (the
// testbench's `memory`, the statistics' `memory_words`), address map and random shift unit.
nlohmann::ordered_json shared_memory_json(const MachineConfig& m, const std::string& words_key);

// `machine`: the machine as resolved for the run. Keys in the order of docs/testbench.md.
nlohmann::ordered_json resolved_testbench(const Testbench& testbench, const MachineConfig& machine);

// A testbench (or any JSON value) as YAML, keys in their order: mappings in block style, lists of
// scalars and what lists hold in flow style, strings quoted.
std::string yaml_text(const nlohmann::ordered_json& value);

}  // namespace mmsim
