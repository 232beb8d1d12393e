// The race detector (machine.race_check): finds every pair of accesses to one address by two
// different warps, at least one of them a write, that no barrier separates.
//
// A warp's accesses between two of its barriers form an epoch. Barriers of a block open only
// when every unfinished warp of the block has reached one, so two accesses by warps of one
// block are separated exactly when their block epochs (barriers of either scope passed)
// differ; accesses by warps of different blocks (streaming multiprocessors of the hierarchical
// machine) only when their grid epochs (grid_syncs passed) differ. A warp that has finished
// counts as being at every later barrier.
//
// Within one memory accesses are seen in completion order, and the epoch of the widest scope
// that reaches the memory never goes back: a memory that one block reaches (a flat machine's
// memory, a shared memory) keeps only the current block epoch's accesses, the global memory of
// a machine of several blocks the current grid epoch's; per address one list of reads and one
// of writes.
#pragma once

#include <cstdint>
#include <vector>

#include "hw/mmu/mmu.hpp"

namespace mmsim {

class RaceDetector final : public AccessObserver {
 public:
  struct Access {
    WarpId warp;
    AccessKind kind;
    std::uint64_t pc;  // the warp's instruction number
    Cycle cycle;       // when it took effect
  };
  struct Race {
    MemoryId memory;
    Address address;
    Access first;  // took effect first
    Access second;
  };
  struct MemoryScope {
    std::uint64_t words;
    bool one_block;  // reached by the warps of one block only
  };

  // One scope per memory. Keeps the first `listed` races; counts them all.
  RaceDetector(const std::vector<MemoryScope>& memories, std::size_t listed);

  void access(const MemoryAccess& access) override;

  std::uint64_t count() const { return count_; }
  const std::vector<Race>& races() const { return races_; }

 private:
  struct Record {
    Access access;
    unsigned block;
    std::uint64_t epoch;
    std::uint32_t next;  // the address's previous record of the same kind, + 1 (0: none)
  };
  struct Cell {
    std::uint32_t generation = 0;  // its lists belong to the current epoch when equal
    std::uint32_t reads = 0;       // the newest read record + 1 (0: none)
    std::uint32_t writes = 0;
  };
  struct Memory {
    std::vector<Cell> cells;
    std::vector<Record> log;  // the current epoch's accesses
    bool one_block = true;
    std::uint64_t epoch = 0;  // of the scope that reaches it
    std::uint32_t generation = 1;
  };

  // Reports the pairs the new access forms with the list starting at `head`.
  void pair_with(const Memory& memory, std::uint32_t head, const MemoryAccess& access);

  std::vector<Memory> memories_;
  std::size_t listed_;
  std::uint64_t count_ = 0;
  std::vector<Race> races_;
};

}  // namespace mmsim
