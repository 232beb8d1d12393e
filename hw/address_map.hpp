// Where an address lives. The banks' cells form one row-major array: row j holds the w cells of
// address group j side by side, bank b's cell of row j at index j*w + b. The standard
// interleaving puts address i in bank i mod w of row i div w, i.e. at index i itself; variants
// (random shift, skew, XOR swizzle) permute the banks within each row.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "hw/divider.hpp"
#include "hw/types.hpp"

namespace mmsim {

class AddressMap {
 public:
  explicit AddressMap(unsigned width) : divider_(width) {}
  virtual ~AddressMap() = default;

  unsigned width() const { return divider_.divisor(); }
  const Divider& divider() const { return divider_; }
  // The bank serving column `column` of row `row`; a bijection of the w columns of every row.
  virtual unsigned bank(std::uint32_t row, std::uint32_t column) const = 0;
  virtual std::string name() const = 0;
  // True when every address is its own cell index (no bank permutation).
  virtual bool identity() const { return false; }

  // The cell index of one address.
  Address cell(Address a) const {
    const std::uint32_t row = divider_.quotient(a);
    return std::uint64_t{row} * width() + bank(row, divider_.remainder(a));
  }
  // Cell indices of a whole dispatch (kInactive stays kInactive). Identity maps need not call it.
  virtual void locate(std::span<const Address> addresses, std::span<Address> cells) const {
    for (std::size_t i = 0; i < addresses.size(); ++i)
      cells[i] = addresses[i] == kInactive ? kInactive : cell(addresses[i]);
  }

 private:
  Divider divider_;
};

// A permutation of the banks of each row written as one inline function `Map::bank_of(row,
// column)`: locate() is then a tight loop with no call per address. A new variant is one small
// class deriving from RowPermutation<itself> (and a line in address_maps.cpp).
template <class Map>
class RowPermutation : public AddressMap {
 public:
  using AddressMap::AddressMap;

  unsigned bank(std::uint32_t row, std::uint32_t column) const final {
    return static_cast<const Map&>(*this).bank_of(row, column);
  }

  void locate(std::span<const Address> addresses, std::span<Address> cells) const final {
    const Map& map = static_cast<const Map&>(*this);
    const Divider& d = divider();
    const auto run = [&](auto row_of) {
      const std::size_t n = addresses.size();
      for (std::size_t i = 0; i < n; ++i) {
        const Address a = addresses[i];
        // Inactive lanes compute a harmless row 0 and are masked afterwards (no branch).
        const bool active = a != kInactive;
        const std::uint32_t row = active ? row_of(a) : 0;
        const auto column = static_cast<std::uint32_t>(a - Address{row} * d.divisor());
        const Address cell = a - column + map.bank_of(row, column);
        cells[i] = active ? cell : kInactive;
      }
    };
    if (d.power_of_two())
      run([shift = std::countr_zero(d.divisor())](Address a) {
        return static_cast<std::uint32_t>(a >> shift);
      });
    else
      run([&d](Address a) { return d.quotient(a); });
  }
};

// Address i in bank i mod w (DMM, UMM, BPRAM).
class InterleavedMap final : public AddressMap {
 public:
  using AddressMap::AddressMap;
  unsigned bank(std::uint32_t, std::uint32_t column) const override { return column; }
  std::string name() const override { return "interleaved"; }
  bool identity() const override { return true; }
};

}  // namespace mmsim
