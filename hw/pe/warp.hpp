// What a warp program sees of its warp: w lanes with one data register each, optional local
// memory per lane (PE), its place in the machine (its block: the streaming multiprocessor it
// runs on), and the instructions read, write (to global or shared memory), sync (the block's
// barrier) and grid_sync (every warp's), to co_await. Each instruction records its site
// (hw/pe/site.hpp): the line of the co_await in a C++ program, or the Site a program that is
// not C++ code passes as the last argument.
#pragma once

#include <coroutine>
#include <cstdint>
#include <span>
#include <vector>

#include "hw/pe/lane_run.hpp"
#include "hw/pe/site.hpp"
#include "hw/pe/task.hpp"
#include "hw/support/types.hpp"

namespace mmsim {

class Warp {
 public:
  // The instruction a warp is stopped at, as the hardware sees it.
  struct Instruction {
    enum class Kind : std::uint8_t { none, memory, sync, done };
    Kind kind = Kind::none;
    AccessKind access = AccessKind::read;
    Space space = Space::global;               // memory instructions
    BarrierScope scope = BarrierScope::block;  // sync
    // A run (LaneRun): lane i addresses run_first + i, and `addresses` is empty (ask
    // Warp::addresses(), which writes them out on first use).
    bool run = false;
    Address run_first = 0;
    std::span<const Address> addresses = {};  // one per lane, kInactive = no request
    std::span<const Word> values = {};        // writes: one per lane
    SiteRef site = {};                        // where it was issued
  };

  // Where a warp sits in the machine.
  struct Placement {
    WarpId index = 0;     // W(index)
    WarpId count = 1;     // warps of the machine
    unsigned block = 0;   // its block: the streaming multiprocessor it runs on
    unsigned blocks = 1;  // blocks of the machine (flat machines: 1)
  };

  // The awaitables of the instructions act when awaited (in await_ready), not when made, so
  // that an instruction made but never awaited issues nothing; [[nodiscard]] makes a forgotten
  // co_await a compiler warning (tests/compile/).
  class [[nodiscard("an instruction issues only when co_awaited")]] MemoryAwaiter {
   public:
    MemoryAwaiter(Warp& warp, const Instruction& instruction)
        : warp_(warp), instruction_(instruction) {}
    // Issues the instruction; one with no active lane takes no time and is skipped.
    bool await_ready() { return !warp_.issue(instruction_); }
    void await_suspend(std::coroutine_handle<> h) noexcept { warp_.suspended_ = h; }
    std::span<const Word> await_resume() const noexcept { return warp_.registers_; }

   private:
    Warp& warp_;
    Instruction instruction_;
  };

  class [[nodiscard("a barrier is reached only when co_awaited")]] SyncAwaiter {
   public:
    SyncAwaiter(Warp& warp, BarrierScope scope, SiteRef site)
        : warp_(warp), scope_(scope), site_(site) {}
    bool await_ready() {
      warp_.arrive(scope_, site_);
      return false;
    }
    void await_suspend(std::coroutine_handle<> h) noexcept { warp_.suspended_ = h; }
    void await_resume() const noexcept {}

   private:
    Warp& warp_;
    BarrierScope scope_;
    SiteRef site_;
  };

  Warp(const Placement& placement, unsigned width, std::uint64_t local_words);
  Warp(const Warp&) = delete;
  Warp& operator=(const Warp&) = delete;
  Warp(Warp&&) = default;
  Warp& operator=(Warp&&) = default;

  WarpId index() const { return index_; }
  unsigned width() const { return width_; }
  WarpId count() const { return count_; }
  // Global thread number T(i) of a lane.
  std::uint64_t thread(unsigned lane) const { return std::uint64_t{index_} * width_ + lane; }
  std::uint64_t threads() const { return std::uint64_t{count_} * width_; }

  // The block (streaming multiprocessor) it runs on, of blocks(); its warps are numbered
  // warp_in_block() = 0 .. block_warps() - 1, its threads block_thread(lane) = 0 .. p/d - 1.
  unsigned block() const { return block_; }
  unsigned blocks() const { return blocks_; }
  WarpId block_warps() const { return count_ / blocks_; }
  WarpId warp_in_block() const { return index_ % block_warps(); }
  std::uint64_t block_thread(unsigned lane) const {
    return std::uint64_t{warp_in_block()} * width_ + lane;
  }
  std::uint64_t block_threads() const { return std::uint64_t{block_warps()} * width_; }

  // One data register per lane: reads land here; initially the lane's thread number.
  std::span<Word> registers() { return registers_; }
  std::span<const Word> registers() const { return registers_; }
  // The local memory of the PE running `lane` (size fixed by machine.local_memory).
  std::span<Word> local(unsigned lane) {
    return std::span<Word>(local_).subspan(std::size_t{lane} * local_words_, local_words_);
  }
  std::uint64_t local_words() const { return local_words_; }

  // Instructions. A memory instruction with no active lane takes no time and is skipped. The
  // last argument is the instruction's site: left out, the caller's line; a program that is
  // not C++ code passes a Site it owns (which must outlive the run).
  // (Defined here: every program calls them once per instruction.)
  MemoryAwaiter read(std::span<const Address> addresses, Space space = Space::global,
                     SiteRef site = CodeLocation::current()) {
    return memory(AccessKind::read, addresses, {}, space, site);
  }
  MemoryAwaiter read(LaneRun run, Space space = Space::global,
                     SiteRef site = CodeLocation::current()) {
    return MemoryAwaiter(*this, run_instruction(AccessKind::read, run, {}, space, site));
  }
  MemoryAwaiter write(std::span<const Address> addresses, std::span<const Word> values,
                      Space space = Space::global, SiteRef site = CodeLocation::current()) {
    if (values.size() != width_) [[unlikely]]
      wrong_values(values.size());
    return memory(AccessKind::write, addresses, values, space, site);
  }
  MemoryAwaiter write(LaneRun run, std::span<const Word> values, Space space = Space::global,
                      SiteRef site = CodeLocation::current()) {
    if (values.size() != width_) [[unlikely]]
      wrong_values(values.size());
    return MemoryAwaiter(*this, run_instruction(AccessKind::write, run, values, space, site));
  }
  // Stores each lane's register.
  MemoryAwaiter write(std::span<const Address> addresses, Space space = Space::global,
                      SiteRef site = CodeLocation::current()) {
    return write(addresses, registers_, space, site);
  }
  MemoryAwaiter write(LaneRun run, Space space = Space::global,
                      SiteRef site = CodeLocation::current()) {
    return write(run, registers_, space, site);
  }
  // syncthreads: waits until every unfinished warp of the block is at a barrier.
  SyncAwaiter sync(SiteRef site = CodeLocation::current()) {
    return SyncAwaiter(*this, BarrierScope::block, site);
  }
  // Waits until every unfinished warp of the machine is here (a kernel boundary).
  SyncAwaiter grid_sync(SiteRef site = CodeLocation::current()) {
    return SyncAwaiter(*this, BarrierScope::grid, site);
  }

  // ---- hardware side -------------------------------------------------------------------
  void start(Task program);
  // Runs the program up to its next instruction (or its end) and returns that instruction.
  const Instruction& advance();
  const Instruction& instruction() const { return issued_ != nullptr ? *issued_ : own_; }
  // The lane addresses of the pending memory instruction, one per lane: a run's are written
  // out here when first asked for (the MMU's coalesced path never asks).
  std::span<const Address> addresses() const {
    const Instruction& pending = instruction();
    return pending.run ? run_addresses() : pending.addresses;
  }
  // Instructions issued so far (memory and sync): the program counter shown in traces.
  std::uint64_t pc() const { return pc_; }
  // Barriers passed, of either scope: accesses between two of them form one block epoch.
  std::uint64_t barriers() const { return barriers_; }
  // grid_syncs passed: accesses between two of them form one grid epoch.
  std::uint64_t grid_barriers() const { return grid_barriers_; }

 private:
  // The instruction an awaiter issues: false when no lane is active (nothing issued).
  bool issue(const Instruction& instruction) {
    if (instruction.run) {  // every lane active
      issued_ = &instruction;
      ++pc_;
      return true;
    }
    for (const Address a : instruction.addresses)
      if (a != kInactive) {
        issued_ = &instruction;
        ++pc_;
        return true;
      }
    return false;
  }
  void arrive(BarrierScope scope, SiteRef site);
  MemoryAwaiter memory(AccessKind access, std::span<const Address> addresses,
                       std::span<const Word> values, Space space, SiteRef site) {
    if (addresses.size() != width_) [[unlikely]]
      wrong_addresses(addresses.size());
    return MemoryAwaiter(*this, Instruction{.kind = Instruction::Kind::memory,
                                            .access = access,
                                            .space = space,
                                            .addresses = addresses,
                                            .values = values,
                                            .site = site});
  }
  static Instruction run_instruction(AccessKind access, LaneRun run, std::span<const Word> values,
                                     Space space, SiteRef site) {
    return Instruction{.kind = Instruction::Kind::memory,
                       .access = access,
                       .space = space,
                       .run = true,
                       .run_first = run.first,
                       .values = values,
                       .site = site};
  }
  // addresses() of a run.
  std::span<const Address> run_addresses() const;
  // A memory instruction with another count of addresses or values than lanes.
  [[noreturn, gnu::cold]] void wrong_addresses(std::size_t count) const;
  [[noreturn, gnu::cold]] void wrong_values(std::size_t count) const;

  // First, in one cache line: what each instruction reads and writes (its issue, the warp's
  // advance, the unit's resume). A machine of many warps touches a warp once in many
  // dispatches, and its lines have left the first-level cache by then.
  alignas(64) std::coroutine_handle<> suspended_;
  // The instruction it is stopped at: a memory instruction is its awaiter's (which lives in the
  // coroutine's frame until the warp runs on: no copy); none, kNone; a sync or the end, nullptr
  // (its own, own_).
  const Instruction* issued_ = nullptr;
  Task program_;
  std::uint64_t pc_ = 0;
  std::vector<Word> registers_;
  unsigned width_;
  WarpId index_;
  // The rest.
  Instruction own_;
  WarpId count_;
  unsigned block_;
  unsigned blocks_;
  std::uint64_t local_words_;
  std::vector<Word> local_;
  mutable std::vector<Address> run_addresses_;  // a run's lane addresses, once asked for
  mutable std::uint64_t run_written_pc_ = 0;    // the instruction (pc_) they were written for
  std::uint64_t barriers_ = 0;
  std::uint64_t grid_barriers_ = 0;
  static const Instruction kNone;
};

}  // namespace mmsim
