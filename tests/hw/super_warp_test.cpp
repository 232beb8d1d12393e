// The worked example of Nakano and Matsumae 2013 (Figs. 4, 6 and 7: the same three warps on the
// DMM, the SDMM and the RSDMM) and the properties of the random shift unit.
#include <gtest/gtest.h>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/machine/resolved_machine.hpp"
#include "hw/memory/random_shift_map.hpp"
#include "support/replay_kernel.hpp"

namespace mmsim::test {
namespace {

RefInstruction read(std::vector<Address> a) { return {RefInstruction::read, std::move(a), {}}; }

// The addresses of configs/superwarp_fig*.yaml (our choice; the figures' are not in our copy).
const RefProgram kThreeWarps{
    {{read({4, 16, 7, 11})}, {read({3, 15, 19, 1})}, {read({23, 2, 6, 9})}}};
// Our shift table for Fig. 7: banks get 3, 4, 3 and 2 requests.
const std::vector<std::uint32_t> kFig7Shifts = {0, 1, 1, 2, 2, 1};

MachineConfig machine(const std::string& model, unsigned s) {
  MachineConfig c;
  c.model = model;
  c.width = 4;
  c.latency = 7;
  c.threads = 12;
  c.super_warp = s;
  c.memory_words = 24;
  return c;
}

TEST(SuperWarp, NakanoMatsumae2013Fig4TheDmmTakesThirteenTimeUnits) {
  const auto run = replay(machine("dmm", 1), kThreeWarps);
  EXPECT_EQ(run.result.counters.dispatches, 3u);
  EXPECT_EQ(run.result.counters.stages, 2u + 3u + 2u);
  EXPECT_EQ(run.result.cycles(), (2u + 3u + 2u) + 7 - 1);
}

TEST(SuperWarp, NakanoMatsumae2013Fig6TheSdmmPacksTheSuperWarpIntoSixStages) {
  const auto run = replay(machine("sdmm", 3), kThreeWarps);
  EXPECT_EQ(run.result.counters.dispatches, 1u);
  // Congestion 6 (bank 3), congestion ratio 6 / s = 2.
  EXPECT_EQ(run.result.counters.max_stages, 6u);
  EXPECT_EQ(run.result.counters.max_stages / 3.0, 2.0);
  EXPECT_EQ(run.result.cycles(), 6u + 7 - 1);
  EXPECT_EQ(run.reads[1], (std::vector<Word>{3, 15, 19, 1}));
}

TEST(SuperWarp, NakanoMatsumae2013Fig7TheRsdmmTakesTenTimeUnits) {
  MachineConfig c = machine("rsdmm", 3);
  c.mapping.rsu_shifts = kFig7Shifts;
  const auto run = replay(c, kThreeWarps);
  EXPECT_EQ(run.result.counters.max_stages, 4u);
  EXPECT_EQ(run.result.cycles(), 4u + 7 - 1);
  // The shift moves cells, not values: every read still returns its own address's word.
  EXPECT_EQ(run.reads[0], (std::vector<Word>{4, 16, 7, 11}));
  EXPECT_EQ(run.reads[2], (std::vector<Word>{23, 2, 6, 9}));
}

TEST(SuperWarp, ADmmWithTheRandomShiftMapIsTheRsdmmWithOneWarpPerSuperWarp) {
  // dmm with address_map random_shift is the rsdmm with s = 1 (the random address shift,
  // reference [21] of Nakano and Matsumae 2013).
  MachineConfig dmm = machine("dmm", 1);
  dmm.mapping.address_map = "random_shift";
  dmm.mapping.rsu_shifts = kFig7Shifts;
  MachineConfig rsdmm = machine("rsdmm", 1);
  rsdmm.mapping.rsu_shifts = kFig7Shifts;
  EXPECT_EQ(replay(dmm, kThreeWarps).result.cycles(), replay(rsdmm, kThreeWarps).result.cycles());
}

TEST(RandomShiftUnit, MapsAddressJwPlusKToBankKPlusRjModW) {
  for (const unsigned w : {1u, 3u, 4u, 7u, 32u}) {
    const std::uint64_t rows = 37;
    const auto shifts = random_shifts(w, rows, 11);
    const RandomShiftMap map(w, shifts);
    for (std::uint32_t j = 0; j < rows; ++j) {
      ASSERT_LT(shifts[j], w);
      for (std::uint32_t k = 0; k < w; ++k)
        EXPECT_EQ(map.cell(Address{j} * w + k), Address{j} * w + (k + shifts[j]) % w);
    }
  }
}

TEST(RandomShiftUnit, EveryAddressHasExactlyOneCellAndBack) {
  for (const unsigned w : {2u, 5u, 16u, 64u}) {
    const std::uint64_t rows = 50;
    const RandomShiftMap map(w, random_shifts(w, rows, w));
    // The map is a bijection of every row's w cells: each cell is reached by one address.
    std::vector<Address> owner(rows * w, kInactive);
    for (Address a = 0; a < rows * w; ++a) {
      const Address c = map.cell(a);
      ASSERT_EQ(c / w, a / w) << "a row's addresses stay in the row";
      ASSERT_EQ(owner[c], kInactive) << "cell " << c << " of both " << owner[c] << " and " << a;
      owner[c] = a;
    }
    // locate() agrees with cell() lane by lane, and leaves inactive lanes inactive.
    std::vector<Address> lanes;
    for (Address a = 0; a < rows * w; a += 3) lanes.push_back(a % 7 == 0 ? kInactive : a);
    std::vector<Address> cells(lanes.size());
    map.locate(lanes, cells);
    for (std::size_t i = 0; i < lanes.size(); ++i)
      EXPECT_EQ(cells[i], lanes[i] == kInactive ? kInactive : map.cell(lanes[i]));
  }
}

TEST(RandomShiftUnit, MemoryThroughTheUnitReadsBackWhatWasWritten) {
  MachineConfig c = machine("rsdmm", 3);
  c.mapping.rsu_shifts = kFig7Shifts;
  Simulation simulation(resolve_machine(c));
  Mmu& memory = simulation.memory();
  ASSERT_NE(memory.random_shift_unit(), nullptr);
  for (Address a = 0; a < 24; ++a) memory.poke(a, 1000 + static_cast<Word>(a));
  for (Address a = 0; a < 24; ++a) EXPECT_EQ(memory.peek(a), 1000 + static_cast<Word>(a));
}

TEST(RandomShiftUnit, TheTableIsTheSameForTheSameSeedAndDiffersAcrossSeeds) {
  EXPECT_EQ(random_shifts(32, 100, 5), random_shifts(32, 100, 5));
  EXPECT_NE(random_shifts(32, 100, 5), random_shifts(32, 100, 6));
  // Every value of [0, w) appears in a long table (uniform draws).
  const auto table = random_shifts(8, 4000, 1);
  for (std::uint16_t r = 0; r < 8; ++r)
    EXPECT_GT(std::count(table.begin(), table.end(), r), 400) << "r = " << r;
}

}  // namespace
}  // namespace mmsim::test
