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

// Rows by `formula`, counting the calls; `broken_row`'s banks are `broken` instead.
class CountingRows final : public RowSource {
 public:
  CountingRows(std::vector<unsigned>& calls, Formula formula, std::uint64_t broken_row = ~0ull,
               std::vector<std::int64_t> broken = {})
      : calls_(calls),
        formula_(std::move(formula)),
        broken_row_(broken_row),
        broken_(std::move(broken)) {}
  std::string name() const override { return "counting"; }
  void banks(std::uint64_t row, std::span<std::int64_t> banks) override {
    ++calls_.at(row);
    for (std::size_t k = 0; k < banks.size(); ++k)
      banks[k] = row == broken_row_ ? broken_.at(k) : formula_(row, k);
  }
  [[noreturn]] void refuse(std::uint64_t row, std::span<const std::int64_t>,
                           const std::string& problem) override {
    throw std::runtime_error("row " + std::to_string(row) + ": " + problem);
  }

 private:
  std::vector<unsigned>& calls_;
  Formula formula_;
  std::uint64_t broken_row_;
  std::vector<std::int64_t> broken_;
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
    std::vector<unsigned> calls(8);
    const TabulatedMap map(std::make_shared<RowTable>(
        4, 8, std::make_unique<CountingRows>(calls, skew(4), 5, b.banks)));
    EXPECT_EQ(map.cell(4 * 4 + 1), 4 * 4 + (1 + 4) % 4);
    try {
      map.cell(5 * 4 + 2);
      FAIL() << "row 5 accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()), "row 5: " + b.problem);
    }
  }
}

}  // namespace
}  // namespace mmsim::test
