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

// `machine`: the machine as resolved for the run. Its keys, and their order, are the table's
// (testbench/input/testbench_schema.hpp).
nlohmann::ordered_json resolved_testbench(const Testbench& testbench, const MachineConfig& machine);

// A testbench (or any JSON value) as YAML, keys in their order: mappings in block style, lists of
// scalars and what lists hold in flow style, strings quoted.
std::string yaml_text(const nlohmann::ordered_json& value);

}  // namespace mmsim
