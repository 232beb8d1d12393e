#include "hw/mmu/splitter_unit.hpp"

#include <algorithm>

namespace mmsim {

SplitterUnit::SplitterUnit(const sc_core::sc_module_name& name,
                           std::unique_ptr<StageSplitter> logic)
    : sc_core::sc_module(name), logic_(std::move(logic)), load_(logic_->width(), 0) {}

void SplitterUnit::trace(sc_core::sc_trace_file* file) {
  const std::string base = name();
  sc_core::sc_trace(file, valid_, base + ".packed_valid");
  sc_core::sc_trace(file, stages_, base + ".packed_stages");
  sc_core::sc_trace(file, requests_, base + ".packed_requests");
  for (std::size_t b = 0; b < load_.size(); ++b)
    sc_core::sc_trace(file, load_[b], base + ".load_" + std::to_string(b));
}

void SplitterUnit::update_trace(const MmuPipeline::InFlight* packed) {
  std::fill(load_.begin(), load_.end(), 0);
  valid_ = packed != nullptr;
  stages_ = packed ? packed->stages : 0;
  requests_ = packed ? static_cast<unsigned>(packed->slots.size()) : 0;
  if (packed)
    for (const MmuPipeline::Slot& slot : packed->slots) ++load_[slot.bank];
}

}  // namespace mmsim
