// A run of the SystemC machine against a reference machine's: the same cycles, stage groups,
// dispatches, barrier steps, memories and reads. Call with ASSERT_NO_FATAL_FAILURE, so that the
// first difference stops the test.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "support/reference_hmm.hpp"
#include "support/replay_kernel.hpp"

namespace mmsim::test {

inline void expect_reference_run(const Replayed& got, const RefResult& expected,
                                 const std::string& where) {
  ASSERT_EQ(got.result.cycles(), expected.cycles) << where;
  ASSERT_EQ(got.result.counters.stages, expected.stages) << where;
  ASSERT_EQ(got.result.counters.dispatches, expected.dispatches) << where;
  ASSERT_EQ(got.result.syncthreads, expected.syncthreads) << where;
  ASSERT_EQ(got.memory, expected.memory) << where;
  ASSERT_EQ(got.reads, expected.reads) << where;
}

inline void expect_reference_run(const Replayed& got, const RefHmmResult& expected,
                                 const std::string& where) {
  ASSERT_EQ(got.result.cycles(), expected.cycles) << where;
  for (std::size_t mem = 0; mem < expected.stages.size(); ++mem) {
    ASSERT_EQ(got.result.memories[mem].counters.stages, expected.stages[mem]) << where;
    ASSERT_EQ(got.result.memories[mem].counters.dispatches, expected.dispatches[mem]) << where;
  }
  ASSERT_EQ(got.result.block_syncthreads, expected.block_syncthreads) << where;
  ASSERT_EQ(got.result.grid_syncs, expected.grid_syncs) << where;
  ASSERT_EQ(got.memories, expected.memories) << where;
  ASSERT_EQ(got.reads, expected.reads) << where;
}

}  // namespace mmsim::test
