#include "hw/mmu/coalescer.hpp"

#include <algorithm>

namespace mmsim {

Coalescer::Coalescer(unsigned width, std::size_t max_lanes)
    : StageSplitter(width), seen_(max_lanes) {
  distinct_.reserve(max_lanes);
}

unsigned Coalescer::stages(std::span<const Address> cells) {
  // Fast path: a coalesced access touches one row.
  std::size_t i = 0;
  while (i < cells.size() && cells[i] == kInactive) ++i;
  const std::uint32_t first = row(cells[i]);
  bool one_row = true;
  for (; i < cells.size() && one_row; ++i)
    one_row = cells[i] == kInactive || row(cells[i]) == first;
  if (one_row) return 1;
  seen_.clear();
  unsigned k = 0;
  for (const Address c : cells)
    if (c != kInactive && seen_.insert(row(c), 0).second) ++k;
  return k;
}

unsigned Coalescer::assign_groups(std::span<const Address> cells, std::span<std::uint32_t> groups) {
  seen_.clear();
  distinct_.clear();
  for (const Address c : cells)
    if (c != kInactive && seen_.insert(row(c), 0).second) distinct_.push_back(row(c));
  std::sort(distinct_.begin(), distinct_.end());
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (cells[i] == kInactive) continue;
    groups[i] = static_cast<std::uint32_t>(
        std::lower_bound(distinct_.begin(), distinct_.end(), row(cells[i])) - distinct_.begin());
  }
  return static_cast<unsigned>(distinct_.size());
}

}  // namespace mmsim
