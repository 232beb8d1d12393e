// An XOR swizzle, as GPUs arrange shared-memory tiles: address j*w + k lies in bank
// k xor (j mod w). Needs w a power of two (the XOR of two columns is then a column).
#pragma once

#include "hw/memory/address_map.hpp"

namespace mmsim {

class XorMap final : public RowPermutation<XorMap> {
 public:
  using RowPermutation::RowPermutation;

  template <bool>
  auto rule() const {
    return [mask = Address{width()} - 1](Address row, Address column) {
      return (column ^ row) & mask;
    };
  }
  std::string name() const override { return "xor"; }
};

}  // namespace mmsim
