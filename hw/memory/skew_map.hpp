// A deterministic skew: address j*w + k lies in bank (k + j) mod w, so that a column of a
// matrix whose rows are w words long spreads over all banks (the diagonal arrangement built
// into the hardware).
#pragma once

#include "hw/memory/address_map.hpp"

namespace mmsim {

class SkewMap final : public RowPermutation<SkewMap> {
 public:
  using RowPermutation::RowPermutation;

  template <bool kPowerOfTwo>
  auto rule() const {
    return [d = divider()](Address row, Address column) {
      if constexpr (kPowerOfTwo) return (column + row) & (d.divisor() - 1);
      const Address b = column + d.remainder(row);
      return b >= d.divisor() ? b - d.divisor() : b;
    };
  }
  std::string name() const override { return "skew"; }
};

}  // namespace mmsim
