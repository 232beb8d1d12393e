#include "hw/pe/barrier_unit.hpp"

#include <algorithm>

namespace mmsim {

BarrierUnit::BarrierUnit(const sc_core::sc_module_name& name, std::uint64_t warps, Cycle latency)
    : sc_core::sc_module(name), running_(warps), latency_(latency) {}

void BarrierUnit::arrive(WarpId warp, Cycle t) {
  waiting_.push_back(warp);
  last_event_ = std::max(last_event_, t);
}

void BarrierUnit::leave(WarpId, Cycle t) {
  --running_;
  last_event_ = std::max(last_event_, t);
}

Cycle BarrierUnit::release() {
  released_.swap(waiting_);
  waiting_.clear();
  ++steps_;
  return last_event_ + latency_;
}

void BarrierUnit::trace(sc_core::sc_trace_file* file) {
  sc_core::sc_trace(file, trace_waiting_, std::string(name()) + ".waiting");
  sc_core::sc_trace(file, trace_steps_, std::string(name()) + ".steps");
}

void BarrierUnit::update_trace() {
  trace_waiting_ = waiting_.size();
  trace_steps_ = steps_;
}

}  // namespace mmsim
