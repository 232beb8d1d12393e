// The machines mmsim can assemble, by name: which splitter and address map each memory gets.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "hw/memory/address_map.hpp"
#include "hw/machine/machine_config.hpp"
#include "hw/mmu/stage_splitter.hpp"

namespace mmsim {

// One memory of a machine, with what its MMU is made of.
struct MemorySpec {
  std::string name;
  unsigned width;
  unsigned latency;
  std::uint64_t words;
  std::unique_ptr<AddressMap> map;
  std::unique_ptr<StageSplitter> splitter;
};

struct MachineModel {
  std::string name;
  std::string description;
  std::string seed;   // the paper that defines it
  bool super_warps;   // dispatch unit is a super warp of machine.super_warp warps
  bool unit_latency;  // latency is forced to 1 (the BPRAM reference)
  std::function<std::vector<MemorySpec>(const MachineConfig&)> memories;
  // How its memory maps addresses to banks: by default, and whether machine.address_map may
  // choose another map (the DMM family, where banks serialise requests).
  std::string address_map = "interleaved";
  bool address_maps = false;
};

const std::vector<MachineModel>& machine_models();
const MachineModel* find_machine_model(std::string_view name);
// The address map `config` runs with: machine.address_map, or its model's own.
std::string address_map_of(const MachineConfig& config);

}  // namespace mmsim
