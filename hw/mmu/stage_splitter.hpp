// The part of an MMU that cuts one dispatch into stage groups (docs/semantics.md §3, rule 2).
// Requests to the same address are merged first; the number of groups is the dispatch's
// congestion. Splitters are combinational logic: plain classes the MMU module calls, so that
// experiments (mmsim congestion) can drive the very same code without a simulation kernel.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "hw/mmu/memory_counters.hpp"
#include "hw/support/divider.hpp"
#include "hw/support/types.hpp"

namespace mmsim {

class StageSplitter {
 public:
  explicit StageSplitter(unsigned width) : divider_(width) {}
  virtual ~StageSplitter() = default;

  // Number of stage groups (k >= 1) of a dispatch with at least one active lane. cells[i] is
  // lane i's cell index (see AddressMap: bank = index mod w, row = index div w) or kInactive.
  virtual unsigned stages(std::span<const Address> cells) = 0;
  // stages(), counting where the requests went besides (the MMU's statistics; the congestion
  // experiment calls stages() and counts nothing). `active`: the active lanes.
  virtual unsigned count_stages(std::span<const Address> cells, unsigned /*active*/) {
    return stages(cells);
  }
  // count_stages() of a coalesced access of `lanes` lanes, every lane active, lane i at cell
  // first_cell + i. Splitters with a closed form for it override this.
  virtual unsigned count_consecutive_stages(Address first_cell, unsigned lanes) {
    return count_stages(consecutive_cells(first_cell, lanes), lanes);
  }
  // What count_stages() counted: per bank, or per address group touched (see RequestSpread).
  virtual RequestSpread spread() const { return {}; }
  // The stage group of every active lane (lanes merged into one request share it); returns k.
  virtual unsigned assign_groups(std::span<const Address> cells,
                                 std::span<std::uint32_t> groups) = 0;
  // assign_groups(), and the port each active lane's request takes in its group (see ports()).
  virtual unsigned assign_slots(std::span<const Address> cells, std::span<std::uint32_t> groups,
                                std::span<std::uint32_t> ports) {
    std::fill(ports.begin(), ports.end(), 0);
    return assign_groups(cells, groups);
  }
  // Requests a bank serves per stage group (machine.ports): 1 but behind PortedBanks.
  virtual unsigned ports() const { return 1; }
  // Whether its stage groups are address groups (rows), as the coalescer's are.
  virtual bool rows() const { return false; }
  virtual std::string name() const = 0;

  unsigned width() const { return divider_.divisor(); }
  std::uint32_t bank(Address cell) const { return divider_.remainder(cell); }
  std::uint32_t row(Address cell) const { return divider_.quotient(cell); }

 protected:
  const Divider& divider() const { return divider_; }
  // The cells first_cell, first_cell + 1, ... of `lanes` lanes, written out (for the splitters
  // that count a coalesced access lane by lane).
  std::span<const Address> consecutive_cells(Address first_cell, unsigned lanes) {
    consecutive_cells_.resize(lanes);
    for (unsigned i = 0; i < lanes; ++i) consecutive_cells_[i] = first_cell + i;
    return consecutive_cells_;
  }

 private:
  Divider divider_;
  std::vector<Address> consecutive_cells_;
};

}  // namespace mmsim
