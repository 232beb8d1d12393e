#include "hw/machine/simulation.hpp"

#include <chrono>
#include <cstdlib>
#include <vector>

#include <sysc/tracing/sc_tracing_ids.h>

#include "hw/machine/machine_models.hpp"
#include "hw/machine/memory_specs.hpp"
#include "hw/machine/resolved_machine.hpp"
#include "hw/support/errors.hpp"

namespace mmsim {
namespace {

// SystemC 2.3 cannot delete a finished context safely; each run leaves its (small) context
// behind and installs a new one. The contexts left behind are kept in a list that is never
// freed, so that they stay reachable: kept on purpose, not lost (LeakSanitizer agrees).
void fresh_systemc_context() {
  static auto* const retired = new std::vector<sc_core::sc_simcontext*>;
  if (sc_core::sc_curr_simcontext != nullptr) retired->push_back(sc_core::sc_curr_simcontext);
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  sc_core::sc_curr_simcontext = new sc_core::sc_simcontext();
  sc_core::sc_default_global_context = sc_core::sc_curr_simcontext;
  sc_core::sc_set_time_resolution(1, sc_core::SC_NS);  // one machine cycle = 1 ns
  using sc_core::sc_report_handler;
  // Waveforms whose times are not exact are errors, not warnings.
  sc_report_handler::set_actions(sc_core::SC_ID_TRACING_VCD_TIME_RESOLUTION_, sc_core::SC_THROW);
  sc_report_handler::set_actions(sc_core::SC_ID_TRACING_REVERSED_TIME_, sc_core::SC_THROW);
  sc_report_handler::set_actions(sc_core::SC_ID_TRACING_TIMESCALE_UNIT_, sc_core::SC_DO_NOTHING);
  // A waveform refused before the run (too large) is closed before any cycle.
  sc_report_handler::set_actions(sc_core::SC_ID_TRACING_CLOSE_EMPTY_FILE_, sc_core::SC_DO_NOTHING);
  sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
}

}  // namespace

Simulation::Simulation(const ResolvedMachine& machine, const SimulationOptions& options) {
  fresh_systemc_context();
  Dispatcher::Options dispatch = options.dispatch;
  dispatch.tracing = !options.vcd_base.empty();
  machine_ = std::make_unique<Machine>("machine", machine, std::move(dispatch));
  if (!options.vcd_base.empty()) {
    trace_ = sc_core::sc_create_vcd_trace_file(options.vcd_base.c_str());
    trace_->set_time_unit(1, sc_core::SC_NS);
    tracer_ = std::make_unique<Tracer>(trace_, options.trace_selection);
    machine_->trace(*tracer_);
  }
}

const std::vector<Tracer::Signal>& Simulation::traced_signals() const {
  static const std::vector<Tracer::Signal> none;
  return tracer_ ? tracer_->signals() : none;
}

Simulation::~Simulation() {
  if (trace_) sc_core::sc_close_vcd_trace_file(trace_);
}

RunResult Simulation::run(Kernel& kernel) {
  if (ran_) throw SimulationError("a Simulation runs once");
  ran_ = true;
  machine_->load(kernel);
  const auto start = std::chrono::steady_clock::now();
  try {
    sc_core::sc_start();
  } catch (const sc_core::sc_report& report) {
    throw SimulationError(std::string("SystemC: ") + report.what());
  }
  const auto stop = std::chrono::steady_clock::now();
  Dispatcher& dispatcher = machine_->dispatcher();
  if (dispatcher.failure()) std::rethrow_exception(dispatcher.failure());
  if (!dispatcher.finished()) throw SimulationError("the simulation stopped before the end");
  if (trace_) {
    sc_core::sc_close_vcd_trace_file(trace_);
    trace_ = nullptr;
  }
  RunResult result;
  for (MemoryId m = 0; m < machine_->memory_count(); ++m) {
    const Mmu& mmu = machine_->memory(m);
    const unsigned block = m == 0 ? kNoBlock : m - 1;
    result.memories.push_back({mmu.label(), block, mmu.width(), mmu.latency(), mmu.words(),
                               mmu.counters(), mmu.request_spread()});
    result.counters += mmu.counters();
    result.spread += result.memories.back().spread;
  }
  const BarrierUnit& barrier = machine_->barrier();
  for (unsigned b = 0; b < barrier.blocks(); ++b) {
    result.block_syncthreads.push_back(barrier.steps(b));
    result.syncthreads = std::max(result.syncthreads, barrier.steps(b));
  }
  result.grid_syncs = barrier.grid_steps();
  for (WarpUnit* unit : machine_->units())
    for (const Warp& warp : unit->warps()) {
      result.warp_barriers.push_back(warp.barriers());
      result.warp_grid_barriers.push_back(warp.grid_barriers());
    }
  for (WarpUnit* unit : machine_->units())
    result.warp_times.insert(result.warp_times.end(), unit->times().begin(), unit->times().end());
  result.time_series = dispatcher.time_series();
  result.seconds = std::chrono::duration<double>(stop - start).count();
  return result;
}

}  // namespace mmsim
