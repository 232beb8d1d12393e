#include "hw/mmu/bandwidth_serializer.hpp"

namespace mmsim {

BandwidthSerializer::BandwidthSerializer(unsigned width, std::size_t max_lanes)
    : StageSplitter(width), seen_(max_lanes) {}

unsigned BandwidthSerializer::stages(std::span<const Address> cells) {
  seen_.clear();
  unsigned distinct = 0;
  for (const Address c : cells)
    if (c != kInactive && seen_.insert(c, 0).second) ++distinct;
  return (distinct + width() - 1) / width();
}

unsigned BandwidthSerializer::assign_groups(std::span<const Address> cells,
                                            std::span<std::uint32_t> groups) {
  seen_.clear();
  std::uint32_t distinct = 0;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (cells[i] == kInactive) continue;
    const auto [rank, fresh] = seen_.insert(cells[i], distinct);
    if (fresh) ++distinct;
    groups[i] = rank / width();
  }
  return (distinct + width() - 1) / width();
}

}  // namespace mmsim
