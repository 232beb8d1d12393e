// The dispatcher: whenever an MMU can accept a dispatch, its policy picks a ready unit among
// the units that reach that memory (every unit for the global memory, the units of one
// streaming multiprocessor for its shared memory). It is the machine's one SystemC process: it
// wakes only when something happens (a request completes, a barrier opens, an MMU frees up),
// never on idle cycles.
//
// Temporal decoupling (as in TLM-2.0 loosely-timed models): the process may handle the events
// of the next `quantum` cycles in one activation, since every state it touches lives in the
// modules it calls. Results are identical for any quantum; tracing sets it to 0 inside the
// traced window of cycles [trace_from, trace_to] so that every event there is handled, and
// traced, at its own simulation time; outside the window the machine runs as fast as untraced.
#pragma once

#include <exception>
#include <functional>
#include <memory>
#include <systemc>
#include <vector>

#include "hw/dispatch/dispatch_policy.hpp"
#include "hw/dispatch/wake_queue.hpp"
#include "hw/mmu/mmu.hpp"
#include "hw/observers/instruction_recorder.hpp"
#include "hw/observers/time_series.hpp"
#include "hw/pe/barrier_unit.hpp"
#include "hw/pe/warp_unit.hpp"
#include "hw/support/dynamic_bitset.hpp"
#include "hw/support/traced_value.hpp"
#include "hw/support/tracer.hpp"

namespace mmsim {

enum class MemoryVisitOrder : std::uint8_t { ascending, descending };

class Dispatcher : public sc_core::sc_module {
 public:
  struct Options {
    Cycle compute_latency = 0;  // between a completion and the next instruction
    Cycle quantum = Cycle{1} << 20;
    bool tracing = false;
    Cycle trace_from = 0;  // the window of cycles a waveform shows
    Cycle trace_to = kNever;
    std::function<void(Cycle now)> progress;  // called now and then on long runs
    Cycle sample_interval = 0;                // > 0: sample the counters every so many time units
    // The order in which a step visits the memories. Every memory decides on the state at the
    // start of the time unit, so the order never changes a run; tests reverse it to show that.
    MemoryVisitOrder visit_order = MemoryVisitOrder::ascending;
    // A profile, a timeline: they see every dispatch and barrier release (none: no cost).
    std::vector<InstructionRecorder*> recorders;
  };

  SC_HAS_PROCESS(Dispatcher);
  // `longest_delay`: the most cycles between a step and a wake it schedules (a dispatch's
  // stages + latency + compute latency, or the barrier latency).
  Dispatcher(const sc_core::sc_module_name& name, std::vector<WarpUnit*> units,
             unsigned warps_per_unit, BarrierUnit& barrier, Cycle longest_delay, Options options);

  // Units neither at a barrier nor finished (policies read it).
  const DynamicBitset& present() const { return present_; }
  const std::vector<WarpUnit*>& units() const { return units_; }
  // Connects an MMU; the n-th call serves memory n.
  void add_port(Mmu& mmu, std::unique_ptr<DispatchPolicy> policy);
  bool finished() const { return finished_; }
  // An error raised by a warp program or the hardware during the run, if any.
  std::exception_ptr failure() const { return failure_; }
  // The counters over time (empty unless Options::sample_interval asked for them).
  const TimeSeries& time_series() const { return sampler_.series(); }

  // `scopes[m]`: the hierarchical name under which memory m's dispatches are traced
  // (dispatch_valid, dispatch_unit, dispatch_stages); the cycle counter is traced under this
  // module's name.
  void trace(Tracer& tracer, const std::vector<std::string>& scopes);

 private:
  // What a port dispatched this cycle, as traced (unit and stages z while none).
  struct DispatchTrace {
    bool valid = false;
    TracedValue unit{32};
    TracedValue stages{32};
    Cycle time = kNever;
  };
  struct Port {
    Mmu* mmu;
    std::unique_ptr<DispatchPolicy> policy;
    Cycle free_at = 0;
    UnitId chosen = kNoUnit;  // in the current step
    std::uint32_t ready = 0;  // units ready for it, not yet chosen
    bool tell_ready = true;   // its policy keeps a set of the ready units
    bool ask_again = false;   // its policy's idling lasts one time unit (a policy of one's own)
    DispatchTrace traced = {};
  };

  void run();
  Cycle step(Cycle t);
  void resume(UnitId u, Cycle t);
  void open_barriers();
  void open_barrier(Cycle release);
  // Each memory free at t with units ready for it chooses one (Port::chosen), all from the state
  // at the start of t; only then are the choices dispatched, in memory order (docs/semantics.md
  // §7, simultaneity).
  struct Choices {
    Cycle next;         // when the first busy memory with units ready for it frees up
    std::size_t ports;  // the memories that chose: chosen_ports_[0 .. ports), in memory order
  };
  [[gnu::always_inline]] inline Choices choose_dispatches(Cycle t);
  // Whether a port free at t chooses a unit (Port::chosen); lowers `next` to when to ask again
  // where it does not.
  [[gnu::always_inline]] inline bool choose(Port& port, Cycle t, Cycle& next);
  // Dispatches port p's choice; lowers `next` to when it frees up if units are still ready for it.
  [[gnu::always_inline]] inline void dispatch_chosen(std::size_t p, Cycle t, Cycle& next);
  [[gnu::always_inline]] inline void dispatch(Port& port, UnitId u, Cycle t);
  void finish();
  void update_traces(Cycle t);
  // A waveform or a recorder sees the dispatch: out of its hot path (cold: kept out of line, so
  // that the dispatch stays inlined with one test of `observed_`).
  [[gnu::cold]] void observe_dispatch(Port& port, WarpUnit& unit, const Mmu::Accepted& accepted,
                                      Cycle t, Cycle completion);
  // Whether cycle t is traced: a waveform is asked for and t lies in its window.
  bool in_window(Cycle t) const {
    return options_.tracing && t >= options_.trace_from && t <= options_.trace_to;
  }

  std::vector<WarpUnit*> units_;
  unsigned warps_per_unit_;
  BarrierUnit& barrier_;
  Options options_;
  std::vector<Port> ports_;
  // Ports whose policy holds ready units: a step looks at these only (a machine of many
  // memories, most of them idle at any time).
  DynamicBitset pending_ports_;
  // The ports that chose in a step where several memories have ready units (choose_dispatches),
  // in memory order: one place per port.
  std::vector<Port*> chosen_ports_;
  DynamicBitset present_;
  WakeQueue wakes_;
  bool finished_ = false;
  std::exception_ptr failure_;
  std::uint64_t steps_ = 0;
  TimeSeriesSampler sampler_;
  std::vector<const Mmu*> memories_;  // the ports' MMUs, for the sampler

  std::uint64_t trace_cycle_ = 0;
  bool observed_ = false;  // a waveform, or recorders
  // A recorder reads the stage groups of each dispatch: placed here, once for all of them.
  bool stage_groups_needed_ = false;
  StageGroups stage_groups_;
};

}  // namespace mmsim
