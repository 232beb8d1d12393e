#include "hw/pe/warp_unit.hpp"

#include <algorithm>

#include "hw/pe/barrier_unit.hpp"
#include "hw/support/errors.hpp"

namespace mmsim {

WarpUnit::WarpUnit(const sc_core::sc_module_name& name, UnitId id, std::vector<Warp> warps,
                   Memories memories)
    : sc_core::sc_module(name),
      one_warp_(warps.size() == 1),
      lanes_(static_cast<unsigned>(warps.size() * warps.front().width())),
      warps_(std::move(warps)),
      id_(id),
      memories_(memories),
      phase_(one_warp_ ? 0 : warps_.size(), Phase::run),
      times_(one_warp_ ? 0 : warps_.size()),
      cells_(lanes_, kInactive),
      trace_pc_(warps_.size(), 0) {
  if (warps_.size() > 1) gathered_.assign(cells_.size(), kInactive);
}

[[gnu::always_inline]] inline WarpUnit::Phase WarpUnit::run(std::size_t j, Cycle t,
                                                            BarrierUnit& barrier) {
  Warp& warp = warps_[j];
  const Warp::Instruction& next = warp.advance();
  switch (next.kind) {
    case Warp::Instruction::Kind::memory:
      return Phase::memory;
    case Warp::Instruction::Kind::sync:
      time(j).arrived = t;
      barrier.arrive(warp.index(), next.scope, t);
      return Phase::barrier;
    case Warp::Instruction::Kind::done:
      time(j).finish = t;
      barrier.leave(warp.index(), t);
      return Phase::done;
    case Warp::Instruction::Kind::none:
      break;
  }
  throw SimulationError("the program of warp " + std::to_string(warp.index()) +
                        " stopped without an instruction (it awaited something that is not a "
                        "warp instruction)");
}

UnitState WarpUnit::resume(Cycle t, BarrierUnit& barrier) {
  if (one_warp_) {  // one warp (most machines): its phase is the unit's state
    Phase& phase = first_phase_;
    if (phase == Phase::in_flight || phase == Phase::run) phase = run(0, t, barrier);
    if (phase == Phase::memory) {
      Warp& warp = warps_.front();
      const Warp::Instruction& in = warp.instruction();
      target_ = memory_of(in.space, warp);
      pending_ = {
          .addresses = in.run ? nullptr : in.addresses.data(),
          .values = in.values.data(),
          .registers = warp.registers().data(),
          .run_first = in.run && in.run_first < kInactive - (lanes_ - 1) ? in.run_first : kInactive,
          .access = in.access};
      ready_since_ = t;
      return state_ = UnitState::ready;
    }
    return state_ = phase == Phase::barrier ? UnitState::barrier : UnitState::done;
  }
  bool memory = false;
  bool waiting_at_barrier = false;
  for (std::size_t j = 0; j < warps_.size(); ++j) {
    Phase& phase = phase_[j];  // a super warp's
    if (phase == Phase::in_flight || phase == Phase::run) phase = run(j, t, barrier);
    if (phase == Phase::memory) {
      const MemoryId m = memory_of(warps_[j].instruction().space, warps_[j]);
      if (memory && m != target_)
        throw SimulationError("the warps of super warp " + std::to_string(id_) +
                              " send one dispatch to two memories (" + std::to_string(target_) +
                              " and " + std::to_string(m) + ")");
      target_ = m;
      memory = true;
    }
    waiting_at_barrier |= phase == Phase::barrier;
  }
  state_ = memory ? UnitState::ready : waiting_at_barrier ? UnitState::barrier : UnitState::done;
  if (memory) ready_since_ = t;
  return state_;
}

void WarpUnit::no_shared_memory(const Warp& warp) const {
  throw SimulationError("warp " + std::to_string(warp.index()) + " (instruction " +
                        std::to_string(warp.pc()) +
                        ") addressed shared memory; this machine has global memory only "
                        "(model hmm has a shared memory per streaming multiprocessor)");
}

void WarpUnit::release_barrier(std::size_t j, Cycle release) {
  phase(j) = Phase::run;
  WarpTime& time = this->time(j);
  time.barrier += release - time.arrived;
  state_ = UnitState::idle;
}

std::span<const Address> WarpUnit::write_out_addresses() {
  if (one_warp_) {
    const std::span<const Address> run = warps_.front().addresses();
    pending_.addresses = run.data();
    return run;
  }
  const unsigned width = warps_.front().width();
  for (std::size_t j = 0; j < warps_.size(); ++j) {
    const auto out = std::span<Address>(gathered_).subspan(j * width, width);
    if (phase_[j] == Phase::memory) {  // a super warp's
      const auto in = warps_[j].addresses();
      std::copy(in.begin(), in.end(), out.begin());
    } else {
      std::fill(out.begin(), out.end(), kInactive);
    }
  }
  return gathered_;
}

unsigned WarpUnit::dispatched_warps(Cycle waited, Cycle memory_time) {
  unsigned warps = 0;
  for (std::size_t j = 0; j < phase_.size(); ++j)
    if (phase_[j] == Phase::memory) {
      phase_[j] = Phase::in_flight;
      times_[j].count_dispatch(waited, memory_time);
      ++warps;
    }
  return warps;
}

void WarpUnit::trace(Tracer& tracer) {
  const std::string base = name();
  traced_ = tracer.trace(trace_state_, base + ".state", 3);
  if (memories_.shared != kNoMemory) traced_ |= tracer.trace(trace_space_, base + ".space", 1);
  for (std::size_t j = 0; j < warps_.size(); ++j) {
    const std::string pc = warps_.size() == 1 ? ".pc" : ".pc_" + std::to_string(j);
    traced_ |= tracer.trace(trace_pc_[j], base + pc);
  }
}

void WarpUnit::update_trace() {
  if (!traced_) return;
  trace_state_ = static_cast<unsigned>(state_);
  const MemoryId memory = state_ == UnitState::ready ? target_ : last_target_;
  trace_space_ = memory != kNoMemory && memory == memories_.shared;
  for (std::size_t j = 0; j < warps_.size(); ++j) trace_pc_[j] = warps_[j].pc();
}

}  // namespace mmsim
