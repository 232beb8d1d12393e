#include "hw/machine/multiprocessor.hpp"

#include "hw/machine/assembly.hpp"

namespace mmsim {

Multiprocessor::Multiprocessor(const sc_core::sc_module_name& name, unsigned index,
                               const MachineConfig& config, MemorySpec shared, MemoryId shared_id,
                               bool keep_groups)
    : sc_core::sc_module(name), index_(index) {
  const auto units = static_cast<UnitId>(config.units() / config.multiprocessors);
  first_unit_ = index * units;
  shared_memory_ = make_mmu(std::move(shared), shared_id, config, keep_groups);
  units_ = make_warp_units(config, first_unit_, units, {.global = 0, .shared = shared_id});
}

void Multiprocessor::trace(Tracer& tracer) {
  shared_memory_->trace(tracer);
  for (auto& unit : units_) unit->trace(tracer);
}

}  // namespace mmsim
