#include "hw/memory/tabulated_map.hpp"

#include <algorithm>

#include "hw/support/vector_isa.hpp"

namespace mmsim {

RowTable::RowTable(unsigned width, std::uint64_t rows, std::unique_ptr<RowSource> source)
    : width_(width),
      rows_(rows),
      source_(std::move(source)),
      block_(std::clamp<std::uint64_t>(source_->block_rows(), 1,
                                       std::max<std::uint64_t>(kMaxBlockCells / width, 1))),
      banks_(rows * width),
      filled_(rows),
      scratch_(std::min(block_, std::max<std::uint64_t>(rows, 1)) * width),
      seen_((width + 63) / 64) {}

unsigned RowTable::first_bank(std::uint64_t cell) {
  const std::uint64_t row = cell / width_;
  if (!filled_[row]) fill(row);
  return static_cast<std::uint16_t>(banks_[cell] - 1u);
}

void RowTable::fill(std::uint64_t row) {
  // Blocks are aligned, so a block's rows are all filled or none is.
  const std::uint64_t first = row - row % block_;
  const std::uint64_t count = std::min(block_, rows_ - first);
  const std::span<const std::int64_t> cells =
      source_->banks(first, count, std::span(scratch_.data(), count * width_));
  if (!keep_permutations(first, count, cells)) {
    try {
      for (std::uint64_t i = 0; i < count; ++i) keep(first + i, cells.subspan(i * width_, width_));
    } catch (...) {
      std::fill_n(&banks_[first * width_], count * width_, std::uint16_t{0});  // none kept
      throw;
    }
  }
  std::fill_n(&filled_[first], count, std::uint8_t{1});  // the whole block, once all are right
}

bool RowTable::keep_permutations(std::uint64_t first, std::uint64_t count,
                                 std::span<const std::int64_t> cells) {
  if (width_ > 64) return false;
  const unsigned w = width_;
  const std::uint64_t all = w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1;
  std::uint16_t* out = &banks_[first * w];
  const std::int64_t* in = cells.data();
  // w banks below w that set w distinct bits are a permutation: no branch per bank, one loop
  // that vectorises.
  return with_vector_isa([=] {
    bool right = true;
    for (std::uint64_t r = 0; r < count; ++r) {
      std::uint64_t seen = 0;
      std::uint64_t top = 0;
      for (unsigned k = 0; k < w; ++k) {
        const auto bank = static_cast<std::uint64_t>(in[r * w + k]);
        top = std::max(top, bank);
        seen |= std::uint64_t{1} << (bank & 63);
        out[r * w + k] = static_cast<std::uint16_t>(bank + 1);
      }
      right &= top < w && seen == all;
    }
    return right;
  });
}

void RowTable::keep(std::uint64_t row, std::span<const std::int64_t> banks) {
  // A permutation of 0..w-1: every bank below w, none twice (a bit per bank).
  std::fill(seen_.begin(), seen_.end(), 0);
  for (unsigned k = 0; k < width_; ++k) {
    const std::int64_t bank = banks[k];
    if (bank < 0 || bank >= std::int64_t{width_})
      source_->refuse(row, banks,
                      "column " + std::to_string(k) + "'s bank " + std::to_string(bank) +
                          " is not one of 0.." + std::to_string(width_ - 1));
    std::uint64_t& word = seen_[static_cast<std::size_t>(bank) / 64];
    const std::uint64_t bit = std::uint64_t{1} << (bank % 64);
    if ((word & bit) != 0)
      source_->refuse(row, banks,
                      "bank " + std::to_string(bank) + " appears twice: not a permutation of 0.." +
                          std::to_string(width_ - 1));
    word |= bit;
  }
  std::uint16_t* out = &banks_[row * width_];
  for (unsigned k = 0; k < width_; ++k) out[k] = static_cast<std::uint16_t>(banks[k] + 1);
}

void RowTable::fill_all() {
  for (std::uint64_t row = 0; row < rows_; ++row)
    if (!filled_[row]) fill(row);
}

}  // namespace mmsim
