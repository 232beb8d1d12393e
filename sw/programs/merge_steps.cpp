#include "sw/programs/merge_steps.hpp"

#include <algorithm>
#include <bit>
#include <span>

#include "hw/support/vector_isa.hpp"
#include "sw/programs/lane_loops.hpp"

namespace mmsim {
namespace {

using enum MergeLane;
using MergePointers = LanePointers<MergeLane>;

// A lane's next probe: the middle of the addresses [lo, hi) it still searches (the middle of
// the indices in its run: run + (i + j) / 2 = (2 run + i + j) / 2), or kInactive once they are
// none (branch-free).
inline Address next_probe(Address lo, Address hi) {
  return pick(lane_mask(less_count(lo, hi)), (lo + hi) / 2, kInactive);
}

// The per-lane steps of the binary search, as loops the compiler vectorises (branch-free, the
// lanes' arrays apart), for the instruction set in use; out of line, as their lambdas capture
// values (see for_each_lane). Each takes the lanes' buffers by reference and their pointers
// once (not in its call: a call that passed eight words cost as much as a third of the loop).

// A lane's probe of its range; whether it has one.
inline std::uint64_t probe_lane(const MergePointers& a, std::size_t lane) {
  a[address][lane] = next_probe(a[lo][lane], a[hi][lane]);
  return less_count(a[lo][lane], a[hi][lane]);
}

// The first probes; whether any lane has one.
[[gnu::noinline]] bool set_search_addresses(MergeLanes& lanes) {
  return with_lanes(lanes, [](const MergePointers& a) {
    std::uint64_t any = 0;
    for_lanes(a.n, [&](std::size_t lane) { any |= probe_lane(a, lane); });
    return any != 0;
  });
}

// The keys read (got) become the lanes' keys; then set_search_addresses (one loop for both).
[[gnu::noinline]] bool take_keys(MergeLanes& lanes, std::span<const Word> got) {
  return with_lanes(lanes, [value = got.data()](const MergePointers& a) {
    std::uint64_t any = 0;
    for_lanes(a.n, [&](std::size_t lane) {
      a.words(key)[lane] = value[lane];
      any |= probe_lane(a, lane);
    });
    return any != 0;
  });
}

// The read keys halve the lanes' ranges; then the addresses of the next step, as
// set_search_addresses (one loop for both). The lanes that read are those with lo < hi (their
// probe is the middle).
[[gnu::noinline]] bool halve_ranges(MergeLanes& lanes, std::span<const Word> got) {
  return with_lanes(lanes, [value = got.data()](const MergePointers& a) {
    std::uint64_t any = 0;
    for_lanes(a.n, [&](std::size_t lane) {
      const Address mid = a[address][lane];
      const std::uint64_t below = lane_mask(value[lane] < a.words(key)[lane]) |
                                  (a[equal][lane] & lane_mask(value[lane] == a.words(key)[lane]));
      const std::uint64_t active = lane_mask(less_count(a[lo][lane], a[hi][lane]));
      // Masks, not branches: all ones where the lane moves that end.
      const Address new_lo = pick(active & below, mid + 1, a[lo][lane]);
      const Address new_hi = pick(active & ~below, mid, a[hi][lane]);
      a[lo][lane] = new_lo;
      a[hi][lane] = new_hi;
      a[address][lane] = next_probe(new_lo, new_hi);
      any |= less_count(new_lo, new_hi);
    });
    return any != 0;
  });
}

// The lanes' keys of a rank merge: addresses of the keys and of the runs they search. Key e is
// key t of its pair; a mask finds t where the pairs' size is a power of two or there is one
// pair, else a division.
[[gnu::noinline]] void merge_lanes(const RankMerge& merge, std::uint64_t first, MergeLanes& lanes) {
  const std::uint64_t pair_keys = merge.a + merge.b;
  const bool divide = merge.pairs > 1 && !std::has_single_bit(pair_keys);
  const std::uint64_t mask = merge.pairs == 1 ? ~std::uint64_t{0} : pair_keys - 1;
  with_lanes(lanes,
             [divide, mask, pair_keys, keys = merge.pairs * pair_keys, first, from = merge.from,
              to = merge.to, a_keys = merge.a, b_keys = merge.b](const MergePointers& a) {
               for_lanes(a.n, [&](std::size_t lane) {
                 const std::uint64_t e = first + lane;
                 const std::uint64_t active = lane_mask(less_count(e, keys));
                 const std::uint64_t t = divide ? e % pair_keys : e & mask;
                 const Address run_a = from + (e - t);  // the pair's run A
                 const std::uint64_t in_a = lane_mask(less_count(t, a_keys));
                 a[address][lane] = pick(active, run_a + t, kInactive);
                 const Address other = run_a + (a_keys & in_a);  // the run it searches
                 a[run][lane] = other;
                 a[lo][lane] = other;
                 a[hi][lane] = other + (pick(in_a, b_keys, a_keys) & active);
                 a[equal][lane] = ~in_a;
                 a[target][lane] = pick(active, to + (e - t) + t - (a_keys & ~in_a), kInactive);
               });
             });
}

// Each lane's key to its place: its target plus its rank (lo - run).
[[gnu::noinline]] void merge_places(MergeLanes& lanes) {
  with_lanes(lanes, [](const MergePointers& a) {
    for_lanes(a.n, [&](std::size_t lane) {
      a[address][lane] = pick(lane_mask(a[target][lane] == kInactive), kInactive,
                              a[target][lane] + (a[lo][lane] - a[run][lane]));
    });
  });
}

// Consecutive lanes, consecutive keys e0 + lane of `keys`: key e at from(e) goes to to + e.
template <class From>
void copy_lanes(MergeLanes& lanes, std::uint64_t e0, std::uint64_t keys, From from, Address to) {
  with_lanes(lanes, [from, e0, keys, to](const MergePointers& a) {
    for_lanes(a.n, [&](std::size_t lane) {
      const std::uint64_t e = e0 + lane;
      const std::uint64_t active = lane_mask(less_count(e, keys));
      a[address][lane] = pick(active, from(e), kInactive);
      a[target][lane] = pick(active, to + e, kInactive);
    });
  });
}

[[gnu::noinline]] void piece_lanes(MergeLanes& lanes, std::uint64_t e0, Address first,
                                   std::uint64_t first_keys, Address second, std::uint64_t keys,
                                   Address shared) {
  copy_lanes(
      lanes, e0, keys,
      [first, first_keys, second](std::uint64_t e) {
        return less_count(e, first_keys) ? first + e : second + (e - first_keys);
      },
      shared);
}

[[gnu::noinline]] void store_lanes(MergeLanes& lanes, std::uint64_t e0, Address shared,
                                   Address global, std::uint64_t keys) {
  copy_lanes(
      lanes, e0, keys, [shared](std::uint64_t e) { return shared + e; }, global);
}

[[gnu::noinline]] void unpack_keys(MergeLanes& lanes, std::span<const Word> got, Unpack unpack) {
  with_lanes(lanes,
             [got = got.data(), items = unpack == Unpack::key_of_item](const MergePointers& a) {
               for_lanes(a.n, [&](std::size_t lane) {
                 a.words(key)[lane] = items ? key_of_item(got[lane]) : got[lane];
               });
             });
}

}  // namespace

Task search_ranks(Warp& warp, MergeLanes& lanes, Space space) {
  for (bool more = set_search_addresses(lanes); more;) {
    const auto got = co_await warp.read(lanes[address], space);
    more = halve_ranges(lanes, got);
  }
}

Task rank_merge(Warp& warp, MergeLanes& lanes, const RankMerge& merge) {
  const std::uint64_t keys = merge.pairs * (merge.a + merge.b);
  for (std::uint64_t first = warp.block_thread(0); first < keys; first += warp.block_threads()) {
    merge_lanes(merge, first, lanes);
    const auto got = co_await warp.read(lanes[address], Space::shared);
    // search_ranks written out: as a subroutine (a coroutine of its own) it would allocate its
    // frame for every key.
    for (bool more = take_keys(lanes, got); more;)
      more = halve_ranges(lanes, co_await warp.read(lanes[address], Space::shared));
    merge_places(lanes);
    co_await warp.write(lanes[address], lanes.words(key), Space::shared);
  }
}

Task load_pieces(Warp& warp, MergeLanes& lanes, Address first, std::uint64_t first_keys,
                 Address second, std::uint64_t second_keys, Address shared) {
  const std::uint64_t keys = first_keys + second_keys;
  for (std::uint64_t e0 = warp.block_thread(0); e0 < keys; e0 += warp.block_threads()) {
    piece_lanes(lanes, e0, first, first_keys, second, keys, shared);
    co_await warp.read(lanes[address]);
    co_await warp.write(lanes[target], Space::shared);  // the keys read, from the registers
  }
}

Task store_keys(Warp& warp, MergeLanes& lanes, Address shared, Address global, std::uint64_t keys,
                Unpack unpack) {
  for (std::uint64_t e0 = warp.block_thread(0); e0 < keys; e0 += warp.block_threads()) {
    store_lanes(lanes, e0, shared, global, keys);
    const auto got = co_await warp.read(lanes[address], Space::shared);
    unpack_keys(lanes, got, unpack);
    co_await warp.write(lanes[target], lanes.words(key));
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
      std::fill(lanes[address].begin(), lanes[address].end(), kInactive);
      std::fill(lanes[target].begin(), lanes[target].end(), kInactive);
      for (unsigned i = 0; i < 4; ++i) {
        if (i < 2 && q == 0) continue;
        lanes[address][i] = round.records + 2 * (tile - (i < 2 ? 1 : 0)) + i % 2;
      }
      const auto got = co_await warp.read(lanes[address]);
      for (unsigned i = 0; i < 4; ++i) {
        lanes.words(key)[i] = i < 2 && q == 0 ? 0 : got[i];
        lanes[target][i] = bounds + i;
      }
      co_await warp.write(lanes[target], lanes.words(key), Space::shared);
    }
    if (barriers.keep()) co_await warp.sync();
    for (unsigned i = 0; i < 4; ++i) {
      std::fill(lanes[address].begin(), lanes[address].end(), bounds + i);
      bound[i] = static_cast<std::uint64_t>((co_await warp.read(lanes[address], Space::shared))[0]);
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
