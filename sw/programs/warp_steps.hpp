// The steps the sum and prefix-sum algorithms of Nakano 2012 (asynchronous) are made of, written
// per warp. The paper writes a step per thread ("T(i) performs a[i] <- a[i] + a[i + h]"); here each
// warp sends the reads and writes of its w lanes as warp instructions, with inactive lanes where a
// thread has nothing to do, and skips an instruction no lane takes part in.
//
// Threads are numbered x = first + lane: first = warp.thread(0) when a step spreads over all
// the threads, 0 when one warp works on a group of its own (One-Warp). Arrays are given by the
// address of their element 0; the steps never send a request past an array's size.
#pragma once

#include <cstdint>
#include <vector>

#include "hw/pe/task.hpp"
#include "hw/pe/warp.hpp"

namespace mmsim {

// A warp's buffers, reused by all its steps: two address vectors and two value vectors.
struct Lanes {
  explicit Lanes(unsigned width) : a(width), b(width), x(width), y(width) {}
  std::vector<Address> a, b;
  std::vector<Word> x, y;
};

// Halving (Summing Algorithm Simple, one value of t): with h = ceil(size/2), every thread
// x < size - h performs a[x] <- a[x] + a[x + h], leaving the sums in a[0 .. h). The step that
// leaves one value writes it to `result` instead of a[0] when `result` is not kInactive.
Task halve(Warp& warp, Lanes& lanes, std::uint64_t first, Address a, std::uint64_t size,
           Address result = kInactive);

// Interval sums (first stage of Prefix-summing Algorithm Simple, one level): every thread
// x < ceil(size/2) performs to[x] <- from[2x] + from[2x + 1] (from[size] counts as 0).
Task pair_sums(Warp& warp, Lanes& lanes, std::uint64_t first, Address from, std::uint64_t size,
               Address to);

// Sums of the interval sums (second stage of Prefix-summing Algorithm Simple, one level):
// `from` holds the prefix sums of the pair sums of `to` (size values); every thread x performs
// to[2x + 1] <- from[x] ("copy") and to[2x + 2] <- to[2x + 2] + from[x] ("add"), within size.
Task spread(Warp& warp, Lanes& lanes, std::uint64_t first, Address from, Address to,
            std::uint64_t size);

// Every thread x < count performs to[x] <- to[x] + from[x].
Task accumulate(Warp& warp, Lanes& lanes, std::uint64_t first, Address to, Address from,
                std::uint64_t count);

// Lane 0 performs to <- to + from (adds a parent's prefix sum to the first number of a group).
Task add_one(Warp& warp, Lanes& lanes, Address to, Address from);

// Summing Algorithm One-Warp on the size <= w numbers at `a` (destroyed); the sum goes to
// `result`.
Task one_warp_sum(Warp& warp, Lanes& lanes, Address a, std::uint64_t size, Address result);

// The interval sums of Prefix-summing Algorithm One-Warp on the size <= w numbers at `a`
// (kept), in `scratch` (one_warp_scratch words); their total goes to `result`.
Task one_warp_total(Warp& warp, Lanes& lanes, Address a, std::uint64_t size, Address scratch,
                    Address result);

// Prefix-summing Algorithm One-Warp: the size <= w numbers at `a` become their prefix sums,
// through the interval sums in `scratch` (one_warp_scratch words).
Task one_warp_prefix(Warp& warp, Lanes& lanes, Address a, std::uint64_t size, Address scratch);

// Words of scratch a warp of `width` lanes needs for one_warp_total and one_warp_prefix.
std::uint64_t one_warp_scratch(unsigned width);

}  // namespace mmsim
