// The adversarial policy (laggard last) delays runs more than the other policies.
#include <gtest/gtest.h>

#include "support/testbench_text.hpp"

namespace mmsim::test {
namespace {

std::uint64_t cycles(const std::string& machine, const std::string& program,
                     const std::string& policy) {
  const RunOutcome o = run_yaml("machine: {" + machine + ", dispatch: " + policy + "}\nprogram: {" +
                                program + "}\n");
  EXPECT_TRUE(o.verified.value_or(false)) << program << " " << policy << ": " << o.first_mismatch;
  return o.result.cycles();
}

// l + 1 = 9 warps each reading C = 10 times (w = 4, l = 8). Round robin keeps the pipeline
// full: 9*10 dispatches + l - 1. Laggard last keeps warp 0 back while warps 1..8, exactly
// enough to fill the pipeline, do their 10 reads (l*C cycles); then warp 0 reads alone, one
// read per l cycles: 2*l*C in all, the factor 2 that is the worst any dispatch order can do.
TEST(AdversarialPolicy, LeavesTheLaggardAloneOnAnEmptyPipeline) {
  const std::string machine = "model: umm, width: 4, latency: 8, threads: 36";
  const std::string program = "name: contiguous_access, params: {n: 360}";
  EXPECT_EQ(cycles(machine, program, "round_robin"), 9u * 10 + 8 - 1);
  EXPECT_EQ(cycles(machine, program, "adversarial"), 2u * 8 * 10);
  for (const std::string policy : {"round_robin", "lowest_ready", "oldest_ready", "random"})
    EXPECT_GE(cycles(machine, program, "adversarial"), cycles(machine, program, policy)) << policy;
}

// On the algorithms of Nakano 2012 (asynchronous) (built to be robust against any order) it is
// still the slowest policy, if by less.
TEST(AdversarialPolicy, IsTheSlowestOnTheAsynchronousSums) {
  const std::string machine = "model: umm, width: 32, latency: 32";
  for (const std::string name : {"sum_simple", "sum_tree", "sum_simple_tree", "prefix_simple",
                                 "prefix_tree", "prefix_simple_tree"}) {
    const std::string program = "name: " + name + ", params: {n: 2^14}";
    const std::uint64_t adversarial = cycles(machine, program, "adversarial");
    for (const std::string policy : {"round_robin", "lowest_ready", "oldest_ready", "random"})
      EXPECT_GT(adversarial, cycles(machine, program, policy)) << name << " " << policy;
  }
}

}  // namespace
}  // namespace mmsim::test
