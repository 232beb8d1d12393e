#include "sw/programs/warp_steps.hpp"

#include <span>

#include "sw/program/word_arithmetic.hpp"

namespace mmsim {
namespace {

// The per-lane loops live outside the coroutines: GCC optimises (vectorises) them only there.

// out[lane] = base + stride*x for threads x = first + lane < count, kInactive for the others.
// Returns whether any lane is active.
bool lane_addresses(std::span<Address> out, std::uint64_t first, Address base, std::uint64_t stride,
                    std::uint64_t count) {
  for (std::size_t lane = 0; lane < out.size(); ++lane) {
    const std::uint64_t x = first + lane;
    out[lane] = x < count ? base + stride * x : kInactive;
  }
  return first < count;
}

// out[lane] = the value read by an active lane, 0 for an inactive one.
void take(std::span<Word> out, std::span<const Word> got, std::span<const Address> addresses) {
  for (std::size_t lane = 0; lane < out.size(); ++lane)
    out[lane] = addresses[lane] != kInactive ? got[lane] : 0;
}

// out[lane] += the value read by an active lane.
void add(std::span<Word> out, std::span<const Word> got, std::span<const Address> addresses) {
  for (std::size_t lane = 0; lane < out.size(); ++lane)
    out[lane] = wrapping_add(out[lane], addresses[lane] != kInactive ? got[lane] : 0);
}

// Sizes of the levels of interval sums above `size` numbers: ceil(size/2), ..., 1.
std::vector<std::uint64_t> pair_levels(std::uint64_t size) {
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t s = size; s > 1;) sizes.push_back(s = (s + 1) / 2);
  return sizes;
}

}  // namespace

Task halve(Warp& warp, Lanes& lanes, std::uint64_t first, Address a, std::uint64_t size,
           Address result) {
  const std::uint64_t h = (size + 1) / 2;
  if (!lane_addresses(lanes.a, first, a, 1, size - h)) co_return;
  lane_addresses(lanes.b, first, a + h, 1, size - h);
  take(lanes.x, co_await warp.read(lanes.a), lanes.a);
  add(lanes.x, co_await warp.read(lanes.b), lanes.b);
  if (h == 1 && result != kInactive) lane_addresses(lanes.a, first, result, 1, 1);
  co_await warp.write(lanes.a, lanes.x);
}

Task pair_sums(Warp& warp, Lanes& lanes, std::uint64_t first, Address from, std::uint64_t size,
               Address to) {
  if (!lane_addresses(lanes.a, first, from, 2, (size + 1) / 2)) co_return;
  lane_addresses(lanes.b, first, from + 1, 2, size / 2);
  take(lanes.x, co_await warp.read(lanes.a), lanes.a);
  add(lanes.x, co_await warp.read(lanes.b), lanes.b);
  lane_addresses(lanes.a, first, to, 1, (size + 1) / 2);
  co_await warp.write(lanes.a, lanes.x);
}

Task spread(Warp& warp, Lanes& lanes, std::uint64_t first, Address from, Address to,
            std::uint64_t size) {
  const std::uint64_t copies = size / 2;      // threads with 2x + 1 < size
  const std::uint64_t adds = (size - 1) / 2;  // threads with 2x + 2 < size
  if (!lane_addresses(lanes.a, first, from, 1, copies)) co_return;
  take(lanes.x, co_await warp.read(lanes.a), lanes.a);
  lane_addresses(lanes.b, first, to + 2, 2, adds);
  take(lanes.y, co_await warp.read(lanes.b), lanes.b);
  add(lanes.y, lanes.x, lanes.b);
  lane_addresses(lanes.a, first, to + 1, 2, copies);
  co_await warp.write(lanes.a, lanes.x);
  co_await warp.write(lanes.b, lanes.y);
}

Task accumulate(Warp& warp, Lanes& lanes, std::uint64_t first, Address to, Address from,
                std::uint64_t count) {
  if (!lane_addresses(lanes.a, first, to, 1, count)) co_return;
  lane_addresses(lanes.b, first, from, 1, count);
  take(lanes.x, co_await warp.read(lanes.a), lanes.a);
  add(lanes.x, co_await warp.read(lanes.b), lanes.b);
  co_await warp.write(lanes.a, lanes.x);
}

Task add_one(Warp& warp, Lanes& lanes, Address to, Address from) {
  lane_addresses(lanes.a, 0, to, 1, 1);
  lane_addresses(lanes.b, 0, from, 1, 1);
  take(lanes.x, co_await warp.read(lanes.a), lanes.a);
  add(lanes.x, co_await warp.read(lanes.b), lanes.b);
  co_await warp.write(lanes.a, lanes.x);
}

Task one_warp_sum(Warp& warp, Lanes& lanes, Address a, std::uint64_t size, Address result) {
  if (size == 1) {
    if (result == a) co_return;
    lane_addresses(lanes.a, 0, a, 1, 1);
    take(lanes.x, co_await warp.read(lanes.a), lanes.a);
    lane_addresses(lanes.a, 0, result, 1, 1);
    co_await warp.write(lanes.a, lanes.x);
    co_return;
  }
  for (std::uint64_t s = size; s > 1; s = (s + 1) / 2) co_await halve(warp, lanes, 0, a, s, result);
}

Task one_warp_total(Warp& warp, Lanes& lanes, Address a, std::uint64_t size, Address scratch,
                    Address result) {
  if (size == 1) {
    co_await one_warp_sum(warp, lanes, a, size, result);
    co_return;
  }
  Address from = a;
  std::uint64_t from_size = size;
  Address to = scratch;
  for (const std::uint64_t s : pair_levels(size)) {
    if (s == 1) to = result;
    co_await pair_sums(warp, lanes, 0, from, from_size, to);
    from = to;
    from_size = s;
    to += s;
  }
}

Task one_warp_prefix(Warp& warp, Lanes& lanes, Address a, std::uint64_t size, Address scratch) {
  const std::vector<std::uint64_t> sizes = pair_levels(size);
  // levels[j]: where level j lives (level 0 is the input), sizes of level j in level_size[j].
  std::vector<Address> levels{a};
  std::vector<std::uint64_t> level_size{size};
  for (const std::uint64_t s : sizes) {
    levels.push_back(levels.size() == 1 ? scratch : levels.back() + level_size.back());
    level_size.push_back(s);
  }
  for (std::size_t j = 1; j < levels.size(); ++j)
    co_await pair_sums(warp, lanes, 0, levels[j - 1], level_size[j - 1], levels[j]);
  for (std::size_t j = levels.size() - 1; j >= 1; --j)
    co_await spread(warp, lanes, 0, levels[j], levels[j - 1], level_size[j - 1]);
}

std::uint64_t one_warp_scratch(unsigned width) { return 2 * std::uint64_t{width}; }

}  // namespace mmsim
