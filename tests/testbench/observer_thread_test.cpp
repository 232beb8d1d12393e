// The race detector's thread (hw/observers/observer_thread.hpp): the observer behind it sees
// every access, lanes and all, in the order the memories reported them, across many batches;
// what it throws comes back from finish(); a run that ends early stops the thread.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "hw/observers/observer_thread.hpp"
#include "hw/observers/race_detector.hpp"

namespace mmsim {
namespace {

struct Seen {
  MemoryAccess access;
  std::vector<Address> lanes;
};

// Records what it sees; throws at access number `throw_at` (counted from 0) if given.
class Recorder final : public AccessObserver {
 public:
  explicit Recorder(std::size_t throw_at = SIZE_MAX) : throw_at_(throw_at) {}
  void access(const MemoryAccess& access, std::span<const Address> addresses) override {
    if (seen.size() == throw_at_) throw std::runtime_error("observer failed");
    seen.push_back({access, {addresses.begin(), addresses.end()}});
  }
  std::vector<Seen> seen;

 private:
  std::size_t throw_at_;
};

// Accesses of 0 to 40 lanes, a few of more lanes than a batch holds, about ten batches in all.
std::vector<Seen> accesses(std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<Seen> out;
  std::size_t addresses = 0;
  for (std::uint64_t i = 0; addresses < 10 * ObserverThread::kBatchAddresses; ++i) {
    Seen s{.access = {.memory = static_cast<MemoryId>(random() % 3),
                      .address = 0,
                      .kind = random() % 2 ? AccessKind::read : AccessKind::write,
                      .warp = static_cast<WarpId>(random() % 64),
                      .block = static_cast<unsigned>(random() % 4),
                      .pc = i,
                      .epoch = random() % 5,
                      .grid_epoch = random() % 3,
                      .completion = 3 * i},
           .lanes = {}};
    const std::size_t lanes = i % 997 == 0 ? ObserverThread::kBatchAddresses + 5
                                           : static_cast<std::size_t>(random() % 41);
    for (std::size_t l = 0; l < lanes; ++l)
      s.lanes.push_back(random() % 8 == 0 ? kInactive : random() % 100000);
    addresses += lanes;
    out.push_back(std::move(s));
  }
  return out;
}

void expect_seen(const std::vector<Seen>& got, const std::vector<Seen>& want, std::size_t n) {
  ASSERT_EQ(got.size(), n);
  for (std::size_t i = 0; i < n; ++i) {
    const MemoryAccess& g = got[i].access;
    const MemoryAccess& w = want[i].access;
    ASSERT_EQ(g.memory, w.memory) << i;
    ASSERT_EQ(g.kind, w.kind) << i;
    ASSERT_EQ(g.warp, w.warp) << i;
    ASSERT_EQ(g.block, w.block) << i;
    ASSERT_EQ(g.pc, w.pc) << i;
    ASSERT_EQ(g.epoch, w.epoch) << i;
    ASSERT_EQ(g.grid_epoch, w.grid_epoch) << i;
    ASSERT_EQ(g.completion, w.completion) << i;
    ASSERT_EQ(got[i].lanes, want[i].lanes) << i;
  }
}

TEST(ObserverThread, TheObserverSeesEveryAccessInOrderAcrossBatches) {
  const std::vector<Seen> stream = accesses(41);
  Recorder recorder;
  ObserverThread thread(recorder);
  for (const Seen& s : stream) thread.access(s.access, s.lanes);
  thread.finish();
  expect_seen(recorder.seen, stream, stream.size());
}

TEST(ObserverThread, WhatTheObserverThrowsComesBackFromFinishAfterTheAccessesBefore) {
  const std::vector<Seen> stream = accesses(43);
  const std::size_t fails = stream.size() / 2;
  Recorder recorder(fails);
  ObserverThread thread(recorder);
  for (const Seen& s : stream) thread.access(s.access, s.lanes);  // never waits for ever
  EXPECT_THROW(thread.finish(), std::runtime_error);
  expect_seen(recorder.seen, stream, fails);
}

TEST(ObserverThread, ARunThatEndsBeforeFinishStopsTheThread) {
  const std::vector<Seen> stream = accesses(47);
  Recorder recorder;
  {
    ObserverThread thread(recorder);
    for (const Seen& s : stream) thread.access(s.access, s.lanes);
  }  // batches still queued are dropped
  EXPECT_LE(recorder.seen.size(), stream.size());
  for (std::size_t i = 0; i < recorder.seen.size(); ++i)
    ASSERT_EQ(recorder.seen[i].access.pc, stream[i].access.pc);
}

// The race detector behind the thread finds what it finds called directly, races listed in
// the same order, on a long racy stream of a machine of 4 blocks (global and shared memories).
TEST(ObserverThread, TheRaceDetectorBehindItFindsTheSameRaces) {
  const std::vector<Seen> stream = accesses(53);
  std::vector<RaceDetector::MemoryScope> scopes = {{100000, false}, {100000, true}, {100000, true}};
  RaceDetector direct(scopes, 100);
  RaceDetector behind(scopes, 100);
  ObserverThread thread(behind);
  for (const Seen& s : stream) {
    direct.access(s.access, s.lanes);
    thread.access(s.access, s.lanes);
  }
  thread.finish();
  EXPECT_GT(direct.count(), 1000u);
  EXPECT_EQ(behind.count(), direct.count());
  ASSERT_EQ(behind.races().size(), direct.races().size());
  for (std::size_t i = 0; i < direct.races().size(); ++i) {
    const RaceDetector::Race& g = behind.races()[i];
    const RaceDetector::Race& w = direct.races()[i];
    EXPECT_EQ(g.memory, w.memory) << i;
    EXPECT_EQ(g.address, w.address) << i;
    EXPECT_EQ(g.first.warp, w.first.warp) << i;
    EXPECT_EQ(g.first.pc, w.first.pc) << i;
    EXPECT_EQ(g.second.warp, w.second.warp) << i;
    EXPECT_EQ(g.second.cycle, w.second.cycle) << i;
  }
}

}  // namespace
}  // namespace mmsim
