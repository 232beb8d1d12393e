// Integer arithmetic of the algorithms of Nakano 2012 (asynchronous): levels of w-ary trees,
// halving steps, and the number of syncthreads each algorithm executes (the programs perform
// exactly these).
#pragma once

#include <bit>
#include <cstdint>

namespace mmsim {

// Levels of a `base`-ary tree over `n` leaves: how often n must be divided by base (rounding
// up) to reach 1; ceil(log_base(n)) (0 for n = 1).
constexpr std::uint64_t tree_levels(std::uint64_t n, std::uint64_t base) {
  std::uint64_t levels = 0;
  for (; n > 1; n = (n + base - 1) / base) ++levels;
  return levels;
}

// Halving steps of Simple-Tree before its tree: r = ceil(log2(log2(w))), the smallest r with
// 2^(2^r) >= w, so that the n/2^r numbers left (at most n/log2(w)) make the tree cost O(n/w).
constexpr unsigned simple_tree_halvings(std::uint64_t w) {
  unsigned r = 0;
  while ((std::uint64_t{1} << r) < 64 && (std::uint64_t{1} << (std::uint64_t{1} << r)) < w) ++r;
  return r;
}

// ceil(n / 2^r).
constexpr std::uint64_t halved(std::uint64_t n, unsigned r) {
  return (n + (std::uint64_t{1} << r) - 1) >> r;
}

// Syncthreads of Summing Algorithm Simple on n = 2^m numbers: one after each step t whose
// 2^t active threads span more than one warp (2^t > w): m - log2(w) - 1 for n > w.
constexpr std::uint64_t simple_syncs(std::uint64_t n, std::uint64_t w) {
  std::uint64_t syncs = 0;
  for (std::uint64_t active = n / 2; active >= 1; active /= 2) syncs += active > w;
  return syncs;
}

// Summing Algorithm Tree: one syncthreads per level.
constexpr std::uint64_t tree_syncs(std::uint64_t n, std::uint64_t w) { return tree_levels(n, w); }

// Summing Algorithm Simple-Tree: one per halving step, then the tree's.
constexpr std::uint64_t simple_tree_syncs(std::uint64_t n, std::uint64_t w) {
  const unsigned r = simple_tree_halvings(w);
  return r + tree_syncs(halved(n, r), w);
}

// Summing Algorithm Hybrid: one after the column sums, then Simple-Tree on w*l numbers.
constexpr std::uint64_t hybrid_syncs(std::uint64_t w, std::uint64_t l) {
  return 1 + simple_tree_syncs(w * l, w);
}

// Prefix-summing Algorithm Simple on n = 2^m numbers: the interval sums as Summing Algorithm
// Simple; the sums of the interval sums one after each level but the last whose successor's
// 2^(t+1) threads span more than one warp: 2*(m - log2(w) - 1) for n > w.
constexpr std::uint64_t prefix_simple_syncs(std::uint64_t n, std::uint64_t w) {
  return 2 * simple_syncs(n, w);
}

// Prefix-summing Algorithm Tree with k levels: after each level of interval sums but the
// unneeded root (k - 1), after the prefix sums of each level (k).
constexpr std::uint64_t prefix_tree_syncs(std::uint64_t n, std::uint64_t w) {
  const std::uint64_t k = tree_levels(n, w);
  return k == 0 ? 0 : 2 * k - 1;
}

// Prefix-summing Algorithm Simple-Tree: r interval-sum levels, the tree, r - 1 levels of sums
// of interval sums (the last needs none).
constexpr std::uint64_t prefix_simple_tree_syncs(std::uint64_t n, std::uint64_t w) {
  const unsigned r = simple_tree_halvings(w);
  return r + prefix_tree_syncs(halved(n, r), w) + (r > 0 ? r - 1 : 0);
}

// Prefix-summing Algorithm Hybrid: after the column-wise prefix sums, Simple-Tree on the w*l
// column totals, and after it (the transposes are warp-local and need none).
constexpr std::uint64_t prefix_hybrid_syncs(std::uint64_t w, std::uint64_t l) {
  return 2 + prefix_simple_tree_syncs(w * l, w);
}

constexpr bool is_power_of(std::uint64_t n, std::uint64_t base) {
  if (n == 0 || base < 2) return false;
  while (n % base == 0) n /= base;
  return n == 1;
}

}  // namespace mmsim
