#include "sw/programs/tiled_merge_sort.hpp"

namespace mmsim {

Task TiledMergeSort::run(Warp& warp) {
  BarrierCount barriers(drop_sync());
  co_await sort_blocks(warp, barriers);
  MergeLanes lanes(warp.width());
  for (unsigned r = 0; r < rounds(); ++r) {
    const TileRound round = tile_round(r);
    if (barriers.keep()) co_await warp.grid_sync();
    co_await cut_tiles(warp, lanes, round);
    if (barriers.keep()) co_await warp.grid_sync();
    co_await merge_tiles(warp, lanes, round, barriers);
  }
}

TileRound TiledMergeSort::tile_round(unsigned r) const {
  const std::uint64_t run = block() << r;
  return {.src = runs_after(r),
          .dst = runs_after(r + 1),
          .records = 2 * n(),
          .run = run,
          .pairs = n() / (2 * run),
          .tiles = 2 * run / tile_spacing(),
          .capacity = block(),
          .unpack = r + 1 == rounds() ? output() : Unpack::none};
}

std::uint64_t TiledMergeSort::tiles_of(unsigned j) const {
  return tiles() > j ? (tiles() - j + multiprocessors() - 1) / multiprocessors() : 0;
}

Bound TiledMergeSort::grid_syncs_bound() const {
  return {"grid_syncs_exact",
          "grid_syncs: two per round (before cutting the tiles, before merging them)",
          "2R, R = log2(n/block)",
          2.0 * rounds(),
          Bound::Kind::exact,
          Bound::Measure::grid_syncs,
          "tiled_merge_sort.hpp"};
}

Bound TiledMergeSort::global_lower_bound(const MachineConfig& m) const {
  const double groups = static_cast<double>(n()) / m.global_words_per_group();
  return {"global_lower",
          "the algorithm's own global traffic: the block sort and every round read and write all "
          "n keys",
          "2(R + 1) n/w_g + l - 1, R = log2(n/block)",
          2 * (rounds() + 1) * groups + m.latency - 1,
          Bound::Kind::lower,
          Bound::Measure::cycles,
          "docs/semantics.md §7"};
}

}  // namespace mmsim
