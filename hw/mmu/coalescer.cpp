#include "hw/mmu/coalescer.hpp"

#include <algorithm>

namespace mmsim {

Coalescer::Coalescer(unsigned width, std::size_t max_lanes)
    : StageSplitter(width),
      seen_(max_lanes),
      row_of_lane_(max_lanes, 0),
      lanes_per_row_(max_lanes, 0),
      groups_(max_lanes + 1, 0) {
  distinct_.reserve(max_lanes);
}

bool Coalescer::one_row(std::span<const Address> cells) const {
  std::size_t i = 0;
  while (i < cells.size() && cells[i] == kInactive) ++i;
  const std::uint32_t first = row(cells[i]);
  bool one = true;
  for (; i < cells.size() && one; ++i) one = cells[i] == kInactive || row(cells[i]) == first;
  return one;
}

unsigned Coalescer::stages(std::span<const Address> cells) {
  if (one_row(cells)) return 1;  // fast path: a coalesced access
  seen_.clear();
  unsigned k = 0;
  for (const Address c : cells)
    if (c != kInactive && seen_.insert(row(c), 0).second) ++k;
  return k;
}

unsigned Coalescer::count_stages(std::span<const Address> cells, unsigned active) {
  if (one_row(cells)) {
    ++groups_[active];
    return 1;
  }
  // Number the rows in order of appearance, noting each active lane's.
  seen_.clear();
  std::uint32_t* row_of = row_of_lane_.data();
  std::uint32_t k = 0;
  std::size_t n = 0;
  for (const Address c : cells) {
    if (c == kInactive) continue;
    const std::uint32_t index = seen_.insert(row(c), k).first;  // k for a new row
    row_of[n++] = index;
    k += index == k;
  }
  if (k == active) {  // every request in a group of its own (a stride access)
    groups_[1] += k;
    return k;
  }
  std::uint32_t* lanes = lanes_per_row_.data();
  std::fill(lanes, lanes + k, 0);
  for (std::size_t i = 0; i < n; ++i) ++lanes[row_of[i]];
  for (std::uint32_t r = 0; r < k; ++r) ++groups_[lanes[r]];
  return k;
}

unsigned Coalescer::count_consecutive_stages(Address first_cell, unsigned lanes) {
  const unsigned n = lanes;
  const Address last_cell = first_cell + (lanes - 1);
  const std::uint32_t first = row(first_cell);
  const std::uint32_t last = row(last_cell);
  if (first == last) {
    ++groups_[n];
    return 1;
  }
  ++groups_[width() - bank(first_cell)];  // the first row, from the first lane's bank on
  if (last - first > 1) groups_[width()] += last - first - 1;  // whole rows
  ++groups_[bank(last_cell) + 1];  // the last row, up to the last lane's bank
  return last - first + 1;
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
