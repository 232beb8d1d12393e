#include "hw/machine/machine.hpp"

#include "hw/machine/machine_models.hpp"
#include "hw/support/errors.hpp"

namespace mmsim {

Machine::Machine(const sc_core::sc_module_name& name, const MachineConfig& config,
                 Dispatcher::Options options)
    : sc_core::sc_module(name), config_(config) {
  apply_model_rules(config_);

  std::vector<MemorySpec> specs = memory_specs(config_);
  for (std::size_t m = 0; m < specs.size(); ++m) {
    MemorySpec& spec = specs[m];
    Mmu::Config mmu{static_cast<MemoryId>(m), spec.width,     spec.latency, spec.words,
                    config.write_conflict,    options.tracing};
    memories_.push_back(std::make_unique<Mmu>(spec.name.c_str(), mmu, std::move(spec.map),
                                              std::move(spec.splitter)));
  }

  const std::uint64_t warps = config.warps();
  barrier_ = std::make_unique<BarrierUnit>("barrier", warps, config.barrier_latency);

  std::vector<WarpUnit*> unit_pointers;
  const unsigned s = config.super_warp;
  for (std::uint64_t u = 0; u < config.units(); ++u) {
    std::vector<Warp> unit_warps;
    for (unsigned j = 0; j < s; ++j)
      unit_warps.emplace_back(static_cast<WarpId>(u * s + j), config.width,
                              static_cast<WarpId>(warps), config.local_words);
    const std::string unit_name = (s == 1 ? "warp_" : "super_warp_") + std::to_string(u);
    units_.push_back(std::make_unique<WarpUnit>(unit_name.c_str(), static_cast<UnitId>(u),
                                                std::move(unit_warps)));
    unit_pointers.push_back(units_.back().get());
  }

  options.compute_latency = config.compute_latency;
  Cycle longest_delay = config.barrier_latency;
  for (const auto& mmu : memories_)
    longest_delay = std::max<Cycle>(
        longest_delay, std::uint64_t{mmu->width()} * s + mmu->latency() + config.compute_latency);
  dispatcher_ = std::make_unique<Dispatcher>("dispatcher", std::move(unit_pointers), s, *barrier_,
                                             longest_delay, std::move(options));
  for (auto& mmu : memories_) {
    PolicyContext context{dispatcher_->units(), dispatcher_->present(), mmu->id(), config.seed};
    dispatcher_->add_port(*mmu, make_dispatch_policy(config.dispatch, context));
  }
}

void Machine::load(Kernel& kernel) {
  for (auto& unit : units_)
    for (Warp& warp : unit->warps()) warp.start(kernel.run(warp));
}

void Machine::trace(sc_core::sc_trace_file* file) {
  dispatcher_->trace(file);
  barrier_->trace(file);
  for (auto& mmu : memories_) mmu->trace(file);
  for (auto& unit : units_) unit->trace(file);
}

}  // namespace mmsim
