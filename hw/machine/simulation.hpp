// One run of one machine: a fresh SystemC context, the machine, an optional waveform, and
// the results. SystemC 2.3 elaborates once per context, so every Simulation gets its own.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "hw/dispatch/run_counters.hpp"
#include "hw/machine/machine.hpp"
#include "hw/machine/machine_config.hpp"
#include "hw/pe/kernel.hpp"

namespace mmsim {

struct SimulationOptions {
  // Where SystemC writes the waveform: this name + ".vcd". Empty: no waveform (and no tracing
  // cost at all).
  std::string vcd_base;
  Cycle quantum = Dispatcher::Options{}.quantum;
  std::function<void(Cycle now)> progress;
};

struct RunResult {
  RunCounters counters;
  std::uint64_t syncthreads = 0;             // barrier steps
  std::vector<std::uint64_t> warp_barriers;  // syncthreads executed by each warp
  double seconds = 0;                        // wall-clock time of the simulation itself
  Cycle cycles() const { return counters.cycles(); }
};

class Simulation {
 public:
  // `config` must have passed validate() and name its memory size.
  explicit Simulation(const MachineConfig& config, const SimulationOptions& options = {});
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  Machine& machine() { return *machine_; }
  Mmu& memory(MemoryId id = 0) { return machine_->memory(id); }

  // Runs `kernel` on every warp to the end. Throws SimulationError for what a program did wrong.
  RunResult run(Kernel& kernel);

 private:
  std::unique_ptr<Machine> machine_;
  sc_core::sc_trace_file* trace_ = nullptr;
  bool ran_ = false;
};

}  // namespace mmsim
