// A map of one's own (a Python class, a C++ plugin's map: docs/own_maps.md) as the machine runs
// it: the banks of each row are asked of the user's code once, the first time the row is needed,
// checked to be a permutation of 0..w-1 and kept in a table, so that the hot path reads a table
// as the random shift does (no call into the user's code per request). The memories of the
// hierarchical machine's multiprocessors share one table.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "hw/memory/address_map.hpp"
#include "hw/support/huge_pages.hpp"

namespace mmsim {

// Where a map of one's own gets the banks of its rows: one row at a time, or a block of rows
// at a time where one call for many rows costs less than many calls (a Python map's
// banks_block).
class RowSource {
 public:
  virtual ~RowSource() = default;
  // The map's name (a class's, a plugin map's).
  virtual std::string name() const = 0;
  // The rows one call gives: the rows are asked in aligned blocks of this many (the memory's
  // last block may be shorter); 1 asks each row alone, when it is first needed.
  virtual std::uint64_t block_rows() const { return 1; }
  // The banks of the w columns of rows first .. first + count - 1 (column k of row first + i
  // at [i * w + k]), every one of them; RowTable checks them. The source writes them into
  // `scratch` and returns it, or returns memory of its own that stays as it is until its next
  // call (a numpy array read where it lies: no copy). Throws the user's own error (located by
  // the source).
  virtual std::span<const std::int64_t> banks(std::uint64_t first, std::uint64_t count,
                                              std::span<std::int64_t> scratch) = 0;
  // Throws the error of a row whose banks are not a permutation of 0..w-1, `problem` saying why.
  [[noreturn]] virtual void refuse(std::uint64_t row, std::span<const std::int64_t> banks,
                                   const std::string& problem) = 0;
};

// The banks of every row of a memory of `rows` rows of `width` words, each asked of the source
// at most once: with the block that holds it when first needed, or all at once by fill_all().
class RowTable {
 public:
  // A block holds at most this many cells, whatever the source asks: w = 2^16 takes one row.
  static constexpr std::uint64_t kMaxBlockCells = std::uint64_t{1} << 16;

  RowTable(unsigned width, std::uint64_t rows, std::unique_ptr<RowSource> source);

  unsigned width() const { return width_; }
  std::uint64_t rows() const { return rows_; }
  const RowSource& source() const { return *source_; }

  // The bank of cell `cell` = row * width + column: column `column` of row `row` (row < rows,
  // column < width). The cell's index is the address when the map is the identity, so with w a
  // power of two the address itself is looked up.
  // `kept` is cells(), which the caller keeps in a register.
  unsigned bank(const std::uint16_t* kept, std::uint64_t cell) {
    if (kept[cell] == 0) [[unlikely]]
      return first_bank(cell);
    return kept[cell] - 1u;
  }
  // Its cells, each bank + 1 (0: not asked yet); they stay where they are.
  const std::uint16_t* cells() const { return banks_.data(); }
  // Every row now: from then on the table is only read (threads may share it).
  void fill_all();

 private:
  // bank() where the table holds 0: a row not asked yet (asked now), or bank 2^16 - 1.
  [[gnu::noinline]] unsigned first_bank(std::uint64_t cell);
  // Asks the source for the block that holds `row`.
  void fill(std::uint64_t row);
  // Writes the block's rows into the table: true when each is a permutation of 0..w-1 (checked
  // at once, for w <= 64), else some may not be, or w is larger.
  bool keep_permutations(std::uint64_t first, std::uint64_t count,
                         std::span<const std::int64_t> cells);
  // Checks row `row`'s banks (a permutation of 0..w-1: refused, with why, if not) and writes
  // them into the table.
  void keep(std::uint64_t row, std::span<const std::int64_t> banks);

  unsigned width_;
  std::uint64_t rows_;
  std::unique_ptr<RowSource> source_;
  std::uint64_t block_;  // rows asked at once
  // Row-major, each bank + 1 (mod 2^16: w <= 2^16), so that 0 is a row not asked yet and the
  // hot path reads one array; pages are taken as rows are filled.
  HugePageArray<std::uint16_t> banks_;
  HugePageArray<std::uint8_t> filled_;
  std::vector<std::int64_t> scratch_;  // where the source may write a block
  std::vector<std::uint64_t> seen_;    // banks met in the row being checked, a bit each
};

class TabulatedMap final : public RowPermutation<TabulatedMap> {
 public:
  explicit TabulatedMap(std::shared_ptr<RowTable> table)
      : RowPermutation(table->width()), table_(std::move(table)) {}

  template <bool kPowerOfTwo>
  auto rule() const {
    // With pow2 the column is the whole address, which is row * w + column: the cell to look
    // up, with no arithmetic.
    return [table = table_.get(), kept = table_->cells(), w = Address{width()}](Address row,
                                                                                Address column) {
      return Address{table->bank(kept, kPowerOfTwo ? column : row * w + column)};
    };
  }
  std::string name() const override { return table_->source().name(); }
  void look_up_all_rows() const override { table_->fill_all(); }

 private:
  std::shared_ptr<RowTable> table_;
};

}  // namespace mmsim
