// A sort on the hierarchical machine that sorts blocks in shared memory, then merges the sorted
// runs pairwise through global memory in log2(n/block) rounds of tiles (merge_steps.hpp): each
// round first cuts every merge into tiles (records, a grid_sync), then the multiprocessors merge
// the tiles (a grid_sync before the next round). The runs alternate between m[0 .. n) and
// m[n .. 2n) so that the last round ends in place; the records lie from 2n on.
#pragma once

#include "sw/programs/merge_steps.hpp"
#include "sw/programs/sort_program.hpp"

namespace mmsim {

class TiledMergeSort : public SortProgram {
 public:
  using SortProgram::SortProgram;

  std::uint64_t memory_words() const override { return 2 * n() + 2 * tiles(); }
  Task run(Warp& warp) override;

 protected:
  // Sorts the multiprocessor's blocks and writes them to runs_after(0).
  virtual Task sort_blocks(Warp& warp, BarrierCount& barriers) const = 0;
  // Writes the round's records: where each tile ends in both runs.
  virtual Task cut_tiles(Warp& warp, MergeLanes& lanes, const TileRound& round) const = 0;
  // A pair of runs of L keys makes 2L / tile_spacing() tiles of at most block() keys.
  virtual std::uint64_t tile_spacing() const = 0;
  // How the keys leave the last round (or the block sort, when there is no round).
  virtual Unpack output() const { return Unpack::none; }

  unsigned rounds() const { return log_n() - log_block(); }
  // The array that holds the runs after r rounds.
  Address runs_after(unsigned r) const { return (rounds() - r) % 2 == 0 ? 0 : n(); }
  Unpack block_output() const { return rounds() == 0 ? output() : Unpack::none; }
  TileRound tile_round(unsigned r) const;
  // Tiles of a round, and those multiprocessor j merges.
  std::uint64_t tiles() const { return n() / tile_spacing(); }
  std::uint64_t tiles_of(unsigned j) const;
  // syncthreads of multiprocessor j in the rounds.
  std::uint64_t round_syncs(unsigned j) const { return rounds() * kSyncsPerTile * tiles_of(j); }
  Bound grid_syncs_bound() const;
  // The global traffic of the block sort and the rounds: each reads and writes all n keys.
  Bound global_lower_bound(const MachineConfig& machine) const;
};

}  // namespace mmsim
