#include "hw/pe/barrier_unit.hpp"

#include <algorithm>

namespace mmsim {

BarrierUnit::BarrierUnit(const sc_core::sc_module_name& name, unsigned blocks,
                         std::uint64_t warps_per_block, Latencies latencies)
    : sc_core::sc_module(name),
      warps_per_block_(warps_per_block),
      latencies_(latencies),
      blocks_(blocks) {
  for (Block& block : blocks_) block.running = warps_per_block;
  grid_.running = warps_per_block * blocks;
}

void BarrierUnit::touch(WarpId warp, Cycle t) {
  const auto b = static_cast<unsigned>(warp / warps_per_block_);
  Block& block = blocks_[b];
  block.last_event = std::max(block.last_event, t);
  grid_.last_event = std::max(grid_.last_event, t);
  touched_.push_back(b);
  grid_touched_ = true;
}

void BarrierUnit::arrive(WarpId warp, BarrierScope scope, Cycle t) {
  if (scope == BarrierScope::grid) {
    grid_.waiting.push_back(warp);
    ++block_of(warp).at_grid;
  } else {
    block_of(warp).waiting.push_back(warp);
  }
  touch(warp, t);
}

void BarrierUnit::leave(WarpId warp, Cycle t) {
  --block_of(warp).running;
  --grid_.running;
  touch(warp, t);
}

std::optional<Cycle> BarrierUnit::open() {
  while (!touched_.empty()) {
    Block& block = blocks_[touched_.back()];
    touched_.pop_back();
    if (block.waiting.empty() || block.waiting.size() + block.at_grid != block.running) continue;
    released_.swap(block.waiting);
    block.waiting.clear();
    ++block.steps;
    return block.last_event + latencies_.block;
  }
  if (!grid_touched_) return std::nullopt;
  grid_touched_ = false;
  if (grid_.waiting.empty() || grid_.waiting.size() != grid_.running) return std::nullopt;
  released_.swap(grid_.waiting);
  grid_.waiting.clear();
  for (Block& block : blocks_) block.at_grid = 0;
  ++grid_.steps;
  return grid_.last_event + latencies_.grid;
}

void BarrierUnit::trace(Tracer& tracer, const std::vector<std::string>& scopes) {
  for (std::size_t b = 0; b < blocks_.size(); ++b) {
    tracer.trace(blocks_[b].traced_waiting, scopes[b] + ".waiting");
    tracer.trace(blocks_[b].traced_steps, scopes[b] + ".steps");
  }
  const std::string base = name();
  tracer.trace(grid_.traced_waiting, base + ".grid_waiting");
  tracer.trace(grid_.traced_steps, base + ".grid_steps");
}

void BarrierUnit::update_trace() {
  for (Block& block : blocks_) {
    block.traced_waiting = block.waiting.size();
    block.traced_steps = block.steps;
  }
  grid_.traced_waiting = grid_.waiting.size();
  grid_.traced_steps = grid_.steps;
}

}  // namespace mmsim
