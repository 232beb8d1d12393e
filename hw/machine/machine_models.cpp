#include "hw/machine/machine_models.hpp"

#include "hw/mmu/bandwidth_serializer.hpp"
#include "hw/mmu/coalescer.hpp"
#include "hw/mmu/crossbar.hpp"
#include "hw/mmu/request_packing_unit.hpp"
#include "hw/support/errors.hpp"

namespace mmsim {
namespace {

std::unique_ptr<StageSplitter> make_splitter(Splitting splitting, unsigned width, std::size_t lanes,
                                             std::uint64_t cells) {
  switch (splitting) {
    case Splitting::banked:
      return std::make_unique<RequestPackingUnit>(width, lanes, cells);
    case Splitting::coalesced:
      return std::make_unique<Coalescer>(width, lanes);
    case Splitting::bandwidth:
      return std::make_unique<BandwidthSerializer>(width, lanes);
    case Splitting::crossbar:
      return std::make_unique<Crossbar>(width);
  }
  throw ConfigError("model", "internal: unknown splitting");
}

AddressMapParams map_params(const MachineConfig& c) {
  return {.width = c.width,
          .rows = c.rows(),
          .shifts = c.mapping.rsu_shifts,
          .seed = c.mapping.rsu_seed.value_or(c.seed)};
}

}  // namespace

const std::vector<MachineModel>& machine_models() {
  static const std::vector<MachineModel> models = {
      {.name = "dmm",
       .description =
           "Discrete Memory Machine: a warp occupies one stage per request to its busiest bank",
       .reference = "Nakano 2012",
       .memory = {.splitting = Splitting::banked, .other_maps = true}},
      {.name = "sdmm",
       .description =
           "Super DMM: a super warp of s warps occupies one stage per request to its busiest bank",
       .reference = "Nakano and Matsumae 2013",
       .memory = {.splitting = Splitting::banked, .other_maps = true},
       .super_warps = true},
      {.name = "rsdmm",
       .description =
           "Random Super DMM: the sdmm behind a random shift unit (bank (k + r_j) mod w)",
       .reference = "Nakano and Matsumae 2013",
       .memory = {.splitting = Splitting::banked, .address_map = "random_shift"},
       .super_warps = true},
      {.name = "umm",
       .description =
           "Unified Memory Machine: a warp occupies one stage per address group it touches",
       .reference = "Nakano 2012",
       .memory = {.splitting = Splitting::coalesced}},
      {.name = "bpram",
       .description = "bandwidth-limited PRAM (reference): any w requests per time unit, latency 1",
       .reference = "Nakano 2012",
       .memory = {.splitting = Splitting::bandwidth},
       .unit_latency = true},
      {.name = "pram",
       .description =
           "PRAM (reference): all p threads access any cells in one time unit, latency 1",
       .reference = "Nakano 2012",
       .memory = {.splitting = Splitting::crossbar},
       .unit_latency = true,
       .one_unit = true},
  };
  return models;
}

const MachineModel* find_machine_model(std::string_view name) {
  for (const MachineModel& model : machine_models())
    if (model.name == name) return &model;
  return nullptr;
}

const MachineModel& machine_model(const MachineConfig& config) {
  const MachineModel* model = find_machine_model(config.model);
  if (!model) throw ConfigError("model", "unknown machine model '" + config.model + "'");
  return *model;
}

void apply_model_rules(MachineConfig& config) {
  const MachineModel& model = machine_model(config);
  if (model.unit_latency) config.latency = 1;
  if (model.one_unit && config.threads % config.width == 0 && config.warps() > 0)
    config.super_warp = static_cast<unsigned>(config.warps());
}

const AddressMapInfo& address_map_of(const MachineConfig& config) {
  const std::string& name = config.mapping.address_map.empty()
                                ? machine_model(config).memory.address_map
                                : config.mapping.address_map;
  const AddressMapInfo* info = find_address_map(name);
  if (!info) throw ConfigError("address_map", "unknown address map '" + name + "'");
  return *info;
}

std::vector<MemorySpec> memory_specs(const MachineConfig& c) {
  const MachineModel& model = machine_model(c);
  const std::size_t lanes = std::size_t{c.width} * c.super_warp;
  std::vector<MemorySpec> memories;
  memories.push_back(MemorySpec{
      .name = "memory",
      .width = c.width,
      .latency = model.unit_latency ? 1 : c.latency,
      .words = c.memory_words,
      .map = address_map_of(c).make(map_params(c)),
      .splitter = make_splitter(model.memory.splitting, c.width, lanes, c.rows() * c.width)});
  return memories;
}

}  // namespace mmsim
