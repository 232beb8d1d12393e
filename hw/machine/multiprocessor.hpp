// A streaming multiprocessor of the hierarchical machine: its block of warp units and its
// shared memory (a DMM-family memory with its own MMU and pipeline). Its warps' syncthreads wait
// for each other only; the global memory and the dispatcher belong to the machine.
#pragma once

#include <memory>
#include <systemc>
#include <vector>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/machine/memory_specs.hpp"
#include "hw/mmu/mmu.hpp"
#include "hw/pe/warp_unit.hpp"

namespace mmsim {

class Multiprocessor : public sc_core::sc_module {
 public:
  // SM `index` of `config`: its units are index*U/d .. (index+1)*U/d - 1 (U units in all); its
  // shared memory `shared` gets id `shared_id`.
  Multiprocessor(const sc_core::sc_module_name& name, unsigned index, const MachineConfig& config,
                 MemorySpec shared, MemoryId shared_id, bool keep_groups);

  unsigned index() const { return index_; }
  Mmu& shared_memory() { return *shared_memory_; }
  UnitId first_unit() const { return first_unit_; }
  const std::vector<std::unique_ptr<WarpUnit>>& units() const { return units_; }

  void trace(Tracer& tracer);

 private:
  unsigned index_;
  UnitId first_unit_;
  std::unique_ptr<Mmu> shared_memory_;
  std::vector<std::unique_ptr<WarpUnit>> units_;
};

}  // namespace mmsim
