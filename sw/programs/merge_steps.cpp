#include "sw/programs/merge_steps.hpp"

#include <algorithm>

#include "hw/support/vector_isa.hpp"

namespace mmsim {
namespace {

// The per-lane steps of the binary search, as loops the compiler vectorises (branch-free, the
// lanes' arrays apart), for the instruction set in use; out of line, as their lambdas capture
// values (see for_each_lane).
[[gnu::noinline]] bool set_search_addresses(MergeLanes& lanes) {
  const auto step = [](std::size_t n, Address* __restrict address, const Address* __restrict run,
                       const std::uint64_t* __restrict lo, const std::uint64_t* __restrict hi) {
    std::uint64_t any = 0;
    for (std::size_t lane = 0; lane < n; ++lane) {
      const std::uint64_t active = 0 - static_cast<std::uint64_t>(lo[lane] < hi[lane]);
      address[lane] = ((run[lane] + (lo[lane] + hi[lane]) / 2) & active) | (kInactive & ~active);
      any |= active;
    }
    return any != 0;
  };
  return with_vector_isa([&, n = lanes.address.size(), address = lanes.address.data(),
                          run = lanes.run.data(), lo = lanes.lo.data(),
                          hi = lanes.hi.data()] { return step(n, address, run, lo, hi); });
}

[[gnu::noinline]] void halve_ranges(MergeLanes& lanes, std::span<const Word> got) {
  const auto step = [](std::size_t n, const Address* __restrict address,
                       const Address* __restrict run, const Word* __restrict key,
                       const std::uint64_t* __restrict strict, const Word* __restrict value,
                       std::uint64_t* __restrict lo, std::uint64_t* __restrict hi) {
    for (std::size_t lane = 0; lane < n; ++lane) {
      const std::uint64_t mid = address[lane] - run[lane];
      const bool below =
          (value[lane] < key[lane]) | ((strict[lane] == 0) & (value[lane] == key[lane]));
      const bool active = address[lane] != kInactive;
      // Masks, not branches: all ones where the lane moves that end.
      const std::uint64_t up = 0 - static_cast<std::uint64_t>(active & below);
      const std::uint64_t down = 0 - static_cast<std::uint64_t>(active & !below);
      lo[lane] = (lo[lane] & ~up) | ((mid + 1) & up);
      hi[lane] = (hi[lane] & ~down) | (mid & down);
    }
  };
  with_vector_isa([&, n = lanes.address.size(), address = lanes.address.data(),
                   run = lanes.run.data(), key = lanes.key.data(), strict = lanes.strict.data(),
                   value = got.data(), lo = lanes.lo.data(),
                   hi = lanes.hi.data()] { step(n, address, run, key, strict, value, lo, hi); });
}

// The lanes' keys of a rank merge: addresses of the keys and of the runs they search.
void merge_lanes(const RankMerge& merge, std::uint64_t first, MergeLanes& lanes) {
  const std::uint64_t pair_keys = merge.a + merge.b;
  const std::uint64_t keys = merge.pairs * pair_keys;
  for (std::size_t lane = 0; lane < lanes.address.size(); ++lane) {
    const std::uint64_t e = first + lane;
    if (e >= keys) {
      lanes.address[lane] = lanes.target[lane] = kInactive;
      lanes.lo[lane] = lanes.hi[lane] = 0;
      continue;
    }
    const std::uint64_t pair = e / pair_keys;
    const std::uint64_t t = e % pair_keys;
    const Address a = merge.from + pair * pair_keys;
    const bool in_a = t < merge.a;
    lanes.address[lane] = a + t;
    lanes.run[lane] = in_a ? a + merge.a : a;
    lanes.lo[lane] = 0;
    lanes.hi[lane] = in_a ? merge.b : merge.a;
    lanes.strict[lane] = in_a;
    lanes.target[lane] = merge.to + pair * pair_keys + (in_a ? t : t - merge.a);
  }
}

}  // namespace

Task search_ranks(Warp& warp, MergeLanes& lanes, Space space) {
  while (set_search_addresses(lanes)) {
    const auto got = co_await warp.read(lanes.address, space);
    halve_ranges(lanes, got);
  }
}

Task rank_merge(Warp& warp, MergeLanes& lanes, const RankMerge& merge) {
  const std::uint64_t keys = merge.pairs * (merge.a + merge.b);
  for (std::uint64_t first = warp.block_thread(0); first < keys; first += warp.block_threads()) {
    merge_lanes(merge, first, lanes);
    const auto got = co_await warp.read(lanes.address, Space::shared);
    std::copy(got.begin(), got.end(), lanes.key.begin());
    co_await search_ranks(warp, lanes, Space::shared);
    for (std::size_t lane = 0; lane < lanes.address.size(); ++lane)
      lanes.address[lane] =
          lanes.target[lane] == kInactive ? kInactive : lanes.target[lane] + lanes.lo[lane];
    co_await warp.write(lanes.address, lanes.key, Space::shared);
  }
}

Task load_pieces(Warp& warp, MergeLanes& lanes, Address first, std::uint64_t first_keys,
                 Address second, std::uint64_t second_keys, Address shared) {
  const std::uint64_t keys = first_keys + second_keys;
  for (std::uint64_t e0 = warp.block_thread(0); e0 < keys; e0 += warp.block_threads()) {
    for (std::size_t lane = 0; lane < lanes.address.size(); ++lane) {
      const std::uint64_t e = e0 + lane;
      lanes.address[lane] =
          e >= keys ? kInactive : (e < first_keys ? first + e : second + (e - first_keys));
      lanes.target[lane] = e >= keys ? kInactive : shared + e;
    }
    const auto got = co_await warp.read(lanes.address);
    std::copy(got.begin(), got.end(), lanes.key.begin());
    co_await warp.write(lanes.target, lanes.key, Space::shared);
  }
}

Task store_keys(Warp& warp, MergeLanes& lanes, Address shared, Address global, std::uint64_t keys,
                Unpack unpack) {
  for (std::uint64_t e0 = warp.block_thread(0); e0 < keys; e0 += warp.block_threads()) {
    for (std::size_t lane = 0; lane < lanes.address.size(); ++lane) {
      const std::uint64_t e = e0 + lane;
      lanes.address[lane] = e >= keys ? kInactive : shared + e;
      lanes.target[lane] = e >= keys ? kInactive : global + e;
    }
    const auto got = co_await warp.read(lanes.address, Space::shared);
    for (std::size_t lane = 0; lane < lanes.key.size(); ++lane)
      lanes.key[lane] = unpack == Unpack::key_of_item ? key_of_item(got[lane]) : got[lane];
    co_await warp.write(lanes.target, lanes.key);
  }
}

Task merge_tiles(Warp& warp, MergeLanes& lanes, const TileRound& round, BarrierCount& barriers) {
  const Address bounds = 2 * round.capacity;
  const std::uint64_t tiles = round.pairs * round.tiles;
  std::vector<std::uint64_t> bound(4);
  for (std::uint64_t tile = warp.block(); tile < tiles; tile += warp.blocks()) {
    const std::uint64_t pair = tile / round.tiles;
    const std::uint64_t q = tile % round.tiles;
    // One warp reads the records (a(q-1), b(q-1), a(q), b(q)) and hands them to the others
    // through shared memory.
    if (warp.warp_in_block() == 0) {
      std::fill(lanes.address.begin(), lanes.address.end(), kInactive);
      std::fill(lanes.target.begin(), lanes.target.end(), kInactive);
      for (unsigned i = 0; i < 4; ++i) {
        if (i < 2 && q == 0) continue;
        lanes.address[i] = round.records + 2 * (tile - (i < 2 ? 1 : 0)) + i % 2;
      }
      const auto got = co_await warp.read(lanes.address);
      for (unsigned i = 0; i < 4; ++i) {
        lanes.key[i] = i < 2 && q == 0 ? 0 : got[i];
        lanes.target[i] = bounds + i;
      }
      co_await warp.write(lanes.target, lanes.key, Space::shared);
    }
    if (barriers.keep()) co_await warp.sync();
    for (unsigned i = 0; i < 4; ++i) {
      std::fill(lanes.address.begin(), lanes.address.end(), bounds + i);
      bound[i] = static_cast<std::uint64_t>((co_await warp.read(lanes.address, Space::shared))[0]);
    }
    // Clamped to the runs and the room (a deliberately broken variant may read wrong bounds).
    const std::uint64_t a0 = std::min(bound[0], round.run);
    const std::uint64_t b0 = std::min(bound[1], round.run);
    const std::uint64_t la =
        std::min({bound[2] - std::min(bound[2], a0), round.run - a0, round.capacity});
    const std::uint64_t lb =
        std::min({bound[3] - std::min(bound[3], b0), round.run - b0, round.capacity - la});
    const Address a = round.src + 2 * pair * round.run;
    co_await load_pieces(warp, lanes, a + a0, la, a + round.run + b0, lb, 0);
    if (barriers.keep()) co_await warp.sync();
    co_await rank_merge(warp, lanes, {.from = 0, .to = round.capacity, .a = la, .b = lb});
    if (barriers.keep()) co_await warp.sync();
    co_await store_keys(warp, lanes, round.capacity, round.dst + 2 * pair * round.run + a0 + b0,
                        la + lb, round.unpack);
    if (barriers.keep()) co_await warp.sync();
  }
}

}  // namespace mmsim
