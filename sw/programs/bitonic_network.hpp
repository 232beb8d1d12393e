// Batcher's bitonic sorting network over 2^m keys, run by warps: step (k, j) of the network
// compares-and-exchanges key lo with key lo + j for every lo whose bit log2(j) is 0, ascending
// when bit k of lo is 0 and descending otherwise (phase k = 1 .. m merges runs of 2^k keys; its
// steps have j = 2^(k-1), ..., 2, 1): m(m+1)/2 steps in all.
//
// Thread t performs the comparators q = t, t + T, t + 2T, ... (T threads), so the w lanes of a
// warp take w consecutive comparators, and in a step with j <= w they touch a segment of 2w keys
// of their own: runs of such steps need no barrier between them (warp-synchronous); a step with
// j > w crosses warps.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

#include "hw/pe/task.hpp"
#include "hw/pe/warp.hpp"
#include "sw/programs/sort_program.hpp"

namespace mmsim {

struct BitonicStep {
  unsigned k;       // phase: runs of 2^k keys are merged
  std::uint64_t j;  // distance of the compared keys
};

// The steps of phases first_phase .. last_phase whose distance is in [min_j, max_j], in order.
std::vector<BitonicStep> bitonic_steps(unsigned first_phase, unsigned last_phase,
                                       std::uint64_t min_j, std::uint64_t max_j);

// Where key i of an array lies: `plain` at i; `conflict_free` XOR-swizzles every odd row of w
// keys (i xor (w - 1) when bit log2(w) of i is 1), so that the two rows of a warp's 2w-key segment
// use complementary banks: every access of every step hits w distinct banks of a DMM.
enum class KeyLayout { plain, conflict_free };

inline Address key_address(Address base, std::uint64_t i, KeyLayout layout, unsigned log_w) {
  if (layout == KeyLayout::plain) return base + i;
  const std::uint64_t odd_row = (i >> log_w) & 1;
  return base + (i ^ (odd_row * ((std::uint64_t{1} << log_w) - 1)));
}

// Whether a barrier must separate step `before` from step `after` (both of one array): unless
// both keep every warp inside its own 2w keys.
inline bool bitonic_barrier_between(const BitonicStep& before, const BitonicStep& after,
                                    unsigned w) {
  return before.j > w || after.j > w;
}

// Some steps of the network on the keys of one array.
struct BitonicRun {
  std::vector<BitonicStep> steps;
  Space space = Space::global;
  Address base = 0;           // where key 0 of the array lies
  std::uint64_t keys = 0;     // of the array (a power of two)
  std::uint64_t offset = 0;   // index of key 0 in the whole network (directions)
  std::uint64_t thread = 0;   // of the warp's lane 0, among `threads`
  std::uint64_t threads = 0;  // T, a multiple of w
  KeyLayout layout = KeyLayout::plain;
  // Where the last step writes its keys: the array's layout after the run (the flat network
  // leaves the sorted keys in plain order; the last step's segments are warp-local).
  KeyLayout output_layout = KeyLayout::plain;
  BarrierScope scope = BarrierScope::block;  // of the barriers between steps
};

// A warp's buffers for the compare-exchange steps.
struct BitonicLanes {
  explicit BitonicLanes(unsigned w) : lo(w), hi(w), lo_value(w), hi_value(w), ascending(w) {}
  std::vector<Address> lo, hi;
  std::vector<Word> lo_value, hi_value;
  std::vector<unsigned char> ascending;
};

// Runs the steps with a barrier (of run.scope) wherever bitonic_barrier_between says; each
// comparator reads both keys and writes both back, swapped or not (in the last step, to their
// places in run.output_layout).
Task bitonic_run(Warp& warp, BitonicLanes& lanes, const BitonicRun& run, BarrierCount& barriers);

// The barriers bitonic_run executes for `steps`.
std::uint64_t bitonic_run_barriers(const std::vector<BitonicStep>& steps, unsigned w);

}  // namespace mmsim
