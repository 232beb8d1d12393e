// One of the w memory banks. The banks' cells are laid out row by row (row j holds the w cells
// of address group j side by side, as the UMM reads them at once): bank b owns column b of the
// MMU's cell array, the cell of row j at index j*w + b.
#pragma once

#include <algorithm>
#include <bit>
#include <systemc>

#include "hw/support/traced_value.hpp"
#include "hw/support/tracer.hpp"
#include "hw/support/types.hpp"

namespace mmsim {

class MemoryBank : public sc_core::sc_module {
 public:
  MemoryBank(const sc_core::sc_module_name& name, Word* cells, unsigned bank, unsigned width,
             std::uint64_t rows)
      : sc_core::sc_module(name),
        cells_(cells + bank),
        width_(width),
        rows_(rows),
        entry_address_(address_bits(rows * width)),
        completion_address_(address_bits(rows * width)) {}

  std::uint64_t rows() const { return rows_; }
  Word& cell(std::uint64_t row) { return cells_[row * width_]; }
  const Word& cell(std::uint64_t row) const { return cells_[row * width_]; }

  // What this bank serves in the group entering / completing this cycle (set while tracing).
  struct Activity {
    bool valid = false;
    std::uint64_t address = 0;
  };
  Activity entering;
  Activity completing;

  // Traced: the valid flags and the addresses (z while idle), as wide as the memory's addresses.
  bool trace(Tracer& tracer) {
    const std::string base = name();
    bool any = tracer.trace(entering.valid, base + ".entry_valid");
    any |= tracer.trace(entry_address_.bits(), base + ".entry_address");
    any |= tracer.trace(completing.valid, base + ".completion_valid");
    any |= tracer.trace(completion_address_.bits(), base + ".completion_address");
    return any;
  }
  void update_trace() {
    entry_address_.set(entering.valid, entering.address);
    completion_address_.set(completing.valid, completing.address);
  }

 private:
  static unsigned address_bits(std::uint64_t words) {
    return std::max(1u, static_cast<unsigned>(std::bit_width(words - 1)));
  }

  Word* cells_;
  unsigned width_;
  std::uint64_t rows_;
  TracedValue entry_address_;
  TracedValue completion_address_;
};

}  // namespace mmsim
