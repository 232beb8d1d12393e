#include "hw/machine/machine_models.hpp"

namespace mmsim {

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

}  // namespace mmsim
