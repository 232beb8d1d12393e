// An XOR swizzle, as GPUs arrange shared-memory tiles: address j*w + k lies in bank
// k xor (j mod w). Needs w a power of two (the XOR of two columns is then a column).
#pragma once

#include "hw/address_map.hpp"

namespace mmsim {

class XorMap final : public RowPermutation<XorMap> {
 public:
  using RowPermutation::RowPermutation;

  unsigned bank_of(std::uint32_t row, std::uint32_t column) const {
    return column ^ (row & (width() - 1));
  }
  std::string name() const override { return "xor"; }
};

}  // namespace mmsim
