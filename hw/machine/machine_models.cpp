#include "hw/machine/machine_models.hpp"

#include "hw/mmu/bandwidth_serializer.hpp"
#include "hw/mmu/coalescer.hpp"
#include "hw/mmu/crossbar.hpp"
#include "hw/mmu/ported_banks.hpp"
#include "hw/mmu/request_packing_unit.hpp"
#include "hw/support/errors.hpp"

namespace mmsim {
namespace {

std::unique_ptr<StageSplitter> one_port_splitter(Splitting splitting, unsigned width,
                                                 std::size_t lanes, std::uint64_t cells) {
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

// The splitter of a memory whose banks have `ports` ports (the crossbar has no banks: one stage
// group for any dispatch, whatever the ports).
std::unique_ptr<StageSplitter> make_splitter(Splitting splitting, unsigned width, std::size_t lanes,
                                             std::uint64_t cells, unsigned ports) {
  std::unique_ptr<StageSplitter> one_port = one_port_splitter(splitting, width, lanes, cells);
  if (ports == 1 || splitting == Splitting::crossbar) return one_port;
  return std::make_unique<PortedBanks>(std::move(one_port), ports);
}

// `copy`: which of the machine's memories with this mapping it is.
AddressMapParams map_params(const BankMapping& mapping, unsigned width, std::uint64_t words,
                            std::uint64_t seed, std::uint64_t copy = 0) {
  return {.width = width,
          .rows = (words + width - 1) / width,
          .shifts = mapping.rsu_shifts,
          .seed = mapping.rsu_seed.value_or(seed),
          .copy = copy};
}

const AddressMapInfo& map_named(const BankMapping& mapping, const MachineModel& model) {
  if (mapping.own_map) return *mapping.own_map;
  const std::string& chosen = mapping.address_map;
  const std::string& name = chosen.empty() ? model.memory.address_map : chosen;
  const AddressMapInfo* info = find_address_map(name);
  if (!info) throw ConfigError("address_map", "unknown address map '" + name + "'");
  return *info;
}

}  // namespace

const std::vector<MachineModel>& machine_models() {
  static const std::vector<MachineModel> models = {
      {.name = "dmm",
       .description =
           "Discrete Memory Machine: a warp occupies one stage per request to its busiest bank",
       .reference = "Nakano 2012",
       .memory = {.splitting = Splitting::banked, .other_maps = true},
       .shared_memory = true},
      {.name = "sdmm",
       .description =
           "Super DMM: a super warp of s warps occupies one stage per request to its busiest bank",
       .reference = "Nakano and Matsumae 2013",
       .memory = {.splitting = Splitting::banked, .other_maps = true},
       .super_warps = true,
       .shared_memory = true},
      {.name = "rsdmm",
       .description =
           "Random Super DMM: the sdmm behind a random shift unit (bank (k + r_j) mod w)",
       .reference = "Nakano and Matsumae 2013",
       .memory = {.splitting = Splitting::banked, .address_map = "random_shift"},
       .super_warps = true,
       .shared_memory = true},
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
       .one_unit = true,
       .shared_memory = true},
      {.name = "hmm",
       .description = "Hierarchical Memory Machine: d streaming multiprocessors, each with a "
                      "DMM-family shared memory (latency l_s), over one UMM global memory "
                      "(width w_g, latency l)",
       .reference = "Nakano 2013",
       .memory = {.splitting = Splitting::coalesced},
       .hierarchical = true},
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

std::vector<MemorySpec> memory_specs(const ResolvedMachine& machine) {
  const MachineConfig& c = machine.config();
  const MachineModel& model = machine_model(c);
  const std::size_t lanes = std::size_t{c.width} * c.super_warp;
  std::vector<MemorySpec> memories;
  const unsigned width = model.hierarchical ? c.global_words_per_group() : c.width;
  const std::uint64_t cells = (c.memory_words + width - 1) / width * width;
  memories.push_back(MemorySpec{
      .name = model.hierarchical ? "global_memory" : "memory",
      .label = model.hierarchical ? "global" : "memory",
      .block = kNoBlock,
      .width = width,
      .latency = c.latency,
      .words = c.memory_words,
      .map = address_map_of(c).make(map_params(c.mapping, width, c.memory_words, c.seed)),
      .splitter = make_splitter(model.memory.splitting, width, lanes, cells, c.ports)});
  if (!model.hierarchical) return memories;
  const MachineModel& shared = shared_memory_model(c);
  const std::uint64_t shared_cells = (c.shared.words + c.width - 1) / c.width * c.width;
  for (unsigned j = 0; j < c.multiprocessors; ++j)
    memories.push_back(MemorySpec{
        .name = "shared_memory",
        .label = "SM " + std::to_string(j) + " shared",
        .block = j,
        .width = c.width,
        .latency = c.shared.latency,
        .words = c.shared.words,
        // Drawn shift tables differ from one streaming multiprocessor to the next.
        .map = shared_address_map(c).make(
            map_params(c.shared.mapping, c.width, c.shared.words, c.seed, j)),
        .splitter =
            make_splitter(shared.memory.splitting, c.width, lanes, shared_cells, c.shared.ports)});
  return memories;
}

}  // namespace mmsim
