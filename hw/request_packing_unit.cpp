#include "hw/request_packing_unit.hpp"

#include <algorithm>
#include <bit>

namespace mmsim {

RequestPackingUnit::RequestPackingUnit(unsigned width, std::size_t max_lanes)
    : StageSplitter(width), seen_(max_lanes), bank_count_(width, 0), bank_stamp_(width, 0) {}

// Every active lane in a bank of its own means one stage, whatever the addresses (w <= 64):
// then the active lanes light as many distinct banks as there are lanes.
template <class Bank>
bool RequestPackingUnit::conflict_free(std::span<const Address> cells, Bank bank) const {
  std::uint64_t used = 0;
  std::uint64_t active = 0;
  const Address* c = cells.data();
  const std::size_t n = cells.size();
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t on = c[i] != kInactive;
    used |= on << bank(c[i]);
    active += on;
  }
  return static_cast<std::uint64_t>(std::popcount(used)) == active;
}

unsigned RequestPackingUnit::stages(std::span<const Address> cells) {
  if (width() <= 64) {
    const Divider& d = divider();
    const bool fast =
        d.power_of_two()
            ? conflict_free(cells, [mask = d.divisor() - 1](Address c) { return c & mask; })
            : conflict_free(cells, [&d](Address c) { return d.remainder(c); });
    if (fast) return 1;
  }
  return pack(cells, {});
}

unsigned RequestPackingUnit::assign_groups(std::span<const Address> cells,
                                           std::span<std::uint32_t> groups) {
  return pack(cells, groups);
}

unsigned RequestPackingUnit::pack(std::span<const Address> cells, std::span<std::uint32_t> groups) {
  if (++stamp_ == 0) {
    std::fill(bank_stamp_.begin(), bank_stamp_.end(), 0);
    stamp_ = 1;
  }
  seen_.clear();
  const bool record = !groups.empty();
  unsigned k = 0;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const Address c = cells[i];
    if (c == kInactive) continue;
    const auto [first_lane, fresh] = seen_.insert(c, static_cast<std::uint32_t>(i));
    if (!fresh) {  // merged with an earlier lane's request
      if (record) groups[i] = groups[first_lane];
      continue;
    }
    const std::uint32_t b = bank(c);
    if (bank_stamp_[b] != stamp_) {
      bank_stamp_[b] = stamp_;
      bank_count_[b] = 0;
    }
    const std::uint32_t rank = bank_count_[b]++;
    if (record) groups[i] = rank;
    k = std::max(k, rank + 1);
  }
  return k;
}

}  // namespace mmsim
