#include "hw/machine/machine_config.hpp"

#include <bit>

#include "hw/dispatch/dispatch_policy.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/memory/address_maps.hpp"
#include "hw/support/errors.hpp"

namespace mmsim {
namespace {

void validate_address_map(const MachineConfig& c, const MachineModel& model) {
  const std::string& chosen = c.mapping.address_map;
  if (!chosen.empty() && !find_address_map(chosen))
    throw ConfigError("address_map", "unknown address map '" + chosen + "'");
  const AddressMapInfo& map = address_map_of(c);
  if (map.name != model.memory.address_map && !model.memory.other_maps)
    throw ConfigError("address_map", "model " + c.model + " maps addresses " +
                                         model.memory.address_map +
                                         " only; address_map applies to dmm and sdmm" +
                                         (find_address_map(model.memory.address_map)->shift_table
                                              ? " (rsdmm is sdmm with random_shift)"
                                              : ""));
  if (map.power_of_two && !std::has_single_bit(c.width))
    throw ConfigError("address_map",
                      "address map " + map.name +
                          " needs w a power of two (got w = " + std::to_string(c.width) + ")");
  const std::vector<std::uint32_t>& shifts = c.mapping.rsu_shifts;
  const bool rsu_given = !shifts.empty() || c.mapping.rsu_seed;
  if (rsu_given && !map.shift_table)
    throw ConfigError(c.mapping.rsu_seed ? "rsu.seed" : "rsu.shifts",
                      "the random shift unit exists only with address_map random_shift "
                      "(model rsdmm, or dmm/sdmm with address_map: random_shift); this "
                      "machine maps addresses " +
                          map.name);
  for (std::size_t j = 0; j < shifts.size(); ++j)
    if (shifts[j] >= c.width)
      throw ConfigError("rsu.shifts[" + std::to_string(j) + "]",
                        "r_" + std::to_string(j) + " = " + std::to_string(shifts[j]) +
                            " is outside [0, w) = [0, " + std::to_string(c.width) + ")");
  // The table has one shift per row; the memory size may not be known yet (0).
  if (!shifts.empty() && c.memory_words != 0 && shifts.size() != c.rows())
    throw ConfigError("rsu.shifts",
                      "expected one shift per row of memory: " + std::to_string(c.rows()) +
                          " (ceil(" + std::to_string(c.memory_words) + " words / w = " +
                          std::to_string(c.width) + ")), got " + std::to_string(shifts.size()));
}

}  // namespace

void validate(const MachineConfig& c) {
  const MachineModel& model = machine_model(c);
  if (c.width < 1) throw ConfigError("width", "the width w must be at least 1");
  if (c.latency < 1) throw ConfigError("latency", "the latency l must be at least 1");
  if (c.super_warp < 1) throw ConfigError("super_warp", "the super warp size s must be at least 1");
  if (!model.super_warps && !model.one_unit && c.super_warp != 1)
    throw ConfigError("super_warp", "model " + c.model +
                                        " dispatches single warps: super_warp must be 1 (got " +
                                        std::to_string(c.super_warp) + ")");
  const std::uint64_t unit = std::uint64_t{c.width} * c.super_warp;
  if (c.threads == 0) throw ConfigError("threads", "the number of threads p must be at least 1");
  if (c.threads % unit != 0)
    throw ConfigError("threads", "p = " + std::to_string(c.threads) + " is not a multiple of " +
                                     (c.super_warp == 1 ? "w = " + std::to_string(c.width)
                                                        : "s*w = " + std::to_string(unit)));
  if (model.one_unit && c.super_warp != c.warps())
    throw ConfigError("super_warp", "model " + c.model +
                                        " dispatches all p threads as one unit: super_warp must "
                                        "be p/w = " +
                                        std::to_string(c.warps()) + " (got " +
                                        std::to_string(c.super_warp) + ")");
  if (c.memory_words > kMaxMemoryWords)
    throw ConfigError("memory", "memory of " + std::to_string(c.memory_words) +
                                    " words exceeds the limit of 2^32 words");
  validate_address_map(c, model);
  bool known_policy = false;
  for (const PolicyInfo& policy : dispatch_policies()) known_policy |= policy.name == c.dispatch;
  if (!known_policy) throw ConfigError("dispatch", "unknown dispatch policy '" + c.dispatch + "'");
}

}  // namespace mmsim
