// One of the w memory banks. The banks' cells are laid out row by row (row j holds the w cells
// of address group j side by side, as the UMM reads them at once): bank b owns column b of the
// MMU's cell array, the cell of row j at index j*w + b.
#pragma once

#include <algorithm>
#include <bit>
#include <string>
#include <systemc>

#include "hw/support/traced_value.hpp"
#include "hw/support/tracer.hpp"
#include "hw/support/types.hpp"

namespace mmsim {

// The traced signals of one port of a bank (a bank's own are its port 0, hw/mmu/bank_port.hpp
// the others): what it serves in the stage group entering and in the one completing this cycle.
class BankSignals {
 public:
  // `words`: the memory's (its addresses' width).
  explicit BankSignals(std::uint64_t words)
      : entry_address_(address_bits(words)), completion_address_(address_bits(words)) {}

  // Set while tracing.
  struct Activity {
    bool valid = false;
    std::uint64_t address = 0;
  };
  Activity entering;
  Activity completing;

  // The valid flags and the addresses (z while idle) below `base`: `base.entry_valid`,
  // `_address`, `base.completion_valid`, `_address`.
  bool trace_as(Tracer& tracer, const std::string& base) {
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

  TracedValue entry_address_;
  TracedValue completion_address_;
};

class MemoryBank : public sc_core::sc_module, public BankSignals {
 public:
  MemoryBank(const sc_core::sc_module_name& name, Word* cells, unsigned bank, unsigned width,
             std::uint64_t rows)
      : sc_core::sc_module(name),
        BankSignals(rows * width),
        cells_(cells + bank),
        width_(width),
        rows_(rows) {}

  std::uint64_t rows() const { return rows_; }
  Word& cell(std::uint64_t row) { return cells_[row * width_]; }
  const Word& cell(std::uint64_t row) const { return cells_[row * width_]; }

  // Traced below the bank's own name.
  bool trace(Tracer& tracer) { return trace_as(tracer, name()); }

 private:
  Word* cells_;
  unsigned width_;
  std::uint64_t rows_;
};

}  // namespace mmsim
