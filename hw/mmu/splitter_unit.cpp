#include "hw/mmu/splitter_unit.hpp"

#include <algorithm>

namespace mmsim {

SplitterUnit::SplitterUnit(const sc_core::sc_module_name& name,
                           std::unique_ptr<StageSplitter> logic)
    : sc_core::sc_module(name),
      logic_(std::move(logic)),
      load_(logic_->width(), TracedValue(32)),
      counts_(logic_->width(), 0),
      entry_rows_(logic_->rows() ? logic_->ports() : 0) {}

bool SplitterUnit::trace(Tracer& tracer) {
  const std::string base = name();
  bool any = tracer.trace(valid_, base + ".packed_valid");
  any |= tracer.trace(stages_.bits(), base + ".packed_stages");
  any |= tracer.trace(requests_.bits(), base + ".packed_requests");
  for (std::size_t b = 0; b < load_.size(); ++b)
    any |= tracer.trace(load_[b].bits(), base + ".load_" + std::to_string(b));
  for (std::size_t j = 0; j < entry_rows_.size(); ++j) {
    const std::string port = j == 0 ? base : base + ".port_" + std::to_string(j);
    any |= tracer.trace(entry_rows_[j].valid, port + ".entry_valid");
    any |= tracer.trace(entry_rows_[j].row.bits(), port + ".entry_row");
  }
  return any;
}

void SplitterUnit::update_trace(const MmuPipeline::InFlight* packed,
                                const MmuPipeline::InFlight* entering, Cycle t) {
  valid_ = packed != nullptr;
  stages_.set(valid_, packed ? packed->stages : 0);
  requests_.set(valid_, packed ? packed->slots.size() : 0);
  std::fill(counts_.begin(), counts_.end(), 0);
  if (packed)
    for (const MmuPipeline::Slot& slot : packed->slots) ++counts_[slot.bank];
  for (std::size_t b = 0; b < load_.size(); ++b) load_[b].set(valid_, counts_[b]);
  // The rows of the group entering, one per port: an address's row is its cell's (a map permutes
  // columns only).
  for (std::uint32_t j = 0; j < entry_rows_.size(); ++j) {
    EntryRow& shown = entry_rows_[j];
    shown.valid = false;
    if (entering) {
      const auto group = static_cast<std::uint32_t>(t - entering->entry);
      const auto slot =
          std::find_if(entering->slots.begin(), entering->slots.end(),
                       [&](const MmuPipeline::Slot& s) { return s.group == group && s.port == j; });
      if (slot != entering->slots.end()) {
        shown.valid = true;
        shown.row.set(true, slot->address / logic_->width());
      }
    }
    if (!shown.valid) shown.row.set(false, 0);
  }
}

}  // namespace mmsim
