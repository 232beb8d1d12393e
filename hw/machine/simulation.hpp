// One run of one machine: a fresh SystemC context, the machine, an optional waveform, and
// the results. SystemC 2.3 elaborates once per context, so every Simulation gets its own.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "hw/machine/machine.hpp"
#include "hw/machine/resolved_machine.hpp"
#include "hw/pe/kernel.hpp"
#include "hw/support/tracer.hpp"

namespace mmsim {

struct SimulationOptions {
  // Where SystemC writes the waveform: this name + ".vcd". Empty: no waveform (and no tracing
  // cost at all).
  std::string vcd_base;
  // The signals the waveform shows (empty: all). Its window of cycles is the dispatcher's
  // trace_from, trace_to: outside it the machine runs as untraced and its traced values are not
  // kept up to date (what SystemC still writes there, the reader of the VCD cuts off:
  // testbench/waveforms/vcd_window.hpp).
  Tracer::Selection trace_selection;
  // The dispatcher's options, passed down as they are (its `tracing` follows vcd_base): the
  // window, the quantum, progress, the counters' interval (RunResult::time_series), the
  // recorders (owned by the caller; none: no cost), the order it visits the memories in (tests
  // only: it must not matter).
  Dispatcher::Options dispatch;
};

// What one memory did in a run.
struct MemoryResult {
  std::string label;  // "memory", "global", "SM 3 shared"
  unsigned block;     // the streaming multiprocessor of a shared memory, else kNoBlock
  unsigned width;
  unsigned latency;
  std::uint64_t words;
  MemoryCounters counters;
  RequestSpread spread;  // per bank, or per address group touched
};

struct RunResult {
  MemoryCounters counters;             // totals over the memories
  RequestSpread spread;                // summed over the memories, element by element
  std::vector<MemoryResult> memories;  // in memory-id order (global first)
  // syncthreads steps: of the block that took the most (a flat machine is one block), and of
  // each block.
  std::uint64_t syncthreads = 0;
  std::vector<std::uint64_t> block_syncthreads;
  std::uint64_t grid_syncs = 0;                   // grid_sync steps
  std::vector<std::uint64_t> warp_barriers;       // barriers (of either scope) passed by each warp
  std::vector<std::uint64_t> warp_grid_barriers;  // grid_syncs passed by each warp
  std::vector<WarpTime> warp_times;               // where each warp's time went
  TimeSeries time_series;                         // empty unless stats_interval asked
  double seconds = 0;                             // wall-clock time of the simulation itself
  Cycle cycles() const { return counters.cycles(); }
};

class Simulation {
 public:
  // `machine` names its memory sizes.
  explicit Simulation(const ResolvedMachine& machine, const SimulationOptions& options = {});
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  Machine& machine() { return *machine_; }
  Mmu& memory(MemoryId id = 0) { return machine_->memory(id); }
  // The signals traced into the waveform (none without one).
  const std::vector<Tracer::Signal>& traced_signals() const;

  // Runs `kernel` on every warp to the end. Throws SimulationError for what a program did wrong.
  RunResult run(Kernel& kernel);

 private:
  std::unique_ptr<Machine> machine_;
  sc_core::sc_trace_file* trace_ = nullptr;
  std::unique_ptr<Tracer> tracer_;
  bool ran_ = false;
};

}  // namespace mmsim
