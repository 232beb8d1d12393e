// An independent, deliberately plain implementation of DESIGN.md section 2 (time stepped cycle
// by cycle, stages computed from the definitions) to check the SystemC model against.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hw/types.hpp"

namespace mmsim::test {

struct RefInstruction {
  enum Kind { read, write, sync } kind = read;
  std::vector<Address> addresses;  // per lane, kInactive = inactive
  std::vector<Word> values;        // writes
};

struct RefProgram {
  std::vector<std::vector<RefInstruction>> warps;
};

struct RefConfig {
  std::string model = "dmm";  // dmm, umm, bpram
  unsigned width = 4;
  unsigned latency = 1;
  std::string dispatch = "round_robin";  // round_robin, lowest_ready, oldest_ready, adversarial
  Cycle barrier_latency = 0;
  Cycle compute_latency = 0;
  bool lowest_lane_wins = false;
  std::uint64_t memory_words = 0;
};

struct RefResult {
  Cycle cycles = 0;
  std::uint64_t dispatches = 0;
  std::uint64_t stages = 0;
  std::uint64_t syncthreads = 0;
  std::vector<Word> memory;
  // Per warp, the values each read returned (lanes in order, inactive lanes skipped).
  std::vector<std::vector<Word>> reads;
};

// Memory starts as m[i] = i.
RefResult run_reference(const RefConfig& config, const RefProgram& program);

}  // namespace mmsim::test
