#include "hw/mmu/request_packing_unit.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include "hw/support/vector_isa.hpp"

namespace mmsim {
namespace {

// Marking and summing columns costs about cells/32 vector steps besides two stores per lane:
// worth it while the memory is small next to the dispatch (and has at most 255 rows).
constexpr std::uint64_t kColumnsPerLane = 32;
constexpr std::uint64_t kColumnRows = 255;
// Cells summed side by side when rows are narrower than a vector.
constexpr std::size_t kBlock = 32;
// Beyond this many requests in one bank, sorting them costs more than pack().
constexpr std::size_t kSortLimit = 64;
// Memories up to this many cells keep a 16-bit stamp per cell (256 KiB at most).
constexpr std::uint64_t kStampCells = std::uint64_t{1} << 17;
// count_stamped counts a dispatch's requests and distinct addresses per bank in 16 bits each, and
// keeps requests pending in 16 bits: for dispatches of at most this many lanes.
constexpr std::size_t kMostStampedLanes = 0xFFFF;
// Up to this many banks, count_stamped's per-dispatch counts live on the stack, which stays in
// the first-level cache (an array of the unit's own has left it between two of its dispatches).
constexpr unsigned kStackBanks = 32;
// Four of those counts, to zero them a vector at a time (GCC lets a vector type alias its
// elements).
using FourCounts = std::uint32_t __attribute__((vector_size(16)));
// The width of most configs (the thesis' machines): count_stamped's last pass has a constant
// trip count there.
constexpr unsigned kUsualWidth = 32;

// Dispatches with an inactive lane are the rarer kind: one vectorised test picks the loop.
bool all_active(std::span<const Address> cells) { return inactive_lanes(cells) == 0; }

// Whether every lane sends the same address (a broadcast: the first steps of a search, as in
// sorting, send a third of its dispatches to shared memory so).
bool one_address(std::span<const Address> cells) {
  const Address first = cells.front();
  if (cells.back() != first) return false;  // most other dispatches show it at once
  return with_vector_isa([cells, first] {
    Address differ = 0;
    for (const Address c : cells) differ |= c ^ first;
    return differ == 0;
  });
}

}  // namespace

RequestPackingUnit::RequestPackingUnit(unsigned width, std::size_t max_lanes, std::uint64_t cells)
    : StageSplitter(width),
      seen_(max_lanes),
      bank_count_(width, 0),
      bank_stamp_(width, 0),
      banks_(width, 0) {
  const std::uint64_t rows = (cells + width - 1) / width;
  if (cells > 0 && cells <= kColumnsPerLane * max_lanes && rows <= kColumnRows) {
    counting_ = Counting::columns;
    marked_.assign(rows * width, 0);
    column_count_.assign(width, 0);
  } else if (cells > 0 && rows * width <= kStampCells && max_lanes <= kMostStampedLanes) {
    counting_ = Counting::stamped;
    stamps_.assign(rows * width, 0);
    cell_stamps_ = stamps_.data();
    pending_requests_.assign(width, 0);
    pending_ = pending_requests_.data();
    if (width > kStackBanks) tally_.assign(width, 0);
  } else {
    counting_ = Counting::busiest;
    in_bank_.assign((max_lanes + 7) / 8 * 8, 0);  // whole words of marks
    busiest_.assign(kSortLimit, 0);
  }
}

// Every active lane in a bank of its own means one stage, whatever the addresses (w <= 64):
// then the active lanes light as many distinct banks as there are lanes.
template <class Bank>
std::uint64_t RequestPackingUnit::conflict_free_banks(std::span<const Address> cells,
                                                      Bank bank) const {
  std::uint64_t used = 0;
  std::uint64_t active = 0;
  const Address* c = cells.data();
  const std::size_t n = cells.size();
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t on = c[i] != kInactive;
    used |= on << bank(c[i]);
    active += on;
  }
  return static_cast<std::uint64_t>(std::popcount(used)) == active ? used : 0;
}

void RequestPackingUnit::add_run(std::vector<std::uint64_t>& to, std::uint64_t banks,
                                 std::uint64_t length) {
  for (; banks != 0; banks &= banks - 1) to[std::countr_zero(banks)] += length;
}

template <bool Count>
unsigned RequestPackingUnit::split(std::span<const Address> cells, std::optional<bool> active) {
  const Divider& d = divider();
  const auto count = [&](auto bank) {
    // More lanes than banks are rarely conflict-free (super warps): go straight to counting.
    // The conflict-free test is skipped for a while after it fails: 2^f - 1 dispatches after f
    // failures in a row (f at most kMostMisses), so that runs of conflicted dispatches, or of
    // broadcasts (as in sorting), rarely pay for it.
    if (width() <= 64 && cells.size() <= width()) {
      if (conflict_free_skips_ == 0) {
        if (const std::uint64_t used = conflict_free_banks(cells, bank); used != 0) {
          conflict_free_misses_ = 0;
          if constexpr (Count) count_banks(used);
          return 1u;
        }
        conflict_free_misses_ = std::min<std::uint8_t>(conflict_free_misses_ + 1, kMostMisses);
        conflict_free_skips_ = static_cast<std::uint8_t>((1u << conflict_free_misses_) - 1);
      } else {
        --conflict_free_skips_;
      }
    }
    // Scanned here, in the vectorised variant, when the caller does not know.
    const bool all = active.has_value() ? *active : all_active(cells);
    switch (counting_) {
      case Counting::columns:
        return count_columns<Count>(cells, bank, all);
      case Counting::stamped:
        return count_stamped<Count>(cells, bank, all);
      case Counting::busiest:
        break;
    }
    return count_busiest<Count>(cells, bank, all);
  };
  return d.power_of_two()
             ? with_vector_isa(
                   [&] { return count([mask = d.divisor() - 1](Address c) { return c & mask; }); })
             : with_vector_isa([&] { return count([&d](Address c) { return d.remainder(c); }); });
}

unsigned RequestPackingUnit::stages(std::span<const Address> cells) {
  return split<false>(cells, std::nullopt);
}

unsigned RequestPackingUnit::count_stages(std::span<const Address> cells, unsigned active) {
  const bool all = active == cells.size();
  if (all && one_address(cells)) {  // a broadcast: one request, in one bank
    banks_[bank(cells.front())] += cells.size();
    return 1;
  }
  return split<true>(cells, all);
}

unsigned RequestPackingUnit::count_consecutive_stages(Address first_cell, unsigned n) {
  const unsigned w = width();
  if (n > w || w > 64) return split<true>(consecutive_cells(first_cell, n), true);
  // Banks bank(c), bank(c) + 1, ... (mod w): n bits from bit bank(c), wrapped around at w.
  const std::uint64_t lanes = n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
  const unsigned first = bank(first_cell);
  const std::uint64_t banks =
      w == 64 ? std::rotl(lanes, static_cast<int>(first))
              : ((lanes << first) | (lanes >> (w - first))) & ((std::uint64_t{1} << w) - 1);
  count_banks(banks);
  return 1;
}

RequestSpread RequestPackingUnit::spread() const {
  RequestSpread out{.banks = banks_};
  add_run(out.banks, run_banks_, run_length_);
  if (pending_ != nullptr)
    for (unsigned b = 0; b < width(); ++b) out.banks[b] += pending_[b];
  return out;
}

void RequestPackingUnit::add_pending() {
  for (unsigned b = 0; b < width(); ++b) {
    banks_[b] += pending_[b];
    pending_[b] = 0;
  }
  pending_lanes_ = 0;
}

template <bool Count, class Bank>
unsigned RequestPackingUnit::count_columns(std::span<const Address> cells, Bank bank,
                                           bool active) {
  std::uint8_t* marked = marked_.data();
  const Address* c = cells.data();
  const std::size_t n = cells.size();
  const auto mark = [&](std::uint8_t value) {
    if (active) {
#pragma GCC unroll 4
      for (std::size_t i = 0; i < n; ++i) marked[c[i]] = value;
    } else {
      for (std::size_t i = 0; i < n; ++i)
        if (c[i] != kInactive) marked[c[i]] = value;
    }
  };
  mark(1);
  if constexpr (Count) {  // the marks merge requests: count the lanes themselves
    std::uint64_t* banks = banks_.data();
    for (std::size_t i = 0; i < n; ++i)
      if (c[i] != kInactive) ++banks[bank(c[i])];
  }
  // At most 255 rows: a column's count fits its byte, and the sums are byte-wide vector adds.
  std::uint8_t* __restrict column = column_count_.data();
  const unsigned w = width();
  const std::size_t size = marked_.size();
  if (kBlock % w == 0 && size % kBlock == 0) {
    // Narrow rows: sum whole blocks of kBlock cells (kBlock/w rows each), then fold the block.
    std::uint8_t block[kBlock] = {};
    for (std::size_t at = 0; at < size; at += kBlock)
      for (std::size_t j = 0; j < kBlock; ++j) block[j] += marked[at + j];
    std::fill(column, column + w, 0);
    for (std::size_t j = 0; j < kBlock; ++j) column[j % w] += block[j];
  } else {
    std::fill(column, column + w, 0);
    for (std::size_t row = 0; row < size; row += w)
      for (unsigned b = 0; b < w; ++b) column[b] += marked[row + b];
  }
  // Clearing the whole (small) array is cheaper than one store per lane when lanes outnumber
  // its vector-sized pieces.
  if (size <= n * kBlock)
    std::memset(marked, 0, size);
  else
    mark(0);
  return *std::max_element(column, column + w);
}

template <bool Count, class Bank>
unsigned RequestPackingUnit::count_stamped(std::span<const Address> cells, Bank bank,
                                           bool active) {
  if (++cell_generation_ == 0) {  // wrapped: forget every old stamp for real
    std::fill(stamps_.begin(), stamps_.end(), 0);
    cell_generation_ = 1;
  }
  const Address* c = cells.data();
  const std::size_t n = cells.size();  // at most kMostStampedLanes
  if constexpr (Count) {
    if (pending_lanes_ + n > kMostStampedLanes) add_pending();
    pending_lanes_ += static_cast<std::uint32_t>(n);
  }
  // Per bank of this dispatch, one addition per lane: with Count its requests in the low 16 bits
  // and its distinct addresses above them, else the distinct addresses alone.
  constexpr std::uint32_t kRequest = Count ? 1 : 0;
  constexpr unsigned kDistinct = Count ? 16 : 0;
  const unsigned w = width();
  // The zero comes through an empty asm statement that hides its value: GCC would make the
  // stores of a known zero a `rep stos`, whose start costs more than these eight stores.
  FourCounts zero{};
  __asm__("" : "+x"(zero));
  FourCounts on_stack[kStackBanks / 4];
  for (FourCounts& counts : on_stack) counts = zero;
  std::uint32_t* tally = w <= kStackBanks ? reinterpret_cast<std::uint32_t*>(on_stack)
                                          : tally_.data();  // tally_: zero between calls
  const std::uint16_t now = cell_generation_;
  std::uint16_t* stamp = cell_stamps_;
  const auto lane = [&](Address c) {
    const std::uint32_t fresh = stamp[c] != now;  // a distinct address of the bank
    stamp[c] = now;
    tally[bank(c)] += kRequest | fresh << kDistinct;
  };
  if (active) {
#pragma GCC unroll 4
    for (std::size_t i = 0; i < n; ++i) lane(c[i]);
  } else if (n <= 64) {
    // The active lanes as a mask (one vectorised pass), then those lanes alone: no branch per
    // lane, which a predictor cannot learn (as the scans of sorting stop, lanes drop out).
    for (std::uint64_t on = active_lane_mask(cells); on != 0; on &= on - 1)
      lane(c[std::countr_zero(on)]);
  } else {
    for (std::size_t i = 0; i < n; ++i)
      if (c[i] != kInactive) lane(c[i]);
  }
  // The busiest bank and the requests, clearing the tally (tally_ must be zero at the next call)
  // in one vectorised pass, at the usual width without a remainder.
  const auto pass = [&](unsigned banks) {
    std::uint32_t most = 0;
    [[maybe_unused]] std::uint16_t* __restrict pending = pending_;
    for (unsigned b = 0; b < banks; ++b) {
      most = std::max(most, tally[b] >> kDistinct);
      if constexpr (Count) pending[b] += static_cast<std::uint16_t>(tally[b]);
      tally[b] = 0;
    }
    return most;
  };
  return w == kUsualWidth ? pass(kUsualWidth) : pass(w);
}

template <bool Count, class Bank>
unsigned RequestPackingUnit::count_busiest(std::span<const Address> cells, Bank bank,
                                           bool active) {
  std::uint32_t* count = bank_count_.data();
  const unsigned w = width();
  std::fill(count, count + w, 0);
  const Address* c = cells.data();
  const std::size_t n = cells.size();
  if (active) {
#pragma GCC unroll 4
    for (std::size_t i = 0; i < n; ++i) ++count[bank(c[i])];
  } else {
    for (std::size_t i = 0; i < n; ++i)
      if (c[i] != kInactive) ++count[bank(c[i])];
  }
  unsigned most = 0;
  std::uint64_t* banks = banks_.data();
  for (unsigned b = 0; b < w; ++b) {
    most = std::max(most, count[b]);
    if constexpr (Count) banks[b] += count[b];
  }
  if (most <= 1) return most;
  // Distinct addresses of the banks with `level` requests, from the busiest level down while a
  // bank there could still beat the best count found; each pass finds the next level that some
  // bank has (a broadcast puts all its requests in one bank, with every level below it empty).
  unsigned best = 0;
  for (unsigned level = most; level > best;) {
    if (level > kSortLimit) return pack(cells, {});
    unsigned below = 0;  // the most requests of a bank under this level: the next level
    for (unsigned b = 0; b < w; ++b) {
      if (count[b] < level) below = std::max(below, count[b]);
      if (count[b] != level) continue;
      // The bank's lanes: a vectorised comparison marks them, a scan of the marks collects them.
      std::uint8_t* in_bank = in_bank_.data();
      for (std::size_t i = 0; i < n; ++i) in_bank[i] = (bank(c[i]) == b) & (c[i] != kInactive);
      Address* found = busiest_.data();
      std::size_t m = 0;
      for (std::size_t i = 0; i < n; i += 8) {
        std::uint64_t marks;
        std::memcpy(&marks, in_bank + i, sizeof marks);
        if (n - i < 8) marks &= (std::uint64_t{1} << (8 * (n - i))) - 1;  // not past the lanes
        for (; marks != 0; marks &= marks - 1)
          found[m++] = c[i + static_cast<std::size_t>(std::countr_zero(marks)) / 8];
      }
      std::sort(found, found + m);
      const auto distinct = static_cast<unsigned>(std::unique(found, found + m) - found);
      best = std::max(best, distinct);
      if (best == level) return best;
    }
    level = below;
  }
  // pack() starts a new stamp, so the counts left here are never read as its own.
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
