// A map of one's own through its table (hw/memory/tabulated_map.hpp): each row is asked of the
// user's code once, the first time it is needed, and must be a permutation of 0..w-1.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <stdexcept>
#include <vector>

#include "hw/memory/tabulated_map.hpp"
#include "hw/memory/xor_map.hpp"

namespace mmsim::test {
namespace {

using Formula = std::function<std::int64_t(std::uint64_t row, std::uint64_t column)>;

// Bank (k + j) mod w, the skew, for any w.
Formula skew(unsigned w) {
  return [w](std::uint64_t row, std::uint64_t column) {
    return static_cast<std::int64_t>((column + row) % w);
  };
}

// Rows by `formula`, `block` rows a call, counting the calls of each row and recording each
// call's (first, count); `broken_row`'s banks are `broken` instead.
class CountingRows final : public RowSource {
 public:
  CountingRows(std::vector<unsigned>& calls, Formula formula, std::uint64_t broken_row = ~0ull,
               std::vector<std::int64_t> broken = {}, std::uint64_t block = 1,
               std::vector<std::pair<std::uint64_t, std::uint64_t>>* blocks = nullptr)
      : calls_(calls),
        formula_(std::move(formula)),
        broken_row_(broken_row),
        broken_(std::move(broken)),
        block_(block),
        blocks_(blocks) {}
  std::string name() const override { return "counting"; }
  std::uint64_t block_rows() const override { return block_; }
  std::span<const std::int64_t> banks(std::uint64_t first, std::uint64_t count,
                                      std::span<std::int64_t> banks) override {
    if (blocks_ != nullptr) blocks_->emplace_back(first, count);
    const std::size_t w = banks.size() / count;
    EXPECT_EQ(banks.size(), count * w);
    for (std::uint64_t row = first; row < first + count; ++row) {
      ++calls_.at(row);
      for (std::size_t k = 0; k < w; ++k)
        banks[(row - first) * w + k] = row == broken_row_ ? broken_.at(k) : formula_(row, k);
    }
    return banks;
  }
  [[noreturn]] void refuse(std::uint64_t row, std::span<const std::int64_t> banks,
                           const std::string& problem) override {
    EXPECT_EQ(banks.size(), 4u);
    throw std::runtime_error("row " + std::to_string(row) + ": " + problem);
  }

 private:
  std::vector<unsigned>& calls_;
  Formula formula_;
  std::uint64_t broken_row_;
  std::vector<std::int64_t> broken_;
  std::uint64_t block_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>>* blocks_;
};

TEST(TabulatedMap, AsksEachRowOnceWhenFirstNeededAndMapsAsItsRows) {
  for (const unsigned w : {4u, 6u, 32u}) {
    const std::uint64_t rows = 50;
    std::vector<unsigned> calls(rows);
    const TabulatedMap map(
        std::make_shared<RowTable>(w, rows, std::make_unique<CountingRows>(calls, skew(w))));
    EXPECT_EQ(map.name(), "counting");
    // Rows 10..19 only, three times over, lane by lane and by dispatch.
    std::vector<Address> lanes;
    for (int pass = 0; pass < 3; ++pass)
      for (Address a = 10 * w; a < 20 * w; ++a) lanes.push_back(a);
    lanes.push_back(kInactive);
    std::vector<Address> cells(lanes.size());
    map.locate(lanes, cells);
    for (std::size_t i = 0; i + 1 < lanes.size(); ++i) {
      const Address row = lanes[i] / w;
      const Address column = lanes[i] % w;
      ASSERT_EQ(cells[i], row * w + (column + row) % w) << "w=" << w << " a=" << lanes[i];
      ASSERT_EQ(map.cell(lanes[i]), cells[i]);
    }
    EXPECT_EQ(cells.back(), kInactive);
    for (std::uint64_t row = 0; row < rows; ++row)
      EXPECT_EQ(calls[row], row >= 10 && row < 20 ? 1u : 0u) << "w=" << w << " row " << row;
    map.look_up_all_rows();
    for (std::uint64_t row = 0; row < rows; ++row) EXPECT_EQ(calls[row], 1u) << "row " << row;
  }
}

TEST(TabulatedMap, AsksTheAlignedBlockOfARowOnceAndTheLastBlockIsShort) {
  const unsigned w = 4;
  const std::uint64_t rows = 50;
  std::vector<unsigned> calls(rows);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> blocks;
  const TabulatedMap map(std::make_shared<RowTable>(
      w, rows,
      std::make_unique<CountingRows>(calls, skew(w), ~0ull, std::vector<std::int64_t>{}, 8,
                                     &blocks)));
  // Rows 10..19, twice over: blocks 8..15 and 16..23, once each.
  for (int pass = 0; pass < 2; ++pass)
    for (Address a = 10 * w; a < 20 * w; ++a)
      ASSERT_EQ(map.cell(a), a / w * w + (a % w + a / w) % w) << "a=" << a;
  using Blocks = std::vector<std::pair<std::uint64_t, std::uint64_t>>;
  EXPECT_EQ(blocks, (Blocks{{8, 8}, {16, 8}}));
  for (std::uint64_t row = 0; row < rows; ++row)
    EXPECT_EQ(calls[row], row >= 8 && row < 24 ? 1u : 0u) << "row " << row;
  map.look_up_all_rows();
  EXPECT_EQ(blocks, (Blocks{{8, 8}, {16, 8}, {0, 8}, {24, 8}, {32, 8}, {40, 8}, {48, 2}}));
  for (std::uint64_t row = 0; row < rows; ++row) EXPECT_EQ(calls[row], 1u) << "row " << row;
}

TEST(TabulatedMap, ABlockHoldsAtMostTwoToTheSixteenCells) {
  const unsigned w = 8192;  // 2^16 / w = 8 rows a block, whatever the source asks
  std::vector<unsigned> calls(20);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> blocks;
  const TabulatedMap map(std::make_shared<RowTable>(
      w, 20,
      std::make_unique<CountingRows>(calls, skew(w), ~0ull, std::vector<std::int64_t>{}, 1024,
                                     &blocks)));
  EXPECT_EQ(map.cell(9 * w + 5), 9 * w + (5 + 9) % w);
  using Blocks = std::vector<std::pair<std::uint64_t, std::uint64_t>>;
  EXPECT_EQ(blocks, (Blocks{{8, 8}}));
}

TEST(TabulatedMap, AUserXorMapsAsTheBuiltInXor) {
  const unsigned w = 16;
  const std::uint64_t rows = 64;
  std::vector<unsigned> calls(rows);
  const Formula xor_formula = [](std::uint64_t row, std::uint64_t column) {
    return static_cast<std::int64_t>(column ^ (row % w));
  };
  const TabulatedMap own(
      std::make_shared<RowTable>(w, rows, std::make_unique<CountingRows>(calls, xor_formula)));
  const XorMap xor_map(w);
  std::vector<Address> lanes(rows * w);
  for (Address a = 0; a < lanes.size(); ++a) lanes[a] = (a * 37) % lanes.size();
  std::vector<Address> mine(lanes.size());
  std::vector<Address> built_in(lanes.size());
  own.locate(lanes, mine);
  xor_map.locate(lanes, built_in);
  EXPECT_EQ(mine, built_in);
}

TEST(TabulatedMap, RefusesARowThatIsNotAPermutation) {
  struct Broken {
    std::vector<std::int64_t> banks;
    std::string problem;
  };
  for (const Broken& b : {Broken{{0, 0, 1, 2}, "bank 0 appears twice: not a permutation of 0..3"},
                          Broken{{0, 1, 2, 4}, "column 3's bank 4 is not one of 0..3"},
                          Broken{{0, -1, 2, 3}, "column 1's bank -1 is not one of 0..3"}}) {
    // A row alone, and inside a block of 4 rows (rows 4..7, row 4 right).
    for (const std::uint64_t block : {1u, 4u}) {
      std::vector<unsigned> calls(8);
      const TabulatedMap map(std::make_shared<RowTable>(
          4, 8, std::make_unique<CountingRows>(calls, skew(4), 5, b.banks, block)));
      EXPECT_EQ(map.cell(0 * 4 + 1), 0 * 4 + (1 + 0) % 4);
      // Row 4 is right: alone it is kept; with row 5 in its block, the block is refused.
      if (block == 1)
        EXPECT_EQ(map.cell(4 * 4 + 2), 4 * 4 + (2 + 4) % 4);
      else
        EXPECT_THROW(map.cell(4 * 4 + 2), std::runtime_error);
      try {
        map.cell(5 * 4 + 2);
        FAIL() << "row 5 accepted, block " << block;
      } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()), "row 5: " + b.problem);
      }
    }
  }
}

}  // namespace
}  // namespace mmsim::test
