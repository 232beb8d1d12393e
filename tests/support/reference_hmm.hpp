// An independent, deliberately plain implementation of the hierarchical machine
// (docs/semantics.md §7), time stepped cycle by cycle: d streaming multiprocessors with a shared
// memory each (dmm: banked by w, or pram: one stage per dispatch; latency l_s) over one global
// memory (a UMM of width w_g, latency l), banks of k ports (§10); every memory has its own
// dispatch turn over the warps that reach it, and in each time unit every memory chooses from
// the state at the start of that time unit before any choice acts; syncthreads per block (a
// grid_sync counts as arrived there too), grid_sync over the machine. Single warps (s = 1).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "support/reference_machine.hpp"

namespace mmsim::test {

struct RefHmmConfig {
  unsigned width = 4;         // w
  unsigned blocks = 1;        // d
  unsigned global_width = 4;  // w_g
  unsigned latency = 1;       // l
  unsigned shared_latency = 1;
  unsigned ports = 1;         // of a bank of global memory (docs/semantics.md §10)
  unsigned shared_ports = 1;  // of a bank of a shared memory (dmm)
  bool shared_pram = false;  // shared memories without bank conflicts
  std::string dispatch = "round_robin";
  Cycle barrier_latency = 0;
  Cycle kernel_latency = 0;
  std::uint64_t global_words = 0;
  std::uint64_t shared_words = 0;
};

struct RefHmmResult {
  Cycle cycles = 0;
  std::vector<std::uint64_t> dispatches;  // per memory: global, then shared 0 .. d-1
  std::vector<std::uint64_t> stages;
  std::vector<std::uint64_t> block_syncthreads;
  std::uint64_t grid_syncs = 0;
  std::vector<std::vector<Word>> memories;  // the same order
  std::vector<std::vector<Word>> reads;     // per warp, lanes in order
};

// Every memory starts as m[i] = i.
RefHmmResult run_reference_hmm(const RefHmmConfig& config, const RefProgram& program);

}  // namespace mmsim::test
