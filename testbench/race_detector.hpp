// The race detector (machine.race_check): finds every pair of accesses to one address by two
// different warps, at least one of them a write, that no barrier separates.
//
// A warp's accesses between its k-th and (k+1)-th syncthreads form its epoch k. The barrier
// opens only when every unfinished warp has reached it, so an access of epoch k takes effect
// before any access of epoch k + 1 is sent: two accesses are separated by a barrier exactly when
// their epochs differ (a warp that has finished counts as being at every later barrier). Within
// one memory, accesses are seen in completion order, so epochs never go back: the detector keeps
// only the current epoch's accesses, per address one list of reads and one of writes.
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

  // `memory_words`: the size of each memory. Keeps the first `listed` races; counts them all.
  RaceDetector(const std::vector<std::uint64_t>& memory_words, std::size_t listed);

  void access(MemoryId memory, Address address, AccessKind kind, WarpId warp, std::uint64_t pc,
              std::uint64_t epoch, Cycle completion) override;

  std::uint64_t count() const { return count_; }
  const std::vector<Race>& races() const { return races_; }

 private:
  struct Record {
    Access access;
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
    std::uint64_t epoch = 0;
    std::uint32_t generation = 1;
  };

  // Reports the pairs the new access forms with the list starting at `head`.
  void pair_with(const Memory& memory, std::uint32_t head, MemoryId id, Address address,
                 const Access& access);

  std::vector<Memory> memories_;
  std::size_t listed_;
  std::uint64_t count_ = 0;
  std::vector<Race> races_;
};

}  // namespace mmsim
