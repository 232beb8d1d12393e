#include "hw/observers/race_detector.hpp"

#include <algorithm>
#include <bit>
#include <iterator>

#include "hw/support/consecutive_lanes.hpp"
#include "hw/support/vector_isa.hpp"

namespace mmsim {

RaceDetector::RaceDetector(const std::vector<MemoryScope>& memories, std::size_t listed)
    : memories_(memories.size()), listed_(listed) {
  for (std::size_t m = 0; m < memories.size(); ++m) {
    memories_[m].cells = HugePageArray<Cell>(memories[m].words);
    memories_[m].one_block = memories[m].one_block;
  }
}

void RaceDetector::Log::next_chunk() {
  const std::size_t chunk = next_ >> kChunkBits;
  const std::uint32_t at = next_ & (kChunkRecords - 1);
  if (chunks_.empty()) {
    chunks_.emplace_back(kFirst);
  } else if (chunk == 0 && at == chunks_[0].size()) {  // full, below the chunk size: double it
    HugePageArray<Record> larger(2 * chunks_[0].size());
    std::copy_n(chunks_[0].data(), at, larger.data());
    chunks_[0] = std::move(larger);
  } else if (chunk == chunks_.size()) {
    chunks_.emplace_back(kChunkRecords);
  }
  cursor_ = chunks_[chunk].data() + at;
  room_ = chunks_[chunk].size() - at;
}

namespace {
// The lanes of at most 64 whose address is not the lane before's, and not inactive, as a mask
// (bit i: lane i). One loop that vectorises where it is inlined (inside with_vector_isa).
std::uint64_t new_address_mask(std::span<const Address> lanes) {
  std::uint64_t same_as_next = 0;  // bit i: lane i + 1 addresses what lane i does
  for (std::size_t i = 0; i + 1 < lanes.size(); ++i)
    same_as_next |= std::uint64_t{lanes[i] == lanes[i + 1]} << i;
  return active_lane_mask(lanes) & ~(same_as_next << 1);
}
}  // namespace

void RaceDetector::access(const MemoryAccess& a, std::span<const Address> addresses) {
  Memory& memory = memories_[a.memory];
  const std::uint64_t epoch = memory.one_block ? a.epoch : a.grid_epoch;
  if (epoch < memory.epoch) return;  // ordered before everything kept (never seen)
  if (epoch > memory.epoch) {
    memory.epoch = epoch;
    memory.log.clear();
    memory.issued.clear();
    ++memory.generation;
  }
  if (a.warp >= block_of_.size()) block_of_.resize(a.warp + 1);
  block_of_[a.warp] = a.block;
  std::uint32_t start = 0;  // of the block's epoch (one block: the whole log)
  if (!memory.one_block) {
    if (a.block >= memory.blocks.size()) memory.blocks.resize(a.block + 1);
    BlockEpoch& block = memory.blocks[a.block];
    if (block.generation != memory.generation || block.epoch != a.epoch)
      block = {memory.generation, memory.log.next(), a.epoch};
    start = block.start;
  }
  if (a.memory != instruction_.memory || a.warp != instruction_.warp || a.pc != instruction_.pc ||
      memory.generation != instruction_.generation)
    instruction_ = {a.memory, a.warp, a.pc, memory.generation, memory.log.next()};
  const std::uint32_t before = memory.log.next();
  opening_ = 0;
  const bool fresh_run = !addresses.empty() && consecutive_lanes(addresses) &&
                         record_fresh_run(memory, a, addresses.front(), addresses.size());
  if (!fresh_run) record_lanes(memory, a, addresses, start);
  if (memory.log.next() != before &&
      (memory.issued.empty() || memory.issued.back().pc != a.pc ||
       memory.issued.back().cycle != a.completion))
    memory.issued.push_back({before, a.pc, a.completion});
}

void RaceDetector::record_lanes(Memory& memory, const MemoryAccess& a,
                                std::span<const Address> addresses, std::uint32_t start) {
  // A lane at the address of the lane before adds nothing: the lanes to record as a mask,
  // without a branch per lane (in a search, runs of lanes at one address follow the data).
  if (addresses.size() <= 64) {
    for (std::uint64_t on = with_vector_isa([addresses] { return new_address_mask(addresses); });
         on != 0; on &= on - 1)
      record(memory, a, addresses[std::countr_zero(on)], start, instruction_.first);
    return;
  }
  Address last = kInactive;
  for (const Address address : addresses) {
    if (address != last && address != kInactive)
      record(memory, a, address, start, instruction_.first);
    last = address;
  }
}

bool RaceDetector::record_fresh_run(Memory& memory, const MemoryAccess& a, Address first,
                                    std::size_t lanes) {
  Cell* cells = &memory.cells[first];
  const std::uint32_t generation = memory.generation;
  for (std::size_t i = 0; i < lanes; ++i)
    if (cells[i].generation == generation) return false;
  const std::uint32_t r = memory.log.push_back(Record{a.warp, 0, 0, 0});
  const Cell cell = a.kind == AccessKind::read ? Cell{generation, r, 0} : Cell{generation, 0, r};
  std::fill_n(cells, lanes, cell);
  return true;
}

// Walks the list newest first as the definition does, jumping over what cannot race: a run of
// the access's own warp, and the records of its own block from an earlier block epoch (with
// every older record of that block). Each step lands on a race or right before one.
inline void RaceDetector::pair_with(const Memory& memory, std::uint32_t head, AccessKind kind,
                                    std::uint32_t start, const MemoryAccess& a, Address address) {
  for (std::uint32_t r = head; r != 0;) {
    const Record& earlier = memory.log[r];
    if (earlier.warp == a.warp) {
      r = earlier.other_warp;
      continue;
    }
    // Warps of one block are also ordered by the block's barriers.
    if (r < start && block_of_[earlier.warp] == a.block) {
      r = earlier.other_block;
      continue;
    }
    report(memory, r, kind, a, address);
    r = earlier.next;
  }
}

inline void RaceDetector::record(Memory& memory, const MemoryAccess& a, Address address,
                                 std::uint32_t start, std::uint32_t first) {
  Cell& cell = memory.cells[address];
  if (cell.generation != memory.generation) {
    // The lane opens its cell's lists: its record would be the warp alone, linked to nothing,
    // as would every such lane's of the call; they share one.
    if (opening_ == 0) opening_ = memory.log.push_back(Record{a.warp, 0, 0, 0});
    cell = a.kind == AccessKind::read ? Cell{memory.generation, opening_, 0}
                                      : Cell{memory.generation, 0, opening_};
    return;
  }
  std::uint32_t& head = a.kind == AccessKind::read ? cell.reads : cell.writes;
  if (head >= first) return;  // another lane of the same instruction recorded the address
  const Record* previous = head != 0 ? &memory.log[head] : nullptr;
  if (cell.writes != 0) pair_with(memory, cell.writes, AccessKind::write, start, a, address);
  if (a.kind == AccessKind::write && cell.reads != 0)
    pair_with(memory, cell.reads, AccessKind::read, start, a, address);
  Record entry{.warp = a.warp, .next = head, .other_warp = head, .other_block = head};
  if (previous) {
    if (previous->warp == a.warp) entry.other_warp = previous->other_warp;
    if (block_of_[previous->warp] == a.block) entry.other_block = previous->other_block;
  }
  head = memory.log.push_back(entry);
}

void RaceDetector::report(const Memory& memory, std::uint32_t earlier, AccessKind kind,
                          const MemoryAccess& a, Address address) {
  ++count_;
  if (races_.size() >= listed_) return;
  // The last Issued from before the record on: the one whose records hold it.
  const Issued& issued =
      *std::prev(std::upper_bound(memory.issued.begin(), memory.issued.end(), earlier,
                                  [](std::uint32_t r, const Issued& i) { return r < i.first; }));
  races_.push_back({a.memory,
                    address,
                    {memory.log[earlier].warp, kind, issued.pc, issued.cycle},
                    {a.warp, a.kind, a.pc, a.completion}});
}

}  // namespace mmsim
