#include "testbench/run/race_detector.hpp"

namespace mmsim {

RaceDetector::RaceDetector(const std::vector<MemoryScope>& memories, std::size_t listed)
    : memories_(memories.size()), listed_(listed) {
  for (std::size_t m = 0; m < memories.size(); ++m) {
    memories_[m].cells.resize(memories[m].words);
    memories_[m].one_block = memories[m].one_block;
  }
}

void RaceDetector::access(const MemoryAccess& a) {
  Memory& memory = memories_[a.memory];
  const std::uint64_t epoch = memory.one_block ? a.epoch : a.grid_epoch;
  if (epoch < memory.epoch) return;  // ordered before everything kept (never seen)
  if (epoch > memory.epoch) {
    memory.epoch = epoch;
    memory.log.clear();
    ++memory.generation;
  }
  Cell& cell = memory.cells[a.address];
  if (cell.generation != memory.generation) cell = Cell{memory.generation, 0, 0};
  std::uint32_t& head = a.kind == AccessKind::read ? cell.reads : cell.writes;
  if (head != 0) {
    const Access& last = memory.log[head - 1].access;
    if (last.warp == a.warp && last.pc == a.pc) return;  // another lane of the same instruction
  }
  pair_with(memory, cell.writes, a);
  if (a.kind == AccessKind::write) pair_with(memory, cell.reads, a);
  memory.log.push_back({{a.warp, a.kind, a.pc, a.completion}, a.block, a.epoch, head});
  head = static_cast<std::uint32_t>(memory.log.size());
}

void RaceDetector::pair_with(const Memory& memory, std::uint32_t head, const MemoryAccess& a) {
  for (std::uint32_t r = head; r != 0; r = memory.log[r - 1].next) {
    const Record& earlier = memory.log[r - 1];
    if (earlier.access.warp == a.warp) continue;
    // Warps of one block are also ordered by the block's barriers.
    if (earlier.block == a.block && earlier.epoch != a.epoch) continue;
    ++count_;
    if (races_.size() < listed_)
      races_.push_back({a.memory, a.address, earlier.access, {a.warp, a.kind, a.pc, a.completion}});
  }
}

}  // namespace mmsim
