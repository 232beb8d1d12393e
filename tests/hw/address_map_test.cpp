// Every address map permutes the banks within each row: a bijection, with locate() agreeing
// with the map's formula lane by lane.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <set>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/memory/address_maps.hpp"
#include "hw/memory/random_shift_map.hpp"
#include "hw/support/errors.hpp"

namespace mmsim::test {
namespace {

std::uint64_t expected_bank(const std::string& map, std::uint64_t j, std::uint64_t k, unsigned w,
                            const std::vector<std::uint32_t>& shifts) {
  if (map == "random_shift" || map == "rap") return (k + shifts[j]) % w;
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
      if (info.name == "rap")
        for (const auto r : permuted_shifts(w, 70, 3)) shifts.push_back(r);
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

// The random address permute-shift (Nakano, Matsumae and Ito 2014), as docs/semantics.md reads
// it: the shifts of every block of w consecutive rows are a permutation of 0..w-1, so that the
// w addresses of a row of a w x w block (contiguous access) and of a column (stride access)
// fall in w distinct banks.
TEST(Rap, RowsAndColumnsOfEveryAlignedWByWBlockAreConflictFree) {
  const AddressMapInfo& rap = *find_address_map("rap");
  for (const unsigned w : {4u, 8u, 16u, 32u})
    for (const std::uint64_t seed : {1u, 2u, 3u, 77u}) {
      const std::uint64_t rows = 3 * w + w / 2;  // three whole blocks and half of one
      const auto map = rap.make({.width = w, .rows = rows, .shifts = {}, .seed = seed});
      const auto bank = [&](std::uint64_t j, std::uint64_t k) { return map->cell(j * w + k) % w; };
      for (std::uint64_t block = 0; block < 3; ++block)
        for (std::uint64_t i = 0; i < w; ++i) {
          std::set<Address> row_banks;
          std::set<Address> column_banks;
          for (std::uint64_t k = 0; k < w; ++k) {
            row_banks.insert(bank(block * w + i, k));     // row i of the block
            column_banks.insert(bank(block * w + k, i));  // column i of the block
          }
          ASSERT_EQ(row_banks.size(), w) << "w=" << w << " seed=" << seed << " block " << block;
          ASSERT_EQ(column_banks.size(), w) << "w=" << w << " seed=" << seed << " block " << block;
        }
      // The half block at the end: its rows' shifts are still distinct.
      std::set<Address> last;
      for (std::uint64_t j = 3 * w; j < rows; ++j) last.insert(bank(j, 0));
      EXPECT_EQ(last.size(), w / 2) << "w=" << w << " seed=" << seed;
    }
}

TEST(Rap, EachBlockDrawsItsOwnPermutationFromTheSeed) {
  constexpr std::size_t kBlocks = 2000;
  for (const unsigned w : {4u, 8u, 16u, 32u}) {
    const std::vector<std::uint16_t> table = permuted_shifts(w, kBlocks * w, 5);
    EXPECT_EQ(table, permuted_shifts(w, kBlocks * w, 5));
    EXPECT_NE(table, permuted_shifts(w, kBlocks * w, 6));
    std::set<std::vector<std::uint16_t>> blocks;
    std::vector<unsigned> first(w);  // how often each shift is a block's r_0
    for (std::size_t b = 0; b < kBlocks; ++b) {
      std::vector<std::uint16_t> block(table.begin() + static_cast<std::ptrdiff_t>(b * w),
                                       table.begin() + static_cast<std::ptrdiff_t>((b + 1) * w));
      blocks.insert(block);
      ++first[block[0]];
      std::sort(block.begin(), block.end());
      for (unsigned r = 0; r < w; ++r) ASSERT_EQ(block[r], r) << "w=" << w << " block " << b;
    }
    // Uniform permutations: of 2000 draws among the 24 orders of w = 4 every order appears; for
    // w >= 8 (8! = 40320 orders) nearly every draw is new.
    if (w == 4)
      EXPECT_EQ(blocks.size(), 24u);
    else
      EXPECT_GT(blocks.size(), kBlocks * 9 / 10) << "w=" << w;
    // r_0 uniform over [0, w): about 2000/w each (62.5 for w = 32).
    for (unsigned r = 0; r < w; ++r)
      EXPECT_GT(first[r], kBlocks / w / 2) << "w=" << w << " r=" << r;
  }
}

}  // namespace
}  // namespace mmsim::test
