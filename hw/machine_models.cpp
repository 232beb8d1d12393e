#include "hw/machine_models.hpp"

#include "hw/bandwidth_serializer.hpp"
#include "hw/coalescer.hpp"
#include "hw/request_packing_unit.hpp"

namespace mmsim {
namespace {

std::size_t lanes(const MachineConfig& c) { return std::size_t{c.width} * c.super_warp; }

std::vector<MemorySpec> one_memory(const MachineConfig& c, std::unique_ptr<StageSplitter> splitter,
                                   unsigned latency) {
  std::vector<MemorySpec> memories;
  memories.push_back(MemorySpec{"memory", c.width, latency, c.memory_words,
                                std::make_unique<InterleavedMap>(c.width), std::move(splitter)});
  return memories;
}

}  // namespace

const std::vector<MachineModel>& machine_models() {
  static const std::vector<MachineModel> models = {
      {"dmm", "Discrete Memory Machine: a warp occupies one stage per request to its busiest bank",
       "000", false, false,
       [](const MachineConfig& c) {
         return one_memory(c, std::make_unique<RequestPackingUnit>(c.width, lanes(c)), c.latency);
       }},
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

const MachineModel* find_machine_model(std::string_view name) {
  for (const MachineModel& model : machine_models())
    if (model.name == name) return &model;
  return nullptr;
}

}  // namespace mmsim
