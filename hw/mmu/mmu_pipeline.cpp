#include "hw/mmu/mmu_pipeline.hpp"

#include <algorithm>

#include "hw/pe/warp_unit.hpp"

namespace mmsim {

MmuPipeline::MmuPipeline(const sc_core::sc_module_name& name, unsigned latency)
    : sc_core::sc_module(name), latency_(latency), ring_(latency + 2) {}

MmuPipeline::InFlight& MmuPipeline::push(WarpUnit* unit, Cycle entry, unsigned stages) {
  if (size_ == ring_.size()) {  // cannot happen with one dispatch per k cycles; keep it safe
    std::vector<InFlight> grown(ring_.size() * 2);
    for (std::size_t i = 0; i < size_; ++i) grown[i] = std::move(ring_[(head_ + i) % ring_.size()]);
    ring_ = std::move(grown);
    head_ = 0;
  }
  InFlight& slot = ring_[(head_ + size_) % ring_.size()];
  slot.unit = unit;
  slot.entry = entry;
  slot.stages = stages;
  slot.slots.clear();
  ++size_;
  return slot;
}

void MmuPipeline::pop() {
  head_ = (head_ + 1) % ring_.size();
  --size_;
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

void MmuPipeline::trace(sc_core::sc_trace_file* file) {
  const std::string base = name();
  sc_core::sc_trace(file, entering_.valid, base + ".entry_valid");
  sc_core::sc_trace(file, entering_.unit, base + ".entry_unit");
  sc_core::sc_trace(file, entering_.group, base + ".entry_group");
  sc_core::sc_trace(file, completing_.valid, base + ".completion_valid");
  sc_core::sc_trace(file, completing_.unit, base + ".completion_unit");
  sc_core::sc_trace(file, completing_.group, base + ".completion_group");
  sc_core::sc_trace(file, occupancy_, base + ".occupancy");
}

void MmuPipeline::update_trace(Cycle t) {
  entering_ = {};
  completing_ = {};
  for_each([&](const InFlight& d) {
    if (t >= d.entry && t < d.entry + d.stages)
      entering_ = {true, d.unit->id(), static_cast<unsigned>(t - d.entry)};
    const Cycle done = d.first_completion(latency_);
    if (t >= done && t < done + d.stages)
      completing_ = {true, d.unit->id(), static_cast<unsigned>(t - done)};
  });
  occupancy_ = occupancy(t);
}

}  // namespace mmsim
