#include "hw/request_packing_unit.hpp"

#include <algorithm>
#include <bit>

namespace mmsim {
namespace {

// Marking and summing columns costs about cells/32 vector steps besides one store per lane:
// worth it while the memory is small next to the dispatch.
constexpr std::uint64_t kColumnsPerLane = 16;
// Beyond this many requests in one bank, checking them pairwise costs more than pack().
constexpr std::size_t kPairwiseLimit = 64;

}  // namespace

RequestPackingUnit::RequestPackingUnit(unsigned width, std::size_t max_lanes, std::uint64_t cells)
    : StageSplitter(width), seen_(max_lanes), bank_count_(width, 0), bank_stamp_(width, 0) {
  if (cells > 0 && cells <= kColumnsPerLane * max_lanes) {
    marked_.assign((cells + width - 1) / width * width, 0);
  } else {
    bank_list_.assign(width, 0);
    next_lane_.assign(max_lanes, 0);
    busiest_.reserve(kPairwiseLimit);
  }
}

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
  const Divider& d = divider();
  const auto count = [&](auto bank) {
    // More lanes than banks are rarely conflict-free (super warps): go straight to counting.
    if (width() <= 64 && cells.size() <= width() && conflict_free(cells, bank)) return 1u;
    return marked_.empty() ? count_busiest(cells, bank) : count_columns(cells);
  };
  if (d.power_of_two()) return count([mask = d.divisor() - 1](Address c) { return c & mask; });
  return count([&d](Address c) { return d.remainder(c); });
}

unsigned RequestPackingUnit::count_columns(std::span<const Address> cells) {
  std::uint8_t* marked = marked_.data();
  const Address* c = cells.data();
  const std::size_t n = cells.size();
  for (std::size_t i = 0; i < n; ++i)
    if (c[i] != kInactive) marked[c[i]] = 1;
  std::uint32_t* column = bank_count_.data();
  const unsigned w = width();
  std::fill(column, column + w, 0);
  for (std::size_t row = 0; row < marked_.size(); row += w)
    for (unsigned b = 0; b < w; ++b) column[b] += marked[row + b];
  for (std::size_t i = 0; i < n; ++i)
    if (c[i] != kInactive) marked[c[i]] = 0;
  // pack() starts a new stamp, so the counts left here are never read as its own.
  return *std::max_element(column, column + w);
}

template <class Bank>
unsigned RequestPackingUnit::count_busiest(std::span<const Address> cells, Bank bank) {
  std::uint64_t* list = bank_list_.data();
  std::fill(bank_list_.begin(), bank_list_.end(), 0);
  std::uint32_t* next = next_lane_.data();
  const Address* c = cells.data();
  const std::size_t n = cells.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (c[i] == kInactive) continue;
    const std::uint64_t entry = list[bank(c[i])];
    next[i] = static_cast<std::uint32_t>(entry);
    list[bank(c[i])] = ((entry >> 32) + 1) << 32 | (i + 1);
  }
  const auto most = static_cast<unsigned>(*std::max_element(list, list + width()) >> 32);
  if (most <= 1) return most;
  unsigned best = 0;
  for (unsigned level = most; level > best; --level) {
    if (level > kPairwiseLimit) return pack(cells, {});
    for (unsigned b = 0; b < width(); ++b) {
      if (list[b] >> 32 != level) continue;
      busiest_.clear();
      for (auto lane = static_cast<std::uint32_t>(list[b]); lane != 0; lane = next[lane - 1])
        busiest_.push_back(c[lane - 1]);
      unsigned distinct = 0;
      for (std::size_t i = 0; i < busiest_.size(); ++i)
        distinct += std::find(busiest_.begin(), busiest_.begin() + i, busiest_[i]) ==
                    busiest_.begin() + i;
      best = std::max(best, distinct);
      if (best == level) return best;
    }
  }
  return best;
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
