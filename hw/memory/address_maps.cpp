#include "hw/memory/address_maps.hpp"

#include "hw/memory/random_shift_map.hpp"
#include "hw/memory/skew_map.hpp"
#include "hw/memory/xor_map.hpp"

namespace mmsim {

const std::vector<AddressMapInfo>& address_maps() {
  static const std::vector<AddressMapInfo> maps = {
      {"interleaved", "address j*w + k in bank k (i mod w)", false,
       [](const MachineConfig& c) { return std::make_unique<InterleavedMap>(c.width); }},
      {"random_shift", "bank (k + r_j) mod w, r_j uniform per row (the RSU of seed 002)", false,
       [](const MachineConfig& c) {
         std::vector<std::uint16_t> shifts(c.rsu_shifts.begin(), c.rsu_shifts.end());
         if (shifts.empty()) shifts = random_shifts(c.width, c.rows(), c.rsu_seed.value_or(c.seed));
         return std::make_unique<RandomShiftMap>(c.width, std::move(shifts));
       }},
      {"skew", "bank (k + j) mod w", false,
       [](const MachineConfig& c) { return std::make_unique<SkewMap>(c.width); }},
      {"xor", "bank k xor (j mod w); w a power of two", true,
       [](const MachineConfig& c) { return std::make_unique<XorMap>(c.width); }},
  };
  return maps;
}

const AddressMapInfo* find_address_map(std::string_view name) {
  for (const AddressMapInfo& map : address_maps())
    if (map.name == name) return &map;
  return nullptr;
}

}  // namespace mmsim
