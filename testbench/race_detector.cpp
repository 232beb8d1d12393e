#include "testbench/race_detector.hpp"

namespace mmsim {

RaceDetector::RaceDetector(const std::vector<std::uint64_t>& memory_words, std::size_t listed)
    : memories_(memory_words.size()), listed_(listed) {
  for (std::size_t m = 0; m < memory_words.size(); ++m) memories_[m].cells.resize(memory_words[m]);
}

void RaceDetector::access(MemoryId id, Address address, AccessKind kind, WarpId warp,
                          std::uint64_t pc, std::uint64_t epoch, Cycle completion) {
  Memory& memory = memories_[id];
  if (epoch < memory.epoch) return;  // ordered before everything kept (never seen)
  if (epoch > memory.epoch) {
    memory.epoch = epoch;
    memory.log.clear();
    ++memory.generation;
  }
  Cell& cell = memory.cells[address];
  if (cell.generation != memory.generation) cell = Cell{memory.generation, 0, 0};
  std::uint32_t& head = kind == AccessKind::read ? cell.reads : cell.writes;
  if (head != 0) {
    const Access& last = memory.log[head - 1].access;
    if (last.warp == warp && last.pc == pc) return;  // another lane of the same instruction
  }
  const Access access{warp, kind, pc, completion};
  pair_with(memory, cell.writes, id, address, access);
  if (kind == AccessKind::write) pair_with(memory, cell.reads, id, address, access);
  memory.log.push_back({access, head});
  head = static_cast<std::uint32_t>(memory.log.size());
}

void RaceDetector::pair_with(const Memory& memory, std::uint32_t head, MemoryId id, Address address,
                             const Access& access) {
  for (std::uint32_t r = head; r != 0; r = memory.log[r - 1].next) {
    const Access& earlier = memory.log[r - 1].access;
    if (earlier.warp == access.warp) continue;
    ++count_;
    if (races_.size() < listed_) races_.push_back({id, address, earlier, access});
  }
}

}  // namespace mmsim
