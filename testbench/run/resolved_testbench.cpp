#include "testbench/run/resolved_testbench.hpp"

#include <filesystem>

#include <yaml-cpp/yaml.h>

#include "hw/machine/machine_models.hpp"
#include "sw/programs/catalogue.hpp"

namespace mmsim {
namespace {

using json = nlohmann::ordered_json;

json machine_json(const MachineConfig& m, bool race_check) {
  const MachineModel& model = machine_model(m);
  json out = {
      {"model", m.model}, {"width", m.width}, {"latency", m.latency}, {"threads", m.threads}};
  if (!model.one_unit) out["super_warp"] = m.super_warp;  // one-unit models fix it to p/w
  out.update({{"dispatch", m.dispatch},
              {"seed", m.seed},
              {"barrier_latency", m.barrier_latency},
              {"compute_latency", m.compute_latency},
              {"write_conflict", std::string(to_string(m.write_conflict))},
              {"memory", m.memory_words},
              {"local_memory", m.local_words},
              {"race_check", race_check}});
  if (!model.hierarchical) {
    const AddressMapInfo& map = address_map_of(m);
    out["address_map"] = map.name;
    if (map.shift_table) out["rsu"] = rsu_json(m.mapping, m.seed);
    if (m.kernel_latency != 0) out["kernel_latency"] = m.kernel_latency;
    return out;
  }
  out["multiprocessors"] = m.multiprocessors;
  out["kernel_latency"] = m.kernel_latency;
  out["shared"] = shared_memory_json(m, "memory");
  out["global"] = {{"width", m.global_words_per_group()}};
  return out;
}

// A string parameter that names a file relative to the testbench's folder, made absolute. Bare
// words (keywords such as random, or read) are left as they are.
std::string parameter_path(const std::string& value, const std::filesystem::path& base_dir) {
  const std::string prefix = value.starts_with("file:") ? "file:" : "";
  const std::string path = value.substr(prefix.size());
  if (path.find_first_of("/.") == std::string::npos) return value;
  std::error_code error;
  const std::filesystem::path file = base_dir / path;
  if (!std::filesystem::is_regular_file(file, error)) return value;
  return prefix + std::filesystem::absolute(file, error).lexically_normal().string();
}

json params_json(const Testbench& tb) {
  json out = json::object();
  const ParamValues& values = tb.args.params;
  for (const ParamSpec& spec : find_program(tb.program)->params) {
    if (!values.has(spec.name)) continue;
    switch (spec.type) {
      case ParamType::integer:
        out[spec.name] = values.integer(spec.name);
        break;
      case ParamType::boolean:
        out[spec.name] = values.boolean(spec.name);
        break;
      case ParamType::string:
        out[spec.name] = parameter_path(values.string(spec.name), tb.args.base_dir);
        break;
      case ParamType::integer_list:
        out[spec.name] = values.integers(spec.name);
        break;
    }
  }
  return out;
}

json lanes_json(const std::vector<Address>& addresses) {
  json out = json::array();
  for (const Address a : addresses) out.push_back(a == kInactive ? json(nullptr) : json(a));
  return out;
}

json warps_json(const TraceListing& listing) {
  json warps = json::array();
  for (const std::vector<TraceInstruction>& warp : listing.warps) {
    json instructions = json::array();
    for (const TraceInstruction& in : warp) {
      json item;
      switch (in.kind) {
        case TraceInstruction::Kind::sync:
          item = {{"sync", true}};
          break;
        case TraceInstruction::Kind::grid_sync:
          item = {{"grid_sync", true}};
          break;
        case TraceInstruction::Kind::read:
          item = {{"read", lanes_json(in.addresses)}};
          break;
        case TraceInstruction::Kind::write:
          item = {{"write", lanes_json(in.addresses)}};
          if (!in.values.empty()) item["values"] = in.values;
          break;
      }
      if (in.space == Space::shared) item["space"] = "shared";
      instructions.push_back(item);
    }
    warps.push_back(instructions);
  }
  return warps;
}

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

json rsu_json(const BankMapping& mapping, std::uint64_t seed) {
  if (!mapping.rsu_shifts.empty()) return {{"shifts", mapping.rsu_shifts}};
  return {{"seed", mapping.rsu_seed.value_or(seed)}};
}

json shared_memory_json(const MachineConfig& m, const std::string& words_key) {
  const AddressMapInfo& map = shared_address_map(m);
  json shared = {{"model", m.shared.model},
                 {"latency", m.shared.latency},
                 {words_key, m.shared.words},
                 {"address_map", map.name}};
  if (map.shift_table) shared["rsu"] = rsu_json(m.shared.mapping, m.seed);
  return shared;
}

json resolved_testbench(const Testbench& tb, const MachineConfig& machine) {
  json out = {{"name", tb.name}};
  if (!tb.description.empty()) out["description"] = tb.description;
  out["machine"] = machine_json(machine, tb.race_check);
  json program = {{"name", tb.program}, {"params", params_json(tb)}};
  if (tb.args.listing) program["warps"] = warps_json(*tb.args.listing);
  out["program"] = program;
  if (!tb.expect.empty()) out["expect"] = tb.expect;
  return out;
}

std::string yaml_text(const nlohmann::ordered_json& value) {
  YAML::Emitter out;
  emit(out, value, false);
  return std::string(out.c_str()) + "\n";
}

}  // namespace mmsim
