#include "hw/memory/address_maps.hpp"

#include "hw/memory/random_shift_map.hpp"
#include "hw/memory/skew_map.hpp"
#include "hw/memory/xor_map.hpp"

namespace mmsim {

const std::vector<AddressMapInfo>& address_maps() {
  static const std::vector<AddressMapInfo> maps = {
      {.name = "interleaved",
       .description = "address j*w + k in bank k (i mod w)",
       .identity = true,
       .make = [](const AddressMapParams& p) { return std::make_unique<InterleavedMap>(p.width); }},
      {.name = "random_shift",
       .description = "bank (k + r_j) mod w, r_j uniform per row (the random shift unit)",
       .shift_table = true,
       .drawn = true,
       .make =
           [](const AddressMapParams& p) {
             std::vector<std::uint16_t> shifts(p.shifts.begin(), p.shifts.end());
             if (shifts.empty()) shifts = random_shifts(p.width, p.rows, p.seed + p.copy);
             return std::make_unique<RandomShiftMap>(p.width, std::move(shifts));
           }},
      {.name = "rap",
       .description = "bank (k + r_j) mod w, the r_j of every w consecutive rows a random "
                      "permutation of 0..w-1 (the random address permute-shift)",
       .drawn = true,
       .make =
           [](const AddressMapParams& p) {
             return std::make_unique<RandomShiftMap>(
                 p.width, permuted_shifts(p.width, p.rows, p.seed + p.copy), "rap");
           }},
      {.name = "skew",
       .description = "bank (k + j) mod w",
       .make = [](const AddressMapParams& p) { return std::make_unique<SkewMap>(p.width); }},
      {.name = "xor",
       .description = "bank k xor (j mod w); w a power of two",
       .power_of_two = true,
       .make = [](const AddressMapParams& p) { return std::make_unique<XorMap>(p.width); }},
  };
  return maps;
}

const AddressMapInfo* find_address_map(std::string_view name) {
  for (const AddressMapInfo& map : address_maps())
    if (map.name == name) return &map;
  return nullptr;
}

}  // namespace mmsim
