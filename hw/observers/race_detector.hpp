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
// of writes, newest first.
//
// A record holds what the walk needs (its warp and three links: 16 bytes); the instruction
// number and cycle that a race's report names are kept once per instruction, found from the
// record's number when a race is listed. The lanes of an instruction that open the lists of
// their cells (each cell's first access in the epoch) share one record: lists only ever link to
// older records, so that they may share their oldest; a run of them is recorded at once.
//
// Each access costs a constant plus the races it forms, however long the lists: a record also
// points past the records that cannot race with a later access for the same reason it cannot,
// the run of records of its own warp (a warp adding into one cell over and over), and the
// records of its own block (they cannot race with an access of a later block epoch of that
// block: a block's records come in the order of its epochs, since a barrier opens only when
// every request before it has completed). For the same reason a record need not hold its block
// epoch: the records of a block's current epoch are those appended since it began.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "hw/mmu/mmu.hpp"
#include "hw/support/huge_pages.hpp"

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

  // The accesses of one warp instruction (AccessObserver): all its lanes in one call, or in
  // consecutive calls (one address each).
  void access(const MemoryAccess& access, std::span<const Address> addresses) override;
  // One access, at access.address.
  void access(const MemoryAccess& access) { this->access(access, {&access.address, 1}); }

  std::uint64_t count() const { return count_; }
  const std::vector<Race>& races() const { return races_; }

 private:
  // One access (16 bytes; its kind is its list's, its block its warp's, its instruction
  // number and cycle its Issued's).
  struct Record {
    WarpId warp;
    // Earlier records of the same address and kind (their numbers; 0: none): the previous one,
    // the newest by another warp, the newest of another block.
    std::uint32_t next;
    std::uint32_t other_warp;
    std::uint32_t other_block;
  };
  static_assert(sizeof(Record) == 16);
  // The instruction number and cycle of the records numbered from `first` on (to the next
  // Issued's first): one per instruction, or per lane of an instruction whose lanes complete
  // apart.
  struct Issued {
    std::uint32_t first;
    std::uint64_t pc;
    Cycle cycle;
  };
  struct Cell {
    std::uint32_t generation = 0;  // its lists belong to the current epoch when equal
    std::uint32_t reads = 0;       // the newest read record's number (0: none)
    std::uint32_t writes = 0;
  };
  // The current epoch's records, numbered from 1 (0: none; slot 0 stays unused) and appended in
  // place, in chunks of 2^17 (2 MiB: a huge page each) that a table finds by the number's high
  // bits: no bit_width (bsr and a zero test in a portable build) before a record's load. The
  // first chunk starts small and is copied into one twice its size until it is a whole chunk
  // (most memories of a large machine see few accesses); chunks stay from epoch to epoch.
  class Log {
   public:
    // The number the next record gets.
    std::uint32_t next() const { return next_; }
    const Record& operator[](std::uint32_t r) const {
      return chunks_[r >> kChunkBits][r & (kChunkRecords - 1)];
    }
    void clear() {
      next_ = 1;
      room_ = 0;
    }
    // Appends the record and returns its number.
    std::uint32_t push_back(const Record& record) {
      if (room_ == 0) next_chunk();
      *cursor_++ = record;
      --room_;
      return next_++;
    }

   private:
    static constexpr unsigned kChunkBits = 17;
    static constexpr std::uint32_t kChunkRecords = std::uint32_t{1} << kChunkBits;
    static constexpr std::uint32_t kFirst = 1024;  // the first chunk's first size
    // Points the cursor at the chunk slot of record next_, allocating or growing its chunk.
    void next_chunk();

    std::vector<HugePageArray<Record>> chunks_;
    std::uint32_t next_ = 1;
    Record* cursor_ = nullptr;  // where record next_ goes
    std::size_t room_ = 0;      // records left in its chunk from there
  };
  // Where a block's current epoch began in a memory's log (memories of several blocks).
  struct BlockEpoch {
    std::uint32_t generation = 0;  // of the memory's log it refers to
    std::uint32_t start = 0;       // its first record's number
    std::uint64_t epoch = 0;
  };
  struct Memory {
    HugePageArray<Cell> cells;
    Log log;
    std::vector<Issued> issued;  // the log's, in the order of their first records
    bool one_block = true;
    std::uint64_t epoch = 0;  // of the scope that reaches it
    std::uint32_t generation = 1;
    std::vector<BlockEpoch> blocks;
  };

  // The instruction whose lanes are being recorded: its records are those numbered from
  // `first` on in its memory's log, so that a lane of it at an address another lane has
  // recorded is known from the list's head alone (most lanes of a search share addresses).
  struct Instruction {
    MemoryId memory = 0;
    WarpId warp = 0;
    std::uint64_t pc = 0;
    std::uint32_t generation = 0;  // of the memory's log (0: none yet)
    std::uint32_t first = 0;
  };

  // Records the lanes of an instruction one by one (record), those at the address of the lane
  // before them once.
  void record_lanes(Memory& memory, const MemoryAccess& a, std::span<const Address> addresses,
                    std::uint32_t start);
  // Records the lanes of a run at `first`, first + 1, ... when none of their cells has been
  // accessed in the epoch (a block copied in or out, the usual case): their records would be
  // alike (the warp, no earlier record), so that one record serves them all, the head of each
  // cell's list. False (nothing recorded) when a cell has been.
  bool record_fresh_run(Memory& memory, const MemoryAccess& a, Address first, std::size_t lanes);
  // Records one access of the instruction `a` (at `address`), reporting its races; the
  // records of its block numbered below `start` are of earlier block epochs, those numbered
  // from `first` on are its own.
  void record(Memory& memory, const MemoryAccess& a, Address address, std::uint32_t start,
              std::uint32_t first);
  // Reports the pairs the access forms with the list of `kind` starting at `head`.
  void pair_with(const Memory& memory, std::uint32_t head, AccessKind kind, std::uint32_t start,
                 const MemoryAccess& a, Address address);
  [[gnu::cold]] void report(const Memory& memory, std::uint32_t earlier, AccessKind kind,
                            const MemoryAccess& a, Address address);

  std::vector<Memory> memories_;
  Instruction instruction_;
  // The record that the lanes of the current call share where they open their cells' lists
  // (0: none yet).
  std::uint32_t opening_ = 0;
  std::vector<unsigned> block_of_;  // per warp seen
  std::size_t listed_;
  std::uint64_t count_ = 0;
  std::vector<Race> races_;
};

}  // namespace mmsim
