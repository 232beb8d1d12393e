#include "hw/memory/tabulated_map.hpp"

#include <algorithm>

namespace mmsim {

RowTable::RowTable(unsigned width, std::uint64_t rows, std::unique_ptr<RowSource> source)
    : width_(width),
      rows_(rows),
      source_(std::move(source)),
      banks_(rows * width),
      filled_(rows),
      row_(width),
      seen_((width + 63) / 64) {}

void RowTable::fill(std::uint64_t row) {
  source_->banks(row, row_);
  // A permutation of 0..w-1: every bank below w, none twice (a bit per bank).
  std::fill(seen_.begin(), seen_.end(), 0);
  for (unsigned k = 0; k < width_; ++k) {
    const std::int64_t bank = row_[k];
    if (bank < 0 || bank >= std::int64_t{width_})
      source_->refuse(row, row_,
                      "column " + std::to_string(k) + "'s bank " + std::to_string(bank) +
                          " is not one of 0.." + std::to_string(width_ - 1));
    std::uint64_t& word = seen_[static_cast<std::size_t>(bank) / 64];
    const std::uint64_t bit = std::uint64_t{1} << (bank % 64);
    if ((word & bit) != 0)
      source_->refuse(row, row_,
                      "bank " + std::to_string(bank) + " appears twice: not a permutation of 0.." +
                          std::to_string(width_ - 1));
    word |= bit;
  }
  std::uint16_t* out = &banks_[row * width_];
  for (unsigned k = 0; k < width_; ++k) out[k] = static_cast<std::uint16_t>(row_[k]);
  filled_[row] = 1;
}

void RowTable::fill_all() {
  for (std::uint64_t row = 0; row < rows_; ++row)
    if (!filled_[row]) fill(row);
}

}  // namespace mmsim
