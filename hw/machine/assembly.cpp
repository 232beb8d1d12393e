#include "hw/machine/assembly.hpp"

#include <string>

namespace mmsim {

std::unique_ptr<Mmu> make_mmu(MemorySpec spec, MemoryId id, const MachineConfig& config,
                              bool keep_groups) {
  const Mmu::Config mmu{.id = id,
                        .label = spec.label,
                        .width = spec.width,
                        .words = spec.words,
                        .write_conflict = config.write_conflict,
                        .keep_groups = keep_groups,
                        .values = config.memory_values};
  return std::make_unique<Mmu>(spec.name.c_str(), mmu, spec.latency, std::move(spec.map),
                               std::move(spec.splitter));
}

std::vector<std::unique_ptr<WarpUnit>> make_warp_units(const MachineConfig& config, UnitId first,
                                                       UnitId count, WarpUnit::Memories memories) {
  const unsigned s = config.super_warp;
  const auto warps = static_cast<WarpId>(config.warps());
  const std::uint64_t block_warps = config.block_warps();
  std::vector<std::unique_ptr<WarpUnit>> units;
  for (UnitId u = first; u < first + count; ++u) {
    std::vector<Warp> unit_warps;
    for (unsigned j = 0; j < s; ++j) {
      const auto index = static_cast<WarpId>(std::uint64_t{u} * s + j);
      const Warp::Placement placement{.index = index,
                                      .count = warps,
                                      .block = static_cast<unsigned>(index / block_warps),
                                      .blocks = config.multiprocessors};
      unit_warps.emplace_back(placement, config.width, config.local_words);
    }
    const std::string name = (s == 1 ? "warp_" : "super_warp_") + std::to_string(u);
    units.push_back(std::make_unique<WarpUnit>(name.c_str(), u, std::move(unit_warps), memories));
  }
  return units;
}

}  // namespace mmsim
