#include "hw/machine/machine.hpp"

#include "hw/dispatch/dispatch_policies.hpp"
#include "hw/machine/assembly.hpp"
#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/machine/memory_specs.hpp"
#include "hw/machine/resolved_machine.hpp"

namespace mmsim {

Machine::Machine(const sc_core::sc_module_name& name, const ResolvedMachine& machine,
                 Dispatcher::Options options)
    : sc_core::sc_module(name), machine_(machine) {
  const bool hierarchical = machine_model(config_).hierarchical;
  std::vector<MemorySpec> specs = memory_specs(machine_);
  global_memory_ = make_mmu(std::move(specs.front()), 0, config_, options.tracing);
  memories_.push_back(global_memory_.get());
  if (hierarchical) {
    for (unsigned j = 0; j < config_.multiprocessors; ++j) {
      const auto id = static_cast<MemoryId>(1 + j);
      sms_.push_back(std::make_unique<Multiprocessor>(("sm_" + std::to_string(j)).c_str(), j,
                                                      config_, std::move(specs[id]), id,
                                                      options.tracing));
      memories_.push_back(&sms_.back()->shared_memory());
      for (const auto& unit : sms_.back()->units()) units_.push_back(unit.get());
    }
  } else {
    flat_units_ = make_warp_units(config_, 0, static_cast<UnitId>(config_.units()), {});
    for (const auto& unit : flat_units_) units_.push_back(unit.get());
  }

  barrier_ = std::make_unique<BarrierUnit>(
      "barrier", config_.multiprocessors, config_.block_warps(),
      BarrierUnit::Latencies{.block = config_.barrier_latency, .grid = config_.kernel_latency});

  options.compute_latency = config_.compute_latency;
  // A dispatch occupies at most one stage group per lane.
  const Cycle lanes = std::uint64_t{config_.width} * config_.super_warp;
  Cycle longest_delay = std::max(config_.barrier_latency, config_.kernel_latency);
  for (const Mmu* mmu : memories_)
    longest_delay = std::max(longest_delay, lanes + mmu->latency() + config_.compute_latency);
  dispatcher_ = std::make_unique<Dispatcher>("dispatcher", units_, config_.super_warp, *barrier_,
                                             longest_delay, std::move(options));
  const auto all = static_cast<UnitId>(units_.size());
  for (Mmu* mmu : memories_) {
    PolicyContext context{.units = dispatcher_->units(),
                          .present = dispatcher_->present(),
                          .port = mmu->id(),
                          .seed = config_.seed,
                          .first = 0,
                          .count = all};
    if (mmu->id() != 0) {  // a shared memory: the units of its multiprocessor
      const Multiprocessor& sm = *sms_[mmu->id() - 1];
      context.first = sm.first_unit();
      context.count = static_cast<UnitId>(sm.units().size());
    }
    dispatcher_->add_port(*mmu, config_.own_policy
                                    ? config_.own_policy->make(context)
                                    : make_dispatch_policy(config_.dispatch, context));
  }
}

void Machine::load(Kernel& kernel) {
  for (WarpUnit* unit : units_)
    for (Warp& warp : unit->warps()) warp.start(kernel.run(warp));
}

void Machine::trace(Tracer& tracer) {
  // A shared memory's dispatches show in its multiprocessor's scope, as sm_j.dispatcher.
  std::vector<std::string> port_scopes = {dispatcher_->name()};
  for (const auto& sm : sms_) port_scopes.push_back(std::string(sm->name()) + ".dispatcher");
  dispatcher_->trace(tracer, port_scopes);
  std::vector<std::string> block_scopes;
  for (const auto& sm : sms_) block_scopes.push_back(std::string(sm->name()) + ".barrier");
  if (sms_.empty()) block_scopes.push_back(barrier_->name());
  barrier_->trace(tracer, block_scopes);
  global_memory_->trace(tracer);
  for (const auto& sm : sms_) sm->trace(tracer);
  for (const auto& unit : flat_units_) unit->trace(tracer);
}

}  // namespace mmsim
