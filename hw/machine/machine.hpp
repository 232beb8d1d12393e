// A machine assembled from its parts by model name: the PE array (warp units), the barrier
// unit, one MMU with its banks per memory, and the dispatcher connecting them.
#pragma once

#include <memory>
#include <systemc>
#include <vector>

#include "hw/dispatch/dispatcher.hpp"
#include "hw/machine/machine_config.hpp"
#include "hw/mmu/mmu.hpp"
#include "hw/pe/barrier_unit.hpp"
#include "hw/pe/kernel.hpp"
#include "hw/pe/warp_unit.hpp"

namespace mmsim {

class Machine : public sc_core::sc_module {
 public:
  // `config` must have passed validate() and name its memory size.
  Machine(const sc_core::sc_module_name& name, const MachineConfig& config,
          Dispatcher::Options options);

  const MachineConfig& config() const { return config_; }
  std::size_t memory_count() const { return memories_.size(); }
  Mmu& memory(MemoryId id = 0) { return *memories_.at(id); }
  BarrierUnit& barrier() { return *barrier_; }
  Dispatcher& dispatcher() { return *dispatcher_; }
  const std::vector<std::unique_ptr<WarpUnit>>& units() const { return units_; }

  // Starts `kernel` on every warp; call once, before the simulation starts.
  void load(Kernel& kernel);

  void trace(sc_core::sc_trace_file* file);

 private:
  MachineConfig config_;
  std::vector<std::unique_ptr<Mmu>> memories_;
  std::unique_ptr<BarrierUnit> barrier_;
  std::vector<std::unique_ptr<WarpUnit>> units_;
  std::unique_ptr<Dispatcher> dispatcher_;
};

}  // namespace mmsim
