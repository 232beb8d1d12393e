#include "hw/dispatch/dispatcher.hpp"

#include <algorithm>

#include "hw/support/errors.hpp"

namespace mmsim {

Dispatcher::Dispatcher(const sc_core::sc_module_name& name, std::vector<WarpUnit*> units,
                       unsigned warps_per_unit, BarrierUnit& barrier, Cycle longest_delay,
                       Options options)
    : sc_core::sc_module(name),
      units_(std::move(units)),
      warps_per_unit_(warps_per_unit),
      barrier_(barrier),
      options_(std::move(options)),
      present_(units_.size()),
      wakes_(longest_delay + 1, units_.size()),
      sampler_(options_.sample_interval),
      observed_(options_.tracing || !options_.recorders.empty()),
      stage_groups_needed_(std::any_of(
          options_.recorders.begin(), options_.recorders.end(),
          [](const InstructionRecorder* recorder) { return recorder->needs_stage_groups(); })) {
  for (UnitId u = 0; u < units_.size(); ++u) {
    present_.set(u);
    wakes_.push(0, u);
  }
  SC_METHOD(run);
}

void Dispatcher::add_port(Mmu& mmu, std::unique_ptr<DispatchPolicy> policy) {
  const bool tell_ready = policy->keeps_ready_set();
  const bool ask_again = policy->asked_every_time_unit();
  ports_.push_back(Port{
      .mmu = &mmu, .policy = std::move(policy), .tell_ready = tell_ready, .ask_again = ask_again});
  memories_.push_back(&mmu);
  pending_ports_ = DynamicBitset(ports_.size());
  chosen_ports_.resize(ports_.size());
}

void Dispatcher::run() {
  if (finished_) return;  // the flush step below
  const Cycle now = sc_core::sc_time_stamp().value();
  try {
    // Inside the traced window every step is a time step of its own; before it the steps stop
    // at the window's first cycle.
    const Cycle quantum = in_window(now) ? 0 : options_.quantum;
    Cycle horizon = quantum >= kNever - now ? kNever : now + quantum;
    const bool before_window = options_.tracing && now < options_.trace_from;
    if (before_window) horizon = std::min(horizon, options_.trace_from - 1);
    Cycle next = step(now);
    while (next != kNever && next <= horizon) next = step(next);
    if (next == kNever) {
      finish();
      // SystemC writes a time step's traced values once time moves on: one more step records
      // the last one (and makes SystemC write a waveform at all when the run ended at 0).
      if (options_.tracing) next_trigger(sc_core::sc_time::from_value(1));
      return;
    }
    if (before_window) next = std::min(next, options_.trace_from);
    next_trigger(sc_core::sc_time::from_value(next - now));
  } catch (...) {
    failure_ = std::current_exception();
    sc_core::sc_stop();
  }
}

Cycle Dispatcher::step(Cycle t) {
  if (options_.progress && (++steps_ & 0xFFFF) == 0) options_.progress(t);
  if (sampler_.next() <= t) sampler_.sample_until(t, memories_, barrier_);
  wakes_.advance(t);
  while (wakes_.due()) resume(wakes_.pop_due(), t);
  Cycle next = kNever;  // a port that frees up with units ready for it
  if (pending_ports_.count() == 1) {
    // One memory has units ready for it (a flat machine; a hierarchical one whose warps all
    // work in one memory): its choice is the time unit's only one, dispatched at once.
    const std::size_t p = pending_ports_.find_next(0);
    if (choose(ports_[p], t, next)) dispatch_chosen(p, t, next);
  } else {
    const Choices choices = choose_dispatches(t);
    next = choices.next;
    for (std::size_t i = 0; i < choices.ports; ++i)
      dispatch_chosen(static_cast<std::size_t>(chosen_ports_[i] - ports_.data()), t, next);
  }
  if (!wakes_.empty()) next = std::min(next, wakes_.next_time());
  if (in_window(t)) {
    update_traces(t);
    for (const Port& port : ports_)
      if (!port.mmu->idle()) next = std::min(next, t + 1);
  }
  return next;
}

Dispatcher::Choices Dispatcher::choose_dispatches(Cycle t) {
  // A policy's choice reads the units' states, which a dispatch changes: no unit is dispatched
  // until every memory has chosen.
  Cycle next = kNever;
  Port** const chosen = chosen_ports_.data();
  std::size_t count = 0;
  if (options_.visit_order == MemoryVisitOrder::ascending) {
    for (std::size_t p = pending_ports_.find_next(0); p != DynamicBitset::npos;
         p = pending_ports_.find_next(p + 1))
      if (choose(ports_[p], t, next)) chosen[count++] = &ports_[p];
  } else {
    for (std::size_t p = ports_.size(); p-- > 0;)
      if (pending_ports_.test(p) && choose(ports_[p], t, next)) chosen[count++] = &ports_[p];
    std::reverse(chosen, chosen + count);  // dispatched in memory order
  }
  return {next, count};
}

bool Dispatcher::choose(Port& port, Cycle t, Cycle& next) {
  if (port.free_at > t) {
    next = std::min(next, port.free_at);
    return false;
  }
  port.chosen = port.policy->choose(t);
  if (port.chosen == kNoUnit) {  // it idles: until an event (round robin's turn), or for t
    if (port.ask_again) next = std::min(next, t + 1);
    return false;
  }
  --port.ready;
  return true;
}

void Dispatcher::dispatch_chosen(std::size_t p, Cycle t, Cycle& next) {
  Port& port = ports_[p];
  dispatch(port, port.chosen, t);
  port.chosen = kNoUnit;
  if (port.ready == 0)
    pending_ports_.reset(p);
  else
    next = std::min(next, port.free_at);
}

void Dispatcher::resume(UnitId u, Cycle t) {
  WarpUnit& unit = *units_[u];
  // The unit's own request has taken effect, with everything its memory completed before it.
  // Each memory performs its accesses in completion order whenever it is asked to, so the other
  // memories can wait.
  if (t > 0 && unit.last_target() != kNoMemory)
    ports_[unit.last_target()].mmu->complete_until(t - 1);
  switch (unit.resume(t, barrier_)) {
    case UnitState::ready: {
      if (unit.target() >= ports_.size())
        throw SimulationError("unit " + std::to_string(u) + " addressed memory " +
                              std::to_string(unit.target()) + "; this machine has " +
                              std::to_string(ports_.size()));
      Port& port = ports_[unit.target()];
      ++port.ready;
      if (port.tell_ready) port.policy->ready(u, t);
      pending_ports_.set(unit.target());
      break;
    }
    case UnitState::barrier:
    case UnitState::done:
      present_.reset(u);
      break;
    default:
      break;
  }
  if (options_.tracing) unit.update_trace();
  open_barriers();
}

void Dispatcher::open_barriers() {
  if (!barrier_.touched()) return;
  while (const std::optional<Cycle> release = barrier_.open()) open_barrier(*release);
}

void Dispatcher::open_barrier(Cycle release) {
  for (const WarpId warp : barrier_.released()) {
    const UnitId u = warp / warps_per_unit_;
    WarpUnit& unit = *units_[u];
    const bool waiting = unit.state() == UnitState::barrier;
    const std::size_t j = warp % warps_per_unit_;
    for (InstructionRecorder* recorder : options_.recorders)
      recorder->released(unit, j, unit.times()[j].arrived, release);
    unit.release_barrier(j, release);
    if (!waiting) continue;  // another of its warps released it already
    present_.set(u);
    wakes_.push(release, u);
    if (options_.tracing) unit.update_trace();
  }
}

void Dispatcher::dispatch(Port& port, UnitId u, Cycle t) {
  WarpUnit& unit = *units_[u];
  const Mmu::Accepted accepted = port.mmu->dispatch(unit, t);
  const unsigned k = accepted.stages;
  port.free_at = t + k;
  const Cycle completion = accepted.completion;
  wakes_.push(completion + 1 + options_.compute_latency, u);
  if (observed_) observe_dispatch(port, unit, accepted, t, completion);
}

void Dispatcher::observe_dispatch(Port& port, WarpUnit& unit, const Mmu::Accepted& accepted,
                                  Cycle t, Cycle completion) {
  if (!options_.recorders.empty()) {
    if (stage_groups_needed_)
      stage_groups_.place(port.mmu->splitter(), unit.dispatch_cells(), accepted.stages);
    const DispatchRecord record{unit,
                                static_cast<MemoryId>(&port - ports_.data()),
                                accepted.stages,
                                accepted.requests,
                                t,
                                completion,
                                stage_groups_};
    for (InstructionRecorder* recorder : options_.recorders) recorder->dispatched(record);
  }
  if (!options_.tracing) return;
  port.traced.valid = true;
  port.traced.unit.set(true, unit.id());
  port.traced.stages.set(true, accepted.stages);
  port.traced.time = t;
  unit.update_trace();
}

void Dispatcher::finish() {
  Cycle end = 0;  // the running time: 1 + the last completion
  for (Port& port : ports_) {
    port.mmu->complete_until(kNever);
    end = std::max(end, port.mmu->counters().cycles());
  }
  sampler_.finish(end, memories_, barrier_);
  for (const WarpUnit* unit : units_)
    if (unit->state() != UnitState::done)
      throw SimulationError("unit " + std::to_string(unit->id()) +
                            " never finished: the machine ran out of events");
  finished_ = true;
}

void Dispatcher::trace(Tracer& tracer, const std::vector<std::string>& scopes) {
  const std::string base = name();
  tracer.trace(trace_cycle_, base + ".cycle");
  for (std::size_t m = 0; m < ports_.size(); ++m) {
    DispatchTrace& traced = ports_[m].traced;
    tracer.trace(traced.valid, scopes[m] + ".dispatch_valid");
    tracer.trace(traced.unit.bits(), scopes[m] + ".dispatch_unit");
    tracer.trace(traced.stages.bits(), scopes[m] + ".dispatch_stages");
  }
}

void Dispatcher::update_traces(Cycle t) {
  trace_cycle_ = t;
  for (Port& port : ports_) {
    if (port.traced.time != t) {
      port.traced.valid = false;
      port.traced.unit.set(false, 0);
      port.traced.stages.set(false, 0);
    }
    port.mmu->update_trace(t);
  }
  barrier_.update_trace();
}

}  // namespace mmsim
