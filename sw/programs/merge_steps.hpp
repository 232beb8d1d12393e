// Merging sorted runs by ranks on the hierarchical machine: the pieces merge_sort_hmm and
// cole_merge_sort share. A key's place in the merge of runs A and B is its index in its own run
// plus its rank in the other: the keys of B below it (A's keys) or not above it (B's keys), so
// that equal keys keep A's before B's (a stable merge). A thread finds a rank by binary search.
#pragma once

#include <cstdint>
#include <span>

#include "hw/pe/task.hpp"
#include "hw/pe/warp.hpp"
#include "sw/programs/lane_loops.hpp"
#include "sw/programs/sort_program.hpp"

namespace mmsim {

// A warp's lane arrays for the merge steps: the address of its access and its key's target; the
// run a lane searches (its element 0) and the part [lo, hi) of it still searched, as addresses;
// its key (a Word); and `equal`: all ones where the keys equal to the lane's key count too
// (those not above it), zero where only those below it count (a mask word, as the other arrays,
// so that the per-lane loops vectorise with one width and take it as it is).
enum class MergeLane : std::size_t { address, target, run, lo, hi, key, equal, count };
using MergeLanes = LaneTable<MergeLane>;

// Every lane with lo < hi counts the keys at [lo, hi) (sorted, in `space`) below its key (or not
// above it, `equal`): lo ends at the first key not counted, lo - run is the key's rank in the
// run. One read per halving; lanes done are inactive.
Task search_ranks(Warp& warp, MergeLanes& lanes, Space space);

// Pairs of sorted runs side by side in shared memory: pair i is run A of `a` keys at
// from + i(a + b) and run B of `b` keys right after it, merged into to + i(a + b).
struct RankMerge {
  Address from = 0;
  Address to = 0;
  std::uint64_t pairs = 1;
  std::uint64_t a = 0;
  std::uint64_t b = 0;
};

// Merges them with the block's threads (thread t takes keys t, t + T, ... of all pairs): each
// reads its key, finds its rank in the other run, and writes the key to its place.
Task rank_merge(Warp& warp, MergeLanes& lanes, const RankMerge& merge);

// How keys leave shared memory: as they are, or as the key of a packed item (key << 32 | index,
// cole_merge_sort).
enum class Unpack { none, key_of_item };

inline Word key_of_item(Word item) { return item >> 32; }
// Keys of 32 bits made distinct by their index in the input (< 2^32): ordered by key, then index.
inline Word item_of_key(Word key, std::uint64_t index) {
  return static_cast<Word>((static_cast<std::uint64_t>(key) << 32) | index);
}

// The block's threads copy global [first, first + first_keys) and then [second, second +
// second_keys) to shared memory from `shared` on (consecutive lanes, consecutive addresses).
Task load_pieces(Warp& warp, MergeLanes& lanes, Address first, std::uint64_t first_keys,
                 Address second, std::uint64_t second_keys, Address shared);
// ... and shared [shared, shared + keys) to global memory from `global` on.
Task store_keys(Warp& warp, MergeLanes& lanes, Address shared, Address global, std::uint64_t keys,
                Unpack unpack);

// One round of merging pairs of sorted runs of `run` keys in global memory (pair i: src + 2i*run
// and the run after it, merged into dst + 2i*run), in tiles. Record q of a pair (two words:
// a(q), b(q), at records + 2(i*tiles + q)) says where tile q ends in A and in B; the last is
// (run, run), and a(-1) = b(-1) = 0. Tile q merges A[a(q-1) .. a(q)) with B[b(q-1) .. b(q)) into
// dst + 2i*run + a(q-1) + b(q-1). SM j merges tiles j, j + d, ... of the round in its shared
// memory: the pieces at [0, capacity), the merged tile at [capacity, 2 capacity), the tile's
// bounds at 2 capacity (tile_round_shared_words).
struct TileRound {
  Address src = 0;
  Address dst = 0;
  Address records = 0;
  std::uint64_t run = 0;
  std::uint64_t pairs = 0;
  std::uint64_t tiles = 0;     // per pair
  std::uint64_t capacity = 0;  // the most keys of a tile
  Unpack unpack = Unpack::none;
};
inline std::uint64_t tile_round_shared_words(std::uint64_t capacity) { return 2 * capacity + 4; }

// Four syncthreads per tile: bounds read, pieces loaded, merged, stored.
Task merge_tiles(Warp& warp, MergeLanes& lanes, const TileRound& round, BarrierCount& barriers);
inline constexpr std::uint64_t kSyncsPerTile = 4;

}  // namespace mmsim
