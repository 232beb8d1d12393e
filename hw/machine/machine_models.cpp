#include "hw/machine/machine_models.hpp"

#include "hw/memory/address_maps.hpp"
#include "hw/mmu/bandwidth_serializer.hpp"
#include "hw/mmu/coalescer.hpp"
#include "hw/mmu/request_packing_unit.hpp"

namespace mmsim {
namespace {

std::size_t lanes(const MachineConfig& c) { return std::size_t{c.width} * c.super_warp; }

std::vector<MemorySpec> one_memory(const MachineConfig& c, std::unique_ptr<StageSplitter> splitter,
                                   unsigned latency) {
  std::vector<MemorySpec> memories;
  memories.push_back(MemorySpec{"memory", c.width, latency, c.memory_words,
                                find_address_map(address_map_of(c))->make(c), std::move(splitter)});
  return memories;
}

// The DMM family: the request packing unit over all s*w lanes of a dispatch, behind the
// address map (for rsdmm the random shift unit).
std::vector<MemorySpec> banked_memory(const MachineConfig& c) {
  return one_memory(c, std::make_unique<RequestPackingUnit>(c.width, lanes(c), c.rows() * c.width),
                    c.latency);
}

}  // namespace

const std::vector<MachineModel>& machine_models() {
  static const std::vector<MachineModel> models = {
      {"dmm", "Discrete Memory Machine: a warp occupies one stage per request to its busiest bank",
       "000", false, false, banked_memory, "interleaved", true},
      {"sdmm",
       "Super DMM: a super warp of s warps occupies one stage per request to its busiest bank",
       "002", true, false, banked_memory, "interleaved", true},
      {"rsdmm", "Random Super DMM: the sdmm behind a random shift unit (bank (k + r_j) mod w)",
       "002", true, false, banked_memory, "random_shift", false},
      {"umm", "Unified Memory Machine: a warp occupies one stage per address group it touches",
       "000", false, false,
       [](const MachineConfig& c) {
         return one_memory(c, std::make_unique<Coalescer>(c.width, lanes(c)), c.latency);
       }},
      {"bpram", "bandwidth-limited PRAM (reference): any w requests per time unit, latency 1",
       "000", false, true,
       [](const MachineConfig& c) {
         return one_memory(c, std::make_unique<BandwidthSerializer>(c.width, lanes(c)), 1);
       }},
  };
  return models;
}

std::string address_map_of(const MachineConfig& config) {
  if (!config.address_map.empty()) return config.address_map;
  const MachineModel* model = find_machine_model(config.model);
  return model ? model->address_map : "interleaved";
}

const MachineModel* find_machine_model(std::string_view name) {
  for (const MachineModel& model : machine_models())
    if (model.name == name) return &model;
  return nullptr;
}

}  // namespace mmsim
