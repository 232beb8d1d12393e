// The address maps a DMM-family memory can be built with, by name (machine.address_map, and
// mmsim congestion --map).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "hw/memory/address_map.hpp"
#include "hw/machine/machine_config.hpp"

namespace mmsim {

struct AddressMapInfo {
  std::string name;
  std::string description;
  bool power_of_two;  // needs w a power of two
  // The map of a memory of `config.memory_words` words (random_shift: its table from
  // config.rsu_shifts, or drawn with config.rsu_seed, or else config.seed).
  std::function<std::unique_ptr<AddressMap>(const MachineConfig& config)> make;
};

const std::vector<AddressMapInfo>& address_maps();
const AddressMapInfo* find_address_map(std::string_view name);

}  // namespace mmsim
