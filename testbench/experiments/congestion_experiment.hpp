// The experiment of Nakano and Matsumae 2013, section VI. In each round every one of the s*w
// threads of a super warp picks an address of an array of n words uniformly at random; the round's
// congestion Y is the largest number of distinct addresses mapped to one bank, and the congestion
// ratio is E[Y]/s. With banks of k ports (--ports, docs/semantics.md §10) Y is the stages the
// super warp takes, ceil(c/k) for c the most distinct addresses of one bank. The rounds run
// through the memory parts of the hardware model itself (the sdmm's, or the rsdmm's: its address
// map and its request packing unit), not a copy of them.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hw/memory/address_maps.hpp"

namespace mmsim {

struct CongestionSpec {
  std::vector<unsigned> widths;       // w
  std::vector<unsigned> super_warps;  // s
  std::vector<std::uint64_t> arrays;  // n
  std::uint64_t rounds = 1000000;
  std::uint64_t seed = 1;
  std::string map = "random_shift";  // an address map (address_maps()), as --map names it
  // --map naming a map of one's own (file.py:Class, library:name): the map itself.
  std::shared_ptr<const AddressMapInfo> own_map{};
  unsigned ports = 1;    // k: requests a bank serves per time unit
  unsigned threads = 0;  // worker threads; 0: one per core
};

struct CongestionCell {
  unsigned width = 0;
  unsigned super_warp = 0;
  std::uint64_t array = 0;
  std::uint64_t rounds = 0;
  double congestion = 0;      // mean of Y over the rounds
  double ratio = 0;           // congestion / s
  double standard_error = 0;  // of the ratio
  double analytic = 0;        // f_w(s)/(es)
};

// Rounds are cut into chunks of kChunkRounds, each with its own generator seeded from (seed, w,
// n, chunk) and, for a map drawn from a seed, its own map drawn with that seed: the result does
// not depend on the number of threads. A map of one's own is asked for all its rows before the
// rounds (in the calling thread: the threads only read it). The
// cells of one column (w, n) share their draws: in every round the super warp of s warps reads
// the first s*w of the addresses drawn for the largest super warp (common random numbers).
inline constexpr std::uint64_t kChunkRounds = std::uint64_t{1} << 16;

// The cells in table order: n, then s, then w. Throws InputError naming the option at fault.
// `progress(done, total)` is called as chunks finish (from the worker threads, serialised).
std::vector<CongestionCell> run_congestion(
    const CongestionSpec& spec,
    const std::function<void(std::uint64_t done, std::uint64_t total)>& progress = {});

// f_w(s)/(es) = 2(log s + 1) log w / (s (log log w + 1)), logarithms to base 2 (Nakano and Matsumae
// 2013, Theorem 6 and Table II).
double analytic_ratio(unsigned width, unsigned super_warp);

}  // namespace mmsim
