// The parts a machine is assembled from: an MMU (with its banks) from its specification, and the
// dispatch units of a range of warps. Modules take their place in the hierarchy from the module
// under construction, so a machine, or a streaming multiprocessor, calls these from its own
// constructor.
#pragma once

#include <memory>
#include <vector>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/machine/memory_specs.hpp"
#include "hw/mmu/mmu.hpp"
#include "hw/pe/warp_unit.hpp"

namespace mmsim {

std::unique_ptr<Mmu> make_mmu(MemorySpec spec, MemoryId id, const MachineConfig& config,
                              bool keep_groups);

// Units first, first + 1, ..., first + count - 1 of `config` (each of super_warp warps, named
// warp_u, or super_warp_u), reaching `memories`.
std::vector<std::unique_ptr<WarpUnit>> make_warp_units(const MachineConfig& config, UnitId first,
                                                       UnitId count, WarpUnit::Memories memories);

}  // namespace mmsim
