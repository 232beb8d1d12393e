// The mapping of the Random Shift Unit (Nakano and Matsumae 2013, section V): address j*w + k lies
// in bank (k + r_j) mod w, one shift r_j in [0, w) per row j. The random shift draws the r_j
// independent and uniform (`random_shift`); the random address permute-shift (Nakano, Matsumae
// and Ito 2014: `rap`) draws each block of w consecutive rows' shifts as a random permutation of
// 0..w-1. This is the combinational logic only (the RSU module shows it in waveforms; mmsim
// congestion calls it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hw/memory/address_map.hpp"

namespace mmsim {

class RandomShiftMap final : public RowPermutation<RandomShiftMap> {
 public:
  // One shift per row, each in [0, width) (the caller has checked it; w <= 2^16); `name`: the
  // map's, as its table was drawn.
  RandomShiftMap(unsigned width, std::vector<std::uint16_t> shifts,
                 std::string name = "random_shift")
      : RowPermutation(width), shifts_(std::move(shifts)), name_(std::move(name)) {}

  template <bool kPowerOfTwo>
  auto rule() const {
    return [table = shifts_.data(), w = Address{width()}](Address row, Address column) {
      const Address b = column + table[row];
      if constexpr (kPowerOfTwo) return b & (w - 1);
      return b >= w ? b - w : b;  // both terms below w: one conditional subtract
    };
  }
  std::string name() const override { return name_; }

  const std::vector<std::uint16_t>& shifts() const { return shifts_; }

 private:
  std::vector<std::uint16_t> shifts_;  // 16 bits: a small table stays in the L1 cache
  std::string name_;
};

// A shift table of `rows` entries drawn uniformly from [0, width) by a generator seeded with
// `seed` (the same table on every platform).
std::vector<std::uint16_t> random_shifts(unsigned width, std::uint64_t rows, std::uint64_t seed);

// A shift table of `rows` entries whose rows j*w .. j*w + w - 1 hold a permutation of 0..w-1
// drawn uniformly by a generator seeded with `seed` (a last, shorter block: the first entries of
// one), block after block.
std::vector<std::uint16_t> permuted_shifts(unsigned width, std::uint64_t rows, std::uint64_t seed);

}  // namespace mmsim
