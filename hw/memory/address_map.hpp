// Where an address lives. The banks' cells form one row-major array: row j holds the w cells of
// address group j side by side, bank b's cell of row j at index j*w + b. The standard
// interleaving puts address i in bank i mod w of row i div w, i.e. at index i itself; variants
// (random shift, skew, XOR swizzle, a user's own) permute the banks within each row.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "hw/support/divider.hpp"
#include "hw/support/types.hpp"
#include "hw/support/vector_isa.hpp"

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
  // A map that looks its rows up as they are needed (a map of one's own: TabulatedMap) looks
  // them all up now, so that it is only read from then on and threads may share it.
  virtual void look_up_all_rows() const {}

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

// A permutation of the banks of each row written as one inline function: `Map::rule<pow2>()`
// returns a small callable (row, column) -> bank holding what it needs by value, so that
// locate() is a tight loop with no call, and no reload, per address. With pow2 (w a power of
// two) the rule gets the whole address as its column (the column is its low log2 w bits) and
// masks its result, which saves the per-lane work of splitting the address. A new variant is
// one small class deriving from RowPermutation<itself> (and a line in address_maps.cpp).
template <class Map>
class RowPermutation : public AddressMap {
 public:
  using AddressMap::AddressMap;

  unsigned bank(std::uint32_t row, std::uint32_t column) const final {
    return static_cast<unsigned>(
        static_cast<const Map&>(*this).template rule<false>()(row, column));
  }

  void locate(std::span<const Address> addresses, std::span<Address> cells) const final {
    const Map& map = static_cast<const Map&>(*this);
    const Divider& d = divider();
    if (d.power_of_two()) {
      const unsigned shift = std::countr_zero(d.divisor());
      const Address high = ~(Address{d.divisor()} - 1);
      run(addresses, cells, [=, bank_of = map.template rule<true>()](Address a) {
        return (a & high) | bank_of(a >> shift, a);
      });
    } else {
      run(addresses, cells, [&d, bank_of = map.template rule<false>()](Address a) {
        const Address row = d.quotient(a);
        const Address column = a - row * d.divisor();
        return a - column + bank_of(row, column);
      });
    }
  }

 private:
  template <class Cell>
  static void run(std::span<const Address> addresses, std::span<Address> cells, Cell cell) {
    with_vector_isa([&] {
      // Copies of their own, which a store to a cell cannot alias: they stay in registers
      // (through the references, the loop would load each of them again for every lane).
      const Address* a = addresses.data();
      Address* c = cells.data();
      const std::size_t n = addresses.size();
      const Cell each = cell;
      // Dispatches with an inactive lane are the rarer kind: one vectorised test picks the loop.
      if (inactive_lanes(addresses) == 0) {
#pragma GCC unroll 4
        for (std::size_t i = 0; i < n; ++i) c[i] = each(a[i]);
        return;
      }
      for (std::size_t i = 0; i < n; ++i) c[i] = a[i] == kInactive ? kInactive : each(a[i]);
    });
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
