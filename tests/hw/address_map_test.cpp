// Every address map permutes the banks within each row: a bijection, with locate() agreeing
// with the map's formula lane by lane.
#include <gtest/gtest.h>

#include <bit>

#include "hw/machine/machine_models.hpp"
#include "hw/memory/address_maps.hpp"
#include "hw/memory/random_shift_map.hpp"
#include "hw/support/errors.hpp"

namespace mmsim::test {
namespace {

std::uint64_t expected_bank(const std::string& map, std::uint64_t j, std::uint64_t k, unsigned w,
                            const std::vector<std::uint32_t>& shifts) {
  if (map == "random_shift") return (k + shifts[j]) % w;
  if (map == "skew") return (k + j) % w;
  if (map == "xor") return k ^ (j % w);
  return k;
}

TEST(AddressMaps, EveryMapPermutesTheBanksOfEveryRow) {
  for (const AddressMapInfo& info : address_maps()) {
    for (const unsigned w : {1u, 2u, 6u, 16u, 128u}) {
      if (info.power_of_two && !std::has_single_bit(w)) continue;
      const AddressMapParams params{.width = w, .rows = 70, .shifts = {}, .seed = 3};
      const std::uint64_t words = std::uint64_t{w} * params.rows;
      const auto map = info.make(params);
      EXPECT_EQ(map->name(), info.name);
      EXPECT_EQ(map->identity(), info.identity);
      EXPECT_EQ(info.identity, info.name == "interleaved");
      std::vector<std::uint32_t> shifts;
      if (info.name == "random_shift")
        for (const auto r : random_shifts(w, 70, 3)) shifts.push_back(r);
      std::vector<Address> addresses(words);
      for (Address a = 0; a < words; ++a) addresses[a] = a;
      std::vector<Address> cells(addresses.size());
      map->locate(addresses, cells);
      std::vector<bool> used(words, false);
      for (Address a = 0; a < words; ++a) {
        const std::uint64_t j = a / w;
        const std::uint64_t k = a % w;
        const Address cell = j * w + expected_bank(info.name, j, k, w, shifts);
        ASSERT_EQ(map->cell(a), cell) << info.name << " w=" << w << " a=" << a;
        ASSERT_EQ(cells[a], cell) << info.name << " w=" << w << " a=" << a;
        ASSERT_FALSE(used[cell]) << info.name << " w=" << w << " cell " << cell;
        used[cell] = true;
      }
    }
  }
}

TEST(AddressMaps, TheDmmFamilyChoosesItsMapAndTheOthersRefuse) {
  MachineConfig c;
  c.width = 8;
  c.threads = 8;
  c.memory_words = 64;
  for (const std::string model : {"dmm", "sdmm"})
    for (const AddressMapInfo& info : address_maps()) {
      c.model = model;
      c.mapping.address_map = info.name;
      EXPECT_NO_THROW(validate(c)) << model << " " << info.name;
      EXPECT_EQ(address_map_of(c).name, info.name);
    }
  c.model = "rsdmm";
  c.mapping.address_map = "";
  EXPECT_EQ(address_map_of(c).name, "random_shift");
  c.mapping.address_map = "skew";
  EXPECT_THROW(validate(c), ConfigError);
  c.model = "umm";
  EXPECT_THROW(validate(c), ConfigError);
  c.mapping.address_map = "interleaved";
  EXPECT_NO_THROW(validate(c));
}

TEST(AddressMaps, XorNeedsAPowerOfTwoWidth) {
  MachineConfig c;
  c.model = "dmm";
  c.width = 12;
  c.threads = 12;
  c.mapping.address_map = "xor";
  try {
    validate(c);
    FAIL() << "w = 12 accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "address_map");
    EXPECT_STREQ(e.what(), "address map xor needs w a power of two (got w = 12)");
  }
}

TEST(AddressMaps, AnExplicitShiftTableHasOneShiftPerRowInRange) {
  MachineConfig c;
  c.model = "rsdmm";
  c.width = 4;
  c.threads = 4;
  c.memory_words = 10;  // 3 rows
  c.mapping.rsu_shifts = {0, 3, 1};
  EXPECT_NO_THROW(validate(c));
  c.mapping.rsu_shifts = {0, 3};
  try {
    validate(c);
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "rsu.shifts");
  }
  c.mapping.rsu_shifts = {0, 4, 1};
  try {
    validate(c);
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "rsu.shifts[1]");
    EXPECT_STREQ(e.what(), "r_1 = 4 is outside [0, w) = [0, 4)");
  }
  c.model = "sdmm";
  c.mapping.rsu_shifts = {0, 1, 1};
  EXPECT_THROW(validate(c), ConfigError);  // no random shift unit to configure
}

}  // namespace
}  // namespace mmsim::test
