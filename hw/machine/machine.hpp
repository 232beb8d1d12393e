// A machine assembled from its parts: the PE array (warp units), the barrier unit, an MMU with
// its banks per memory, and the dispatcher connecting them. A flat machine has one memory; the
// hierarchical machine has its global memory and d streaming multiprocessors, each with its
// block of warp units and its shared memory.
#pragma once

#include <memory>
#include <systemc>
#include <vector>

#include "hw/dispatch/dispatcher.hpp"
#include "hw/machine/machine_config.hpp"
#include "hw/machine/multiprocessor.hpp"
#include "hw/machine/resolved_machine.hpp"
#include "hw/mmu/mmu.hpp"
#include "hw/pe/barrier_unit.hpp"
#include "hw/pe/kernel.hpp"
#include "hw/pe/warp_unit.hpp"

namespace mmsim {

class Machine : public sc_core::sc_module {
 public:
  // `machine` names its memory sizes.
  Machine(const sc_core::sc_module_name& name, const ResolvedMachine& machine,
          Dispatcher::Options options);

  const MachineConfig& config() const { return config_; }
  // Memory 0 is the global memory (a flat machine's only one); 1 + j the shared memory of SM j.
  std::size_t memory_count() const { return memories_.size(); }
  Mmu& memory(MemoryId id = 0) { return *memories_.at(id); }
  BarrierUnit& barrier() { return *barrier_; }
  Dispatcher& dispatcher() { return *dispatcher_; }
  // Every dispatch unit, in unit-id order.
  const std::vector<WarpUnit*>& units() const { return units_; }
  const std::vector<std::unique_ptr<Multiprocessor>>& multiprocessors() const { return sms_; }

  // Starts `kernel` on every warp; call once, before the simulation starts.
  void load(Kernel& kernel);

  void trace(Tracer& tracer);

 private:
  ResolvedMachine machine_;
  const MachineConfig& config_ = machine_.config();
  std::unique_ptr<Mmu> global_memory_;
  std::vector<std::unique_ptr<Multiprocessor>> sms_;
  std::vector<std::unique_ptr<WarpUnit>> flat_units_;  // a flat machine's units
  std::vector<Mmu*> memories_;
  std::vector<WarpUnit*> units_;
  std::unique_ptr<BarrierUnit> barrier_;
  std::unique_ptr<Dispatcher> dispatcher_;
};

}  // namespace mmsim
