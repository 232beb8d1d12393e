// The one bounded draw of mmsim (hw/support/random.hpp): Lemire's multiply-and-reject, exact for
// 32- and 64-bit generators.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <vector>

#include "hw/support/random.hpp"

namespace mmsim::test {
namespace {

// Replays the given words.
template <class Word>
class Replay {
 public:
  using result_type = Word;
  explicit Replay(std::vector<Word> words) : words_(std::move(words)) {}
  static constexpr Word min() { return 0; }
  static constexpr Word max() { return std::numeric_limits<Word>::max(); }
  Word operator()() { return words_.at(next_++); }
  std::size_t used() const { return next_; }

 private:
  std::vector<Word> words_;
  std::size_t next_ = 0;
};

TEST(UniformBelow, TakesTheHighHalfOfTheProduct) {
  // x * n >> B: the largest word gives n - 1, just over half the range n / 2 (exactly half
  // would be rejected: its product's low half, 0, is below the threshold).
  Replay<std::uint32_t> g32({0xFFFFFFFFu, 0x80000001u});
  EXPECT_EQ(uniform_below(g32, 10), 9u);
  EXPECT_EQ(uniform_below(g32, 10), 5u);
  Replay<std::uint64_t> g64({~std::uint64_t{0}, (std::uint64_t{1} << 63) + 1});
  EXPECT_EQ(uniform_below(g64, 1000), 999u);
  EXPECT_EQ(uniform_below(g64, 1000), 500u);
}

TEST(UniformBelow, RejectsTheDrawsThatWouldBiasIt) {
  // n = 3: 2^B mod 3 = 1 draw is rejected, the one whose product x*3 is 0 mod 2^B (x = 0).
  EXPECT_EQ(lemire_threshold<32>(3), 1u);
  EXPECT_EQ(lemire_threshold<64>(3), 1u);
  Replay<std::uint32_t> g32({0, 0, 0xAAAAAAABu});  // 0xAAAAAAAB * 3 = 2^33 + 1: accepted, 2
  EXPECT_EQ(uniform_below(g32, 3), 2u);
  EXPECT_EQ(g32.used(), 3u);
  Replay<std::uint64_t> g64({0, 1});  // 1 * 3 = 3 >= the threshold: accepted, 0
  EXPECT_EQ(uniform_below(g64, 3), 0u);
  EXPECT_EQ(g64.used(), 2u);
  // Powers of two reject nothing; n = 2^32 with 32-bit words is the word itself.
  EXPECT_EQ(lemire_threshold<32>(std::uint64_t{1} << 20), 0u);
  Replay<std::uint32_t> whole({0, 12345});
  EXPECT_EQ(uniform_below(whole, std::uint64_t{1} << 32), 0u);
  EXPECT_EQ(uniform_below(whole, std::uint64_t{1} << 32), 12345u);
}

// Every residue equally often: with 32-bit words and n = 3, each value has exactly
// (2^32 - 1) / 3 accepted words. Counted over the words x = k * 2^12 + 7 (k < 2^20), the
// counts of a fair draw differ by no more than the few words near each boundary.
TEST(UniformBelow, IsUniformOverTheWords) {
  std::array<std::uint64_t, 3> count = {};
  for (std::uint64_t k = 0; k < (1u << 20); ++k) {
    Replay<std::uint32_t> g({static_cast<std::uint32_t>(k << 12 | 7)});
    ++count[uniform_below(g, 3)];
  }
  for (const std::uint64_t c : count) EXPECT_NEAR(static_cast<double>(c), (1u << 20) / 3.0, 2);
}

TEST(UniformBelow, SeededDrawsStayInRangeAndRepeat) {
  Random a(7), b(7);
  for (int i = 0; i < 1000; ++i) {
    const std::uint64_t n = 1 + static_cast<std::uint64_t>(i) * 7919;
    const std::uint64_t x = uniform_below(a, n);
    EXPECT_LT(x, n);
    EXPECT_EQ(x, uniform_below(b, n));
  }
  SplitMix32 s(1);
  for (int i = 0; i < 1000; ++i) EXPECT_LT(uniform_below(s, 1000003), 1000003u);
}

}  // namespace
}  // namespace mmsim::test
