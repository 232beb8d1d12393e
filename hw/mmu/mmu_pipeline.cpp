#include "hw/mmu/mmu_pipeline.hpp"

#include <algorithm>

#include "hw/pe/warp_unit.hpp"

namespace mmsim {

MmuPipeline::MmuPipeline(const sc_core::sc_module_name& name, unsigned latency)
    : sc_core::sc_module(name), latency_(latency), ring_(latency + 2), capacity_(ring_.size()) {}

void MmuPipeline::grow() {
  std::vector<InFlight> grown(ring_.size() * 2);
  for (std::size_t i = 0; i < size_; ++i) grown[i] = std::move(ring_[wrap(head_ + i)]);
  ring_ = std::move(grown);
  capacity_ = ring_.size();
  head_ = 0;
}

unsigned MmuPipeline::occupancy(Cycle t) const {
  unsigned groups = 0;
  for_each([&](const InFlight& d) {
    // groups entered at e in [entry, entry+k) are in a stage at t when e <= t <= e+l-1
    const Cycle first = std::max(d.entry, t >= latency_ - 1 ? t - (latency_ - 1) : 0);
    const Cycle last = std::min<Cycle>(d.entry + d.stages - 1, t);
    if (first <= last && last >= d.entry) groups += static_cast<unsigned>(last - first + 1);
  });
  return groups;
}

bool MmuPipeline::trace(Tracer& tracer) {
  const std::string base = name();
  bool any = tracer.trace(entering_.valid, base + ".entry_valid");
  any |= tracer.trace(entering_.unit.bits(), base + ".entry_unit");
  any |= tracer.trace(entering_.group.bits(), base + ".entry_group");
  any |= tracer.trace(completing_.valid, base + ".completion_valid");
  any |= tracer.trace(completing_.unit.bits(), base + ".completion_unit");
  any |= tracer.trace(completing_.group.bits(), base + ".completion_group");
  any |= tracer.trace(occupancy_, base + ".occupancy");
  return any;
}

void MmuPipeline::update_trace(Cycle t) {
  bool entering = false;
  bool completing = false;
  unsigned entry_unit = 0, entry_group = 0, completion_unit = 0, completion_group = 0;
  for_each([&](const InFlight& d) {
    if (t >= d.entry && t < d.entry + d.stages) {
      entering = true;
      entry_unit = d.unit->id();
      entry_group = static_cast<unsigned>(t - d.entry);
    }
    const Cycle done = first_completion(d);
    if (t >= done && t < done + d.stages) {
      completing = true;
      completion_unit = d.unit->id();
      completion_group = static_cast<unsigned>(t - done);
    }
  });
  entering_.set(entering, entry_unit, entry_group);
  completing_.set(completing, completion_unit, completion_group);
  occupancy_ = occupancy(t);
}

}  // namespace mmsim
