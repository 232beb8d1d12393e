// The race detector on streams of accesses, against the definition (docs/semantics.md §8): every
// pair of accesses to one address of one memory by two warps, at least one a write, that no
// barrier separates (warps of one block: their block epochs differ; of two blocks: their grid
// epochs differ), the lanes of one instruction counting as one access. The reference pairs each
// access with every earlier one, in the order the races are listed: the earlier writes newest
// first, then (for a write) the earlier reads newest first.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "hw/observers/race_detector.hpp"

namespace mmsim {
namespace {

constexpr std::size_t kListed = 100;

struct Found {
  std::uint64_t count = 0;
  std::vector<RaceDetector::Race> races;
};

Found reference(const std::vector<MemoryAccess>& stream) {
  Found found;
  std::vector<MemoryAccess> seen;  // one per instruction and address
  for (const MemoryAccess& a : stream) {
    const bool again = std::any_of(seen.begin(), seen.end(), [&](const MemoryAccess& e) {
      return e.memory == a.memory && e.address == a.address && e.warp == a.warp && e.pc == a.pc;
    });
    if (again) continue;
    // The earlier writes, newest first; then for a write the earlier reads.
    for (const AccessKind kind : {AccessKind::write, AccessKind::read})
      for (auto e = seen.rbegin(); e != seen.rend(); ++e) {
        if (e->kind != kind || (kind == AccessKind::read && a.kind == AccessKind::read)) continue;
        if (e->memory != a.memory || e->address != a.address || e->warp == a.warp) continue;
        const bool separated =
            e->block == a.block ? e->epoch != a.epoch : e->grid_epoch != a.grid_epoch;
        if (separated) continue;
        ++found.count;
        if (found.races.size() < kListed)
          found.races.push_back({a.memory,
                                 a.address,
                                 {e->warp, e->kind, e->pc, e->completion},
                                 {a.warp, a.kind, a.pc, a.completion}});
      }
    seen.push_back(a);
  }
  return found;
}

Found detect(const std::vector<RaceDetector::MemoryScope>& scopes,
             const std::vector<MemoryAccess>& stream) {
  RaceDetector detector(scopes, kListed);
  for (const MemoryAccess& a : stream) detector.access(a);
  return {detector.count(), detector.races()};
}

void expect_same(const Found& got, const Found& want) {
  EXPECT_EQ(got.count, want.count);
  ASSERT_EQ(got.races.size(), want.races.size());
  for (std::size_t i = 0; i < want.races.size(); ++i) {
    const RaceDetector::Race& g = got.races[i];
    const RaceDetector::Race& w = want.races[i];
    EXPECT_EQ(g.memory, w.memory) << i;
    EXPECT_EQ(g.address, w.address) << i;
    for (const auto& [x, y] : {std::pair{g.first, w.first}, std::pair{g.second, w.second}}) {
      EXPECT_EQ(x.warp, y.warp) << i;
      EXPECT_EQ(x.kind, y.kind) << i;
      EXPECT_EQ(x.pc, y.pc) << i;
      EXPECT_EQ(x.cycle, y.cycle) << i;
    }
  }
}

// A machine of `blocks` blocks of `warps` warps each: memory 0 global (every block), memory
// 1 + j block j's shared memory. Warps issue instructions of a few lanes to a few addresses, a
// third of them runs (lane i at a + i, a coalesced access); now and then a block passes a
// syncthreads, or the machine a grid_sync (a barrier for every block too), so that epochs only
// grow, block by block, as on the machine.
std::vector<MemoryAccess> random_stream(std::mt19937_64& random, unsigned blocks, unsigned warps,
                                        std::uint64_t words, std::size_t instructions) {
  std::vector<std::uint64_t> epoch(blocks, 0);
  std::uint64_t grid = 0;
  std::vector<std::uint64_t> pc(std::size_t{blocks} * warps, 0);
  std::vector<MemoryAccess> stream;
  Cycle cycle = 0;
  for (std::size_t i = 0; i < instructions; ++i) {
    const unsigned roll = static_cast<unsigned>(random() % 100);
    if (roll < 2) {
      ++grid;
      for (std::uint64_t& e : epoch) ++e;
      continue;
    }
    const auto block = static_cast<unsigned>(random() % blocks);
    if (roll < 8) {
      ++epoch[block];
      continue;
    }
    const auto warp = static_cast<WarpId>(block * warps + random() % warps);
    const bool shared = blocks > 1 && random() % 2 == 0;
    const auto kind = random() % 3 == 0 ? AccessKind::write : AccessKind::read;
    ++pc[warp];
    cycle += random() % 3;
    const auto lanes = static_cast<unsigned>(std::min<std::uint64_t>(1 + random() % 4, words));
    const bool run = random() % 3 == 0;
    const Address base = random() % (words - lanes + 1);
    for (unsigned lane = 0; lane < lanes; ++lane)
      stream.push_back({.memory = shared ? 1 + block : 0,
                        .address = run ? base + lane : random() % words,
                        .kind = kind,
                        .warp = warp,
                        .block = block,
                        .pc = pc[warp],
                        .epoch = epoch[block],
                        .grid_epoch = grid,
                        .completion = cycle});
  }
  return stream;
}

// An access to the memory of a flat machine (one block), whose epochs are its block epochs.
MemoryAccess flat_access(Address address, AccessKind kind, WarpId warp, std::uint64_t pc,
                         std::uint64_t epoch, Cycle completion) {
  return {.memory = 0,
          .address = address,
          .kind = kind,
          .warp = warp,
          .block = 0,
          .pc = pc,
          .epoch = epoch,
          .grid_epoch = 0,
          .completion = completion};
}

// Random streams of machines of one and three blocks, on memories of 2, 5 and 40 words, 20 of
// each: what `found` finds in each is what the definition finds.
void on_random_streams(
    std::uint64_t seed,
    const std::function<Found(const std::vector<RaceDetector::MemoryScope>&,
                              const std::vector<MemoryAccess>&, std::mt19937_64&)>& found) {
  std::mt19937_64 random(seed);
  for (const unsigned blocks : {1u, 3u})
    for (const std::uint64_t words : {2u, 5u, 40u})
      for (int trial = 0; trial < 20; ++trial) {
        std::vector<RaceDetector::MemoryScope> scopes = {{words, blocks == 1}};
        if (blocks > 1)
          for (unsigned j = 0; j < blocks; ++j) scopes.push_back({words, true});
        const std::vector<MemoryAccess> stream = random_stream(random, blocks, 4, words, 400);
        const Found got = found(scopes, stream, random);
        SCOPED_TRACE(testing::Message()
                     << "blocks " << blocks << " words " << words << " trial " << trial);
        expect_same(got, reference(stream));
      }
}

TEST(RaceDetector, FindsThePairsOfTheDefinitionOnRandomStreams) {
  on_random_streams(23, [](const auto& scopes, const auto& stream, std::mt19937_64&) {
    return detect(scopes, stream);
  });
}

// The same streams with each instruction's lanes in one call, as the MMU makes it, inactive
// lanes among them: lanes at one address (next to each other or not) count as one access.
TEST(RaceDetector, FindsThePairsOfTheDefinitionWithAnInstructionsLanesInOneCall) {
  on_random_streams(29, [](const auto& scopes, const auto& stream, std::mt19937_64& random) {
    RaceDetector detector(scopes, kListed);
    for (std::size_t i = 0; i < stream.size();) {
      std::vector<Address> lanes;
      std::size_t j = i;
      for (; j < stream.size() && stream[j].warp == stream[i].warp &&
             stream[j].pc == stream[i].pc && stream[j].memory == stream[i].memory;
           ++j) {
        if (random() % 4 == 0) lanes.push_back(kInactive);
        lanes.push_back(stream[j].address);
      }
      detector.access(stream[i], lanes);
      i = j;
    }
    return Found{detector.count(), detector.races()};
  });
}

// Each warp adding into a cell of its own, over and over (sum_hybrid's column sums): 2^21
// accesses, no race; then, late, one warp reads another's cell and finds every write to it in
// the epoch, newest first. Cheap however often a cell was accessed before.
TEST(RaceDetector, ARaceSeededLateInALongRunIsFoundWithEveryPair) {
  constexpr WarpId kWarps = 1024;
  constexpr std::uint64_t kRounds = 1024;
  RaceDetector detector({{kWarps, true}}, kListed);
  Cycle cycle = 0;
  for (std::uint64_t round = 0; round < kRounds; ++round)
    for (WarpId warp = 0; warp < kWarps; ++warp)
      for (const AccessKind kind : {AccessKind::read, AccessKind::write})
        detector.access(
            flat_access(warp, kind, warp, 2 * round + (kind == AccessKind::write) + 1, 0, ++cycle));
  EXPECT_EQ(detector.count(), 0u);
  detector.access(flat_access(7, AccessKind::read, 5, 2 * kRounds + 1, 0, ++cycle));
  EXPECT_EQ(detector.count(), kRounds);  // every write of warp 7
  ASSERT_EQ(detector.races().size(), kListed);
  for (std::size_t i = 0; i < kListed; ++i) {
    const RaceDetector::Race& race = detector.races()[i];
    EXPECT_EQ(race.address, 7u);
    EXPECT_EQ(race.first.warp, 7u);
    EXPECT_EQ(race.first.kind, AccessKind::write);
    EXPECT_EQ(race.first.pc, 2 * (kRounds - i));  // the newest write first
    EXPECT_EQ(race.second.warp, 5u);
    EXPECT_EQ(race.second.pc, 2 * kRounds + 1);
  }
}

// The log keeps its chunks from epoch to epoch: an epoch of 2^17 accesses (several chunks of
// records), then, after a barrier, one of 3 * 2^15 and a late read of another warp's cell. The
// read races with every write of that cell in the second epoch, newest first, and with none of
// the first epoch's, whose records are still in the chunks that the second epoch overwrites.
TEST(RaceDetector, AnEpochAfterALongOneRacesWithItsOwnAccessesOnly) {
  constexpr WarpId kWarps = 256;
  constexpr std::uint64_t kFirstRounds = 512;              // 2^17 accesses
  constexpr std::uint64_t kSecondRounds = 384;             // 3 * 2^15
  RaceDetector detector({{kWarps, true}}, kSecondRounds);  // lists them all
  Cycle cycle = 0;
  for (std::uint64_t epoch = 0; epoch < 2; ++epoch)
    for (std::uint64_t round = 0; round < (epoch == 0 ? kFirstRounds : kSecondRounds); ++round)
      for (WarpId warp = 0; warp < kWarps; ++warp)
        detector.access(flat_access(warp, AccessKind::write, warp, epoch * kFirstRounds + round + 1,
                                    epoch, ++cycle));
  EXPECT_EQ(detector.count(), 0u);
  detector.access(
      flat_access(7, AccessKind::read, 5, kFirstRounds + kSecondRounds + 1, 1, ++cycle));
  EXPECT_EQ(detector.count(), kSecondRounds);
  ASSERT_EQ(detector.races().size(), kSecondRounds);
  for (std::size_t i = 0; i < kSecondRounds; ++i) {
    const RaceDetector::Race& race = detector.races()[i];
    EXPECT_EQ(race.first.warp, 7u);
    EXPECT_EQ(race.first.pc, kFirstRounds + kSecondRounds - i);
    EXPECT_EQ(race.first.cycle, kWarps * (kFirstRounds + kSecondRounds - 1 - i) + 8);
    EXPECT_EQ(race.second.warp, 5u);
  }
}

// On the global memory of a machine of two blocks: block 0's warps write one cell in turn, a
// syncthreads between turns (no race), 2^16 times; then a warp of block 1, no grid_sync between,
// reads it: a race with every one of the writes.
TEST(RaceDetector, AnotherBlocksLateAccessRacesWithEveryEarlierEpochOfTheBlock) {
  constexpr std::uint64_t kTurns = 1 << 16;
  RaceDetector detector({{4, false}}, kListed);
  for (std::uint64_t turn = 0; turn < kTurns; ++turn)
    detector.access({.memory = 0,
                     .address = 3,
                     .kind = AccessKind::write,
                     .warp = static_cast<WarpId>(turn % 2),
                     .block = 0,
                     .pc = turn / 2 + 1,
                     .epoch = turn,
                     .grid_epoch = 0,
                     .completion = turn});
  EXPECT_EQ(detector.count(), 0u);
  detector.access({.memory = 0,
                   .address = 3,
                   .kind = AccessKind::write,
                   .warp = 0,
                   .block = 0,
                   .pc = kTurns / 2 + 1,
                   .epoch = kTurns - 1,
                   .grid_epoch = 0,
                   .completion = kTurns});
  EXPECT_EQ(detector.count(), 1u);  // with warp 1's write of the same block epoch
  detector.access({.memory = 0,
                   .address = 3,
                   .kind = AccessKind::read,
                   .warp = 2,
                   .block = 1,
                   .pc = 1,
                   .epoch = 0,
                   .grid_epoch = 0,
                   .completion = kTurns + 1});
  EXPECT_EQ(detector.count(), 1 + kTurns + 1);
  ASSERT_EQ(detector.races().size(), kListed);
  EXPECT_EQ(detector.races()[0].first.cycle, kTurns - 1);
  EXPECT_EQ(detector.races()[0].second.warp, 0u);
  EXPECT_EQ(detector.races()[1].first.warp, 0u);  // then block 1's read, the newest write first
  EXPECT_EQ(detector.races()[1].first.pc, kTurns / 2 + 1);
  EXPECT_EQ(detector.races()[1].second.warp, 2u);
  EXPECT_EQ(detector.races()[2].first.warp, 1u);
  EXPECT_EQ(detector.races()[2].first.cycle, kTurns - 1);
  EXPECT_EQ(detector.races()[3].first.warp, 0u);
  EXPECT_EQ(detector.races()[3].first.cycle, kTurns - 2);
}

}  // namespace
}  // namespace mmsim
