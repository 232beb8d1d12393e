// A deterministic skew: address j*w + k lies in bank (k + j) mod w, so that a column of a
// matrix whose rows are w words long spreads over all banks (the diagonal arrangement built
// into the hardware).
#pragma once

#include "hw/address_map.hpp"

namespace mmsim {

class SkewMap final : public RowPermutation<SkewMap> {
 public:
  using RowPermutation::RowPermutation;

  unsigned bank_of(std::uint32_t row, std::uint32_t column) const {
    const std::uint32_t b = column + divider().remainder(row);
    return b >= width() ? b - width() : b;
  }
  std::string name() const override { return "skew"; }
};

}  // namespace mmsim
