// A dispatch unit of the PE array: one warp (DMM, UMM, BPRAM) or a super warp of s warps
// (SDMM, RSDMM; all p/w warps on the PRAM). It runs its warps' programs and hands their memory
// instructions to the dispatcher as one dispatch of s*w lanes, to the memory they name: the
// machine's global memory, or the shared memory of the unit's streaming multiprocessor.
#pragma once

#include <systemc>
#include <vector>

#include "hw/pe/unit_state.hpp"
#include "hw/pe/warp.hpp"
#include "hw/support/tracer.hpp"
#include "hw/support/types.hpp"

namespace mmsim {

class BarrierUnit;

// How a dispatch's lanes reach their cells, as the MMU that accepted it found them.
enum class LaneLayout : std::uint8_t {
  some_inactive,  // some lane (or warp) sends nothing
  all_active,     // every lane sends a request
  consecutive,    // one warp, every lane, to cells c, c + 1, ... in lane order (coalesced)
};

// Where a warp's time went (statistics). From 0 to `finish` every time unit of the warp is one
// of: waiting for its turn, its request in a memory, the compute latency after a request, or
// waiting at a barrier: finish = turn + memory + dispatches * compute_latency + barrier.
struct WarpTime {
  // First, side by side: what every dispatch adds to.
  Cycle turn = 0;    // ready with a memory instruction, until dispatched
  Cycle memory = 0;  // from dispatched to its request's completion, inclusive (k + l - 1)
  std::uint64_t dispatches = 0;  // memory instructions dispatched
  Cycle barrier = 0;             // from its arrival at a barrier to the release
  Cycle finish = 0;              // when its program ended
  Cycle arrived = 0;             // at the barrier it waits at

  void count_dispatch(Cycle waited, Cycle memory_time) {
    turn += waited;
    memory += memory_time;
    ++dispatches;
  }
};

class WarpUnit : public sc_core::sc_module {
 public:
  // The memories the unit reaches: MemoryId of each Space, kNoMemory where there is none.
  struct Memories {
    MemoryId global = 0;
    MemoryId shared = kNoMemory;
  };

  WarpUnit(const sc_core::sc_module_name& name, UnitId id, std::vector<Warp> warps,
           Memories memories);

  UnitId id() const { return id_; }
  // Its block (streaming multiprocessor): all its warps run there.
  unsigned block() const { return warps_.front().block(); }
  std::span<Warp> warps() { return warps_; }
  std::span<const Warp> warps() const { return warps_; }
  unsigned lanes() const { return lanes_; }
  UnitState state() const { return state_; }
  void set_state(UnitState state) { state_ = state; }
  // The memory its pending instruction goes to (when ready).
  MemoryId target() const { return target_; }
  // The memory its last dispatch went to (kNoMemory before the first).
  MemoryId last_target() const { return last_target_; }

  // Runs every warp that may go on (its request completed, the barrier opened, or it has not
  // started) up to its next instruction at time t, and returns the unit's new state. Warps that
  // reach a barrier or their end are reported to the barrier unit.
  UnitState resume(Cycle t, BarrierUnit& barrier);
  // The warp in slot j (0 <= j < s), let through the barrier it waits at, runs again at the
  // unit's next resume, at `release`. The unit's other warps may wait on at another barrier (a
  // grid_sync while the block's barrier opens).
  void release_barrier(std::size_t j, Cycle release);

  // ---- the dispatch, as the MMU sees it --------------------------------------------------
  // The pending memory instruction of a one-warp unit, copied from the warp when it issues it
  // (its instruction and registers are in the caches then). The MMU's dispatch and completion
  // read the unit alone: the warp and the instruction in its program's frame have left the
  // caches by then on a machine of many warps.
  struct PendingAccess {
    const Address* addresses = nullptr;  // per lane (kInactive: none); a run's once written out
    const Word* values = nullptr;        // a write's, per lane
    Word* registers = nullptr;           // the warp's: a read's values land there
    // A run (LaneRun) whose lanes all lie below kInactive: its first address; else kInactive
    // (and always for a super warp).
    Address run_first = kInactive;
    AccessKind access = AccessKind::read;
  };
  bool one_warp() const { return one_warp_; }
  // One warp's pending memory instruction (one_warp()).
  const PendingAccess& pending() const { return pending_; }
  // Lane addresses of the dispatch (s*w of them, kInactive where a lane or warp sends nothing).
  std::span<const Address> dispatch_addresses() {
    if (pending_.addresses != nullptr) return {pending_.addresses, lanes_};
    return write_out_addresses();
  }
  // The first address of the dispatch when it is one warp's run whose lanes all lie below
  // kInactive (no lane wraps around or reads as inactive); kInactive otherwise.
  Address dispatch_run() const { return pending_.run_first; }
  // The cell index of each lane's address (see AddressMap), set by the MMU that accepts the
  // dispatch: the addresses themselves, or `cell_buffer()` filled by its address map.
  std::span<Address> cell_buffer() { return cells_; }
  void set_dispatch_cells(std::span<const Address> cells, LaneLayout layout) {
    dispatch_cells_ = cells;
    layout_ = layout;
    run_dispatch_ = false;
  }
  // The MMU took the dispatch, a run, whole: with an identity map its cells are its addresses,
  // dispatch_run(), dispatch_run() + 1, ... (written out only if asked for).
  void set_dispatch_run() {
    layout_ = LaneLayout::consecutive;
    run_dispatch_ = true;
  }
  std::span<const Address> dispatch_cells() const {
    return run_dispatch_ ? warps_.front().addresses() : dispatch_cells_;
  }
  // The cell of lane 0 (with LaneLayout::consecutive, lane i's is this + i).
  Address first_dispatch_cell() const {
    return run_dispatch_ ? pending_.run_first : dispatch_cells_.front();
  }
  LaneLayout lane_layout() const { return layout_; }
  // The MMU accepted the dispatch at time t; the request takes `memory_time` time units. Returns
  // the warps that take part.
  unsigned dispatched(Cycle t, Cycle memory_time) {
    state_ = UnitState::waiting;
    last_target_ = target_;
    if (one_warp_) {  // a single warp: it is the dispatch
      first_phase_ = Phase::in_flight;
      first_time_.count_dispatch(t - ready_since_, memory_time);
      return 1;
    }
    return dispatched_warps(t - ready_since_, memory_time);
  }
  // When the unit became ready for the dispatcher (its state is ready).
  Cycle ready_since() const { return ready_since_; }
  // Per warp (slot j), where its time went.
  std::span<const WarpTime> times() const {
    return one_warp_ ? std::span<const WarpTime>(&first_time_, 1) : times_;
  }
  // Whether the warp in slot j (0 <= j < s) takes part in the dispatch in flight.
  bool in_flight(std::size_t j) const { return phase(j) == Phase::in_flight; }

  void trace(Tracer& tracer);
  void update_trace();

 private:
  enum class Phase : std::uint8_t { run, memory, in_flight, barrier, done };

  // Runs the warp in slot j (its request completed, the barrier opened, or it has not started)
  // up to its next instruction; returns its new phase.
  Phase run(std::size_t j, Cycle t, BarrierUnit& barrier);
  // The phase and time of the warp in slot j.
  Phase& phase(std::size_t j) { return one_warp_ ? first_phase_ : phase_[j]; }
  Phase phase(std::size_t j) const { return one_warp_ ? first_phase_ : phase_[j]; }
  WarpTime& time(std::size_t j) { return one_warp_ ? first_time_ : times_[j]; }
  MemoryId memory_of(Space space, const Warp& warp) const {
    const MemoryId m = space == Space::shared ? memories_.shared : memories_.global;
    if (m == kNoMemory) [[unlikely]]
      no_shared_memory(warp);
    return m;
  }
  [[noreturn, gnu::cold]] void no_shared_memory(const Warp& warp) const;
  // dispatch_addresses() of a one-warp run (written out, and kept in pending_) or of a super
  // warp (its warps' lanes side by side).
  std::span<const Address> write_out_addresses();
  // dispatched() for a super warp: the warps with a memory instruction take part.
  unsigned dispatched_warps(Cycle waited, Cycle memory_time);

  // First, in two cache lines of their own: what the dispatcher and the MMU read and write at
  // every dispatch, completion and resume of a one-warp unit (its warp's phase and time
  // included). A machine of many units touches a unit once in many dispatches, and its lines
  // have left the first-level cache by then: each line more is a wait.
  alignas(64) UnitState state_ = UnitState::idle;
  LaneLayout layout_ = LaneLayout::some_inactive;
  bool run_dispatch_ = false;  // the dispatch is a run taken whole (set_dispatch_run)
  bool one_warp_;
  Phase first_phase_ = Phase::run;  // a one-warp unit's (else phase_)
  MemoryId target_ = 0;
  MemoryId last_target_ = kNoMemory;
  Cycle ready_since_ = 0;
  PendingAccess pending_;
  // The second line.
  unsigned lanes_;
  std::vector<Warp> warps_;
  WarpTime first_time_;  // a one-warp unit's (else times_)
  std::span<const Address> dispatch_cells_;
  UnitId id_;
  Memories memories_;
  std::vector<Phase> phase_;     // per warp of a super warp (empty for one warp)
  std::vector<WarpTime> times_;  // per warp of a super warp (empty for one warp)
  std::vector<Address> gathered_;
  std::vector<Address> cells_;
  // traced copies
  unsigned trace_state_ = 0;
  unsigned trace_space_ = 0;  // machines with shared memory: 1 while ready for or waiting on it
  std::vector<std::uint64_t> trace_pc_;
  bool traced_ = false;  // any of its signals
};

}  // namespace mmsim
