// The barrier unit. A warp reaches a barrier once its previous request has completed.
// - syncthreads (BarrierScope::block) waits for the warps of the warp's block (its streaming
//   multiprocessor; a flat machine is one block): when every unfinished warp of the block waits
//   at a barrier, those at syncthreads are released at the time of the event that made it so
//   (the last arrival, or the end of the last other warp's program) + barrier_latency.
// - grid_sync (BarrierScope::grid) waits for every warp of the machine (a kernel boundary):
//   released at that event + kernel_latency. A warp at grid_sync also counts as arrived at its
//   block's barrier (grid_sync implies syncthreads), so blocks whose warps disagree on the kind
//   never hang the machine.
// A warp whose program has ended holds no barrier.
#pragma once

#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "hw/support/tracer.hpp"
#include "hw/support/types.hpp"

namespace mmsim {

class BarrierUnit : public sc_core::sc_module {
 public:
  struct Latencies {
    Cycle block = 0;  // barrier_latency
    Cycle grid = 0;   // kernel_latency
  };
  // `blocks` blocks of `warps_per_block` warps each; warp i is in block i / warps_per_block.
  BarrierUnit(const sc_core::sc_module_name& name, unsigned blocks, std::uint64_t warps_per_block,
              Latencies latencies);

  void arrive(WarpId warp, BarrierScope scope, Cycle t);
  // The warp's program has ended: no barrier waits for it any more.
  void leave(WarpId warp, Cycle t);
  // Whether a warp arrived or left since open() last returned nothing: only then may a barrier
  // open. (Test it before open(): the empty optional, made on every dispatch, cost a
  // store-forwarding stall.)
  bool touched() const { return !touched_.empty() || grid_touched_; }
  // Opens a barrier that every warp it waits for has reached, if there is one: returns the
  // release time, and released() lists the warps let through. Call until it returns nothing.
  std::optional<Cycle> open();
  const std::vector<WarpId>& released() const { return released_; }

  unsigned blocks() const { return static_cast<unsigned>(blocks_.size()); }
  // syncthreads steps of one block, and grid_sync steps of the machine.
  std::uint64_t steps(unsigned block) const { return blocks_[block].steps; }
  std::uint64_t grid_steps() const { return grid_.steps; }
  // Warps whose program has ended.
  std::uint64_t finished() const { return warps_per_block_ * blocks_.size() - grid_.running; }

  // `scopes[b]`: the hierarchical name under which block b's barrier is traced (its waiting
  // warps and steps); the grid barrier is traced under this module's name.
  void trace(Tracer& tracer, const std::vector<std::string>& scopes);
  void update_trace();

 private:
  struct Block {
    std::uint64_t running = 0;    // warps that have not finished
    std::uint64_t at_grid = 0;    // of them, waiting at grid_sync
    std::vector<WarpId> waiting;  // at syncthreads
    Cycle last_event = 0;
    std::uint64_t steps = 0;
    std::uint64_t traced_waiting = 0;
    std::uint64_t traced_steps = 0;
  };
  struct Grid {
    std::uint64_t running = 0;
    std::vector<WarpId> waiting;
    Cycle last_event = 0;
    std::uint64_t steps = 0;
    std::uint64_t traced_waiting = 0;
    std::uint64_t traced_steps = 0;
  };

  Block& block_of(WarpId warp) { return blocks_[warp / warps_per_block_]; }
  void touch(WarpId warp, Cycle t);

  std::uint64_t warps_per_block_;
  Latencies latencies_;
  std::vector<Block> blocks_;
  Grid grid_;
  std::vector<unsigned> touched_;  // blocks with an event since the last open()
  bool grid_touched_ = false;
  std::vector<WarpId> released_;
};

}  // namespace mmsim
