// Seeded randomness with the same results on every platform (the standard distributions are
// not portable across library implementations): the generators, and the one bounded draw that
// every part of mmsim uses (the random dispatch policy, shift tables, input values, random
// permutations, the congestion experiment).
#pragma once

#include <concepts>
#include <cstdint>
#include <limits>
#include <random>

namespace mmsim {

using Random = std::mt19937_64;

// A generator of uniform 32- or 64-bit words (their whole range).
template <class G>
concept WordGenerator = requires(G& g) {
  { g() } -> std::unsigned_integral;
}
&&(std::numeric_limits<typename G::result_type>::digits == 32 ||
   std::numeric_limits<typename G::result_type>::digits == 64) &&
    G::min() == 0 && G::max() == std::numeric_limits<typename G::result_type>::max();

// Lemire's multiply-and-reject for B-bit draws and a bound n <= 2^B: a draw x gives x*n, whose
// high B bits are the result; the draws whose low B bits fall below this threshold are
// rejected, which makes the result exactly uniform (none are when n is a power of two).
template <unsigned Bits>
constexpr std::uint64_t lemire_threshold(std::uint64_t n) {
  if constexpr (Bits == 32)
    return ((std::uint64_t{1} << 32) - n) % n;
  else
    return (0 - n) % n;
}

// Uniform integer in [0, n), 1 <= n <= 2^B, unbiased.
template <WordGenerator G>
std::uint64_t uniform_below(G& g, std::uint64_t n) {
  constexpr unsigned bits = std::numeric_limits<typename G::result_type>::digits;
  if constexpr (bits == 32) {
    std::uint64_t product = std::uint64_t{g()} * n;
    if (static_cast<std::uint32_t>(product) < n) {
      const std::uint64_t threshold = lemire_threshold<32>(n);
      while (static_cast<std::uint32_t>(product) < threshold) product = std::uint64_t{g()} * n;
    }
    return product >> 32;
  } else {
    __uint128_t product = static_cast<__uint128_t>(g()) * n;
    if (static_cast<std::uint64_t>(product) < n) {
      const std::uint64_t threshold = lemire_threshold<64>(n);
      while (static_cast<std::uint64_t>(product) < threshold)
        product = static_cast<__uint128_t>(g()) * n;
    }
    return static_cast<std::uint64_t>(product >> 64);
  }
}

// SplitMix64 (Steele, Lea and Flood 2014): one 64-bit word per step of a counter; seeds other
// generators and draws where a few numbers are needed.
inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The high 32 bits of SplitMix64's words, as a generator.
class SplitMix32 {
 public:
  using result_type = std::uint32_t;
  explicit SplitMix32(std::uint64_t seed) : state_(seed) {}
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }
  result_type operator()() { return static_cast<result_type>(splitmix64(state_) >> 32); }

 private:
  std::uint64_t state_;
};

}  // namespace mmsim
