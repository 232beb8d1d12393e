#include "testbench/run/resolved_testbench.hpp"

#include <algorithm>

#include <yaml-cpp/yaml.h>

#include "testbench/input/testbench_schema.hpp"

namespace mmsim {
namespace {

using json = nlohmann::ordered_json;

bool scalar(const json& value) { return !value.is_structured(); }

void emit(YAML::Emitter& out, const json& value, bool in_sequence) {
  if (value.is_object()) {
    out << (in_sequence ? YAML::Flow : YAML::Block) << YAML::BeginMap;
    for (const auto& [key, item] : value.items()) {
      out << YAML::Key << key << YAML::Value;
      emit(out, item, in_sequence);
    }
    out << YAML::EndMap;
  } else if (value.is_array()) {
    const bool flow = in_sequence || std::all_of(value.begin(), value.end(), scalar);
    out << (flow ? YAML::Flow : YAML::Block) << YAML::BeginSeq;
    for (const json& item : value) emit(out, item, true);
    out << YAML::EndSeq;
  } else if (value.is_string()) {
    out << YAML::DoubleQuoted << value.get<std::string>();
  } else if (value.is_boolean()) {
    out << value.get<bool>();
  } else if (value.is_number_unsigned()) {
    out << value.get<std::uint64_t>();
  } else if (value.is_number_integer()) {
    out << value.get<std::int64_t>();
  } else if (value.is_number_float()) {
    out << value.get<double>();
  } else {
    out << YAML::Null;
  }
}

}  // namespace

json resolved_testbench(const Testbench& tb, const MachineConfig& machine) {
  return resolved_keys("", ResolvedView{.testbench = tb, .machine = machine});
}

std::string yaml_text(const nlohmann::ordered_json& value) {
  YAML::Emitter out;
  emit(out, value, false);
  return std::string(out.c_str()) + "\n";
}

}  // namespace mmsim
