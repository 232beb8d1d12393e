// The keys of `outputs` (docs/testbench.md): one line per output a testbench may ask for, from
// which its rows of the schema are made (its key, and the keys of its mapping). The runner writes
// each with a part of its own (testbench/run/output_parts.cpp).
#pragma once

#include <string>
#include <vector>

#include "testbench/input/testbench_schema.hpp"

namespace mmsim {

// What a testbench may give an output.
enum class OutputShape {
  file,      // a file name (outputs.stats)
  flag,      // `true` (outputs.profile: no file of its own)
  windowed,  // a file name, or a mapping {file, from, to, limit}
  waveform,  // a file name, or a mapping {file, from, to, scopes, limit}
};

struct OutputKeys {
  std::string name{};  // outputs.<name>
  OutputShape shape{};
  std::string type_text{};  // the reference's type, where the shape does not say it
  std::string meaning{};    // of outputs.<name>
  std::string file{};       // what its file holds: "the waveform"
  std::string unit{};       // of its window: "cycle", "time unit"
  std::string format{};     // what its limit counts: "VCD", "JSON"
  std::string kept{};       // what its window does: "shown", "kept"
};

// Every output's line, in the reference's order.
const std::vector<OutputKeys>& output_key_lines();

// The rows of the schema for the outputs: outputs.<name> and its mapping's keys, in order.
std::vector<TestbenchKey> output_keys();

}  // namespace mmsim
