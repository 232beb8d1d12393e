#include "hw/machine/machine_config.hpp"

#include <bit>

#include "hw/dispatch/dispatch_policies.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/memory/address_maps.hpp"
#include "hw/support/errors.hpp"

namespace mmsim {
namespace {

const AddressMapInfo& map_named(const BankMapping& mapping, const MachineModel& model) {
  if (mapping.own_map) return *mapping.own_map;
  const std::string& chosen = mapping.address_map;
  const std::string& name = chosen.empty() ? model.memory.address_map : chosen;
  const AddressMapInfo* info = find_address_map(name);
  if (!info) throw ConfigError("address_map", "unknown address map '" + name + "'");
  return *info;
}


// The bank mapping of a memory of `model`, `map` the map it runs with. Keys of errors start with `prefix` ("" or "shared.").
void validate_mapping(const BankMapping& mapping, const AddressMapInfo& map,
                      const MachineModel& model, unsigned width, const std::string& prefix) {
  if (map.name != model.memory.address_map && !model.memory.other_maps)
    throw ConfigError(prefix + "address_map",
                      "model " + model.name + " maps addresses " + model.memory.address_map +
                          " only; address_map applies to dmm and sdmm" +
                          (find_address_map(model.memory.address_map)->shift_table
                               ? " (rsdmm is sdmm with random_shift)"
                               : ""));
  if (map.power_of_two && !std::has_single_bit(width))
    throw ConfigError(prefix + "address_map",
                      "address map " + map.name +
                          " needs w a power of two (got w = " + std::to_string(width) + ")");
  const std::vector<std::uint32_t>& shifts = mapping.rsu_shifts;
  const bool rsu_given = !shifts.empty() || mapping.rsu_seed;
  if (rsu_given && !map.shift_table)
    throw ConfigError(prefix + (mapping.rsu_seed ? "rsu.seed" : "rsu.shifts"),
                      "the random shift unit exists only with address_map random_shift "
                      "(model rsdmm, or dmm/sdmm with address_map: random_shift); this "
                      "memory maps addresses " +
                          map.name);
  for (std::size_t j = 0; j < shifts.size(); ++j)
    if (shifts[j] >= width)
      throw ConfigError(prefix + "rsu.shifts[" + std::to_string(j) + "]",
                        "r_" + std::to_string(j) + " = " + std::to_string(shifts[j]) +
                            " is outside [0, w) = [0, " + std::to_string(width) + ")");
}

// The random shift unit's table has one shift per row of a memory of `words` words (0: not
// known yet).
void validate_shift_rows(const BankMapping& mapping, unsigned width, std::uint64_t words,
                         const std::string& prefix) {
  const std::vector<std::uint32_t>& shifts = mapping.rsu_shifts;
  const std::uint64_t rows = (words + width - 1) / width;
  if (!shifts.empty() && words != 0 && shifts.size() != rows)
    throw ConfigError(prefix + "rsu.shifts",
                      "expected one shift per row of memory: " + std::to_string(rows) + " (ceil(" +
                          std::to_string(words) + " words / w = " + std::to_string(width) +
                          ")), got " + std::to_string(shifts.size()));
}

void validate_words(std::uint64_t words, const std::string& key) {
  if (words > kMaxMemoryWords)
    throw ConfigError(
        key, "memory of " + std::to_string(words) + " words exceeds the limit of 2^32 words");
}

// The streaming multiprocessors of the hierarchical machine and their shared memories.
void validate_hierarchy(const MachineConfig& c, const MachineModel& model) {
  if (!model.hierarchical) {
    if (c.multiprocessors != 1)
      throw ConfigError(
          "multiprocessors",
          "model " + c.model + " is one flat machine; multiprocessors applies to model hmm");
    return;
  }
  if (c.multiprocessors < 1)
    throw ConfigError("multiprocessors", "the number of multiprocessors d must be at least 1");
  const bool map_given = !c.mapping.address_map.empty() || c.mapping.own_map;
  if (map_given || !c.mapping.rsu_shifts.empty() || c.mapping.rsu_seed)
    throw ConfigError(map_given ? "address_map" : "rsu",
                      "the global memory of the hmm is a UMM, whose address groups are whole "
                      "rows; map the banks of the shared memories with shared.address_map and "
                      "shared.rsu");
  const MachineModel& shared = shared_memory_model(c);
  if (c.super_warp != 1 && !shared.super_warps)
    throw ConfigError("super_warp",
                      "shared memories of model " + shared.name +
                          " serve single warps: super_warp must be 1 (shared.model sdmm or "
                          "rsdmm takes super warps)");
  if (c.shared.latency < 1)
    throw ConfigError("shared.latency", "the shared memory latency l_s must be at least 1");
  if (c.shared.ports < 1)
    throw ConfigError("shared.ports", "a bank needs at least one port (shared.ports >= 1)");
  validate_mapping(c.shared.mapping, shared_address_map(c), shared, c.width, "shared.");
}

}  // namespace

void validate(const MachineConfig& c) {
  const MachineModel& model = machine_model(c);
  if (c.width < 1) throw ConfigError("width", "the width w must be at least 1");
  if (c.latency < 1) throw ConfigError("latency", "the latency l must be at least 1");
  if (c.super_warp < 1) throw ConfigError("super_warp", "the super warp size s must be at least 1");
  if (c.ports < 1) throw ConfigError("ports", "a bank needs at least one port (ports >= 1)");
  if (!model.super_warps && !model.one_unit && !model.hierarchical && c.super_warp != 1)
    throw ConfigError("super_warp", "model " + c.model +
                                        " dispatches single warps: super_warp must be 1 (got " +
                                        std::to_string(c.super_warp) + ")");
  validate_hierarchy(c, model);
  const std::uint64_t unit = std::uint64_t{c.width} * c.super_warp;
  if (c.threads == 0) throw ConfigError("threads", "the number of threads p must be at least 1");
  const std::uint64_t block = unit * c.multiprocessors;  // each SM runs whole dispatch units
  if (c.threads % block != 0) {
    const std::string name = c.super_warp == 1 ? "w" : "s*w";
    const std::string multiple = c.multiprocessors == 1
                                     ? name + " = " + std::to_string(unit)
                                     : "d*" + name + " = " + std::to_string(block) +
                                           " (each multiprocessor runs p/d threads in whole " +
                                           (c.super_warp == 1 ? "warps)" : "super warps)");
    throw ConfigError("threads",
                      "p = " + std::to_string(c.threads) + " is not a multiple of " + multiple);
  }
  if (model.one_unit && c.super_warp != c.warps())
    throw ConfigError("super_warp", "model " + c.model +
                                        " dispatches all p threads as one unit: super_warp must "
                                        "be p/w = " +
                                        std::to_string(c.warps()) + " (got " +
                                        std::to_string(c.super_warp) + ")");
  if (!c.mapping.address_map.empty() && !find_address_map(c.mapping.address_map))
    throw ConfigError("address_map", "unknown address map '" + c.mapping.address_map + "'");
  if (!model.hierarchical)
    validate_mapping(c.mapping, address_map_of(c), model, c.width, "");
  bool known_policy = c.own_policy != nullptr;
  for (const PolicyInfo& policy : dispatch_policies()) known_policy |= policy.name == c.dispatch;
  if (!known_policy) throw ConfigError("dispatch", "unknown dispatch policy '" + c.dispatch + "'");
  validate_memory(c);
}

void validate_memory(const MachineConfig& c) {
  validate_words(c.memory_words, "memory");
  if (!machine_model(c).hierarchical) {
    validate_shift_rows(c.mapping, c.width, c.memory_words, "");
    return;
  }
  validate_words(c.shared.words, "shared.memory");
  validate_shift_rows(c.shared.mapping, c.width, c.shared.words, "shared.");
}

const MachineModel& machine_model(const MachineConfig& config) {
  const MachineModel* model = find_machine_model(config.model);
  if (!model) throw ConfigError("model", "unknown machine model '" + config.model + "'");
  return *model;
}

const AddressMapInfo& address_map_of(const MachineConfig& config) {
  return map_named(config.mapping, machine_model(config));
}

const MachineModel& shared_memory_model(const MachineConfig& config) {
  const MachineModel* model = find_machine_model(config.shared.model);
  if (!model || !model->shared_memory)
    throw ConfigError("shared.model", "unknown shared memory model '" + config.shared.model + "'");
  return *model;
}

const AddressMapInfo& shared_address_map(const MachineConfig& config) {
  return map_named(config.shared.mapping, shared_memory_model(config));
}

}  // namespace mmsim
