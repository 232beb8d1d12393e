// For the tests that run one random program two ways on the SystemC machine (as runs and as
// spans of addresses; with and without values) and compare the two runs.
#pragma once

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "support/random_program.hpp"
#include "support/replay_kernel.hpp"

namespace mmsim::test {

// Reads and writes whose addresses are mostly runs (starting anywhere, ending at the last word
// at times), the rest random lanes, some inactive; syncthreads and grid_syncs between.
inline RefProgram random_run_program(std::mt19937_64& rng, unsigned width, unsigned warps,
                                     std::uint64_t global_words, std::uint64_t shared_words) {
  return random_program(rng, width, warps, global_words, shared_words,
                        {.longest = 12,
                         .syncs = 0.06,
                         .grid_syncs = 0.03,
                         .reads = 0.55,
                         .shared = shared_words > 0 ? 0.4 : 0.0,
                         .runs = 0.75});
}

// The two runs took the same time: cycles, every memory's counters and spread of requests,
// every warp's times, the blocks' syncthreads.
inline void expect_same_timing(const Replayed& a, const Replayed& b, const std::string& where) {
  ASSERT_EQ(a.result.cycles(), b.result.cycles()) << where;
  ASSERT_EQ(a.result.memories.size(), b.result.memories.size()) << where;
  for (std::size_t m = 0; m < b.result.memories.size(); ++m) {
    const MemoryCounters& x = a.result.memories[m].counters;
    const MemoryCounters& y = b.result.memories[m].counters;
    EXPECT_EQ(x.dispatches, y.dispatches) << where << " memory " << m;
    EXPECT_EQ(x.stages, y.stages) << where << " memory " << m;
    EXPECT_EQ(x.requests, y.requests) << where << " memory " << m;
    EXPECT_EQ(x.max_stages, y.max_stages) << where << " memory " << m;
    EXPECT_EQ(x.busy, y.busy) << where << " memory " << m;
    EXPECT_EQ(x.stage_histogram, y.stage_histogram) << where << " memory " << m;
    EXPECT_EQ(x.turn_wait, y.turn_wait) << where << " memory " << m;
    EXPECT_EQ(x.memory_wait, y.memory_wait) << where << " memory " << m;
    EXPECT_EQ(a.result.memories[m].spread.banks, b.result.memories[m].spread.banks)
        << where << " memory " << m;
    EXPECT_EQ(a.result.memories[m].spread.groups, b.result.memories[m].spread.groups)
        << where << " memory " << m;
  }
  ASSERT_EQ(a.result.warp_times.size(), b.result.warp_times.size()) << where;
  for (std::size_t i = 0; i < b.result.warp_times.size(); ++i) {
    const WarpTime& x = a.result.warp_times[i];
    const WarpTime& y = b.result.warp_times[i];
    EXPECT_EQ(x.turn, y.turn) << where << " warp " << i;
    EXPECT_EQ(x.memory, y.memory) << where << " warp " << i;
    EXPECT_EQ(x.barrier, y.barrier) << where << " warp " << i;
    EXPECT_EQ(x.dispatches, y.dispatches) << where << " warp " << i;
    EXPECT_EQ(x.finish, y.finish) << where << " warp " << i;
  }
  EXPECT_EQ(a.result.block_syncthreads, b.result.block_syncthreads) << where;
}

}  // namespace mmsim::test
