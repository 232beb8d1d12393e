// The address maps a DMM-family memory can be built with, by name (machine.address_map, and
// mmsim congestion --map); a map of one's own (tabulated_map.hpp) is described the same way.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "hw/memory/address_map.hpp"

namespace mmsim {

// What a map is built from.
struct AddressMapParams {
  unsigned width = 1;
  std::uint64_t rows = 0;  // rows (address groups) of the memory
  // random_shift: the table r_j, one per row; empty: drawn with `seed`.
  std::vector<std::uint32_t> shifts;
  std::uint64_t seed = 1;
  // Which of the machine's memories of this map it is (the hierarchical machine's SM j: j): a
  // drawn table is drawn with seed + copy, so that the tables differ from memory to memory.
  std::uint64_t copy = 0;
};

struct AddressMapInfo {
  std::string name;
  std::string description;
  bool identity = false;      // every address is its own cell (the papers' interleaving)
  bool shift_table = false;   // a random shift unit with its table r_j (machine.rsu)
  bool drawn = false;         // random: drawn from the seed (a new seed, another map)
  bool power_of_two = false;  // needs w a power of two
  std::string source{};       // a map of one's own: its file or library ("" for the built-ins)
  std::function<std::unique_ptr<AddressMap>(const AddressMapParams& params)> make;
};

const std::vector<AddressMapInfo>& address_maps();
const AddressMapInfo* find_address_map(std::string_view name);

}  // namespace mmsim
