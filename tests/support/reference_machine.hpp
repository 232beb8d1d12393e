// An independent, deliberately plain implementation of docs/semantics.md §3 and §10 (time stepped
// cycle by cycle, stages computed from the definitions) to check the SystemC model against. A
// dispatch unit is a super warp of `super_warp` warps: when it may go on, each of its warps
// runs to its next instruction, and the memory instructions found then go as one dispatch.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hw/support/types.hpp"

namespace mmsim::test {

struct RefInstruction {
  enum Kind { read, write, sync, grid_sync } kind = read;
  std::vector<Address> addresses;  // per lane, kInactive = inactive
  std::vector<Word> values;        // writes
  Space space = Space::global;     // the hierarchical machine (reference_hmm.hpp)
};

struct RefProgram {
  std::vector<std::vector<RefInstruction>> warps;
};

struct RefConfig {
  std::string model = "dmm";  // dmm, sdmm, rsdmm, umm, bpram
  unsigned width = 4;
  unsigned super_warp = 1;  // warps per dispatch unit (sdmm, rsdmm)
  // Bank of address j*w + k (DMM family): interleaved k, random_shift (k + shifts[j]) mod w,
  // skew (k + j) mod w, xor k ^ (j mod w).
  std::string map = "interleaved";
  std::vector<std::uint32_t> shifts;
  unsigned latency = 1;
  unsigned ports = 1;                    // requests a bank serves per time unit (§10)
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
