// One of the w memory banks. The banks' cells are laid out row by row (row j holds the w cells
// of address group j side by side, as the UMM reads them at once): bank b owns column b of the
// MMU's cell array, the cell of row j at index j*w + b.
#pragma once

#include <systemc>

#include "hw/support/types.hpp"

namespace mmsim {

class MemoryBank : public sc_core::sc_module {
 public:
  MemoryBank(const sc_core::sc_module_name& name, Word* cells, unsigned bank, unsigned width,
             std::uint64_t rows)
      : sc_core::sc_module(name), cells_(cells + bank), width_(width), rows_(rows) {}

  std::uint64_t rows() const { return rows_; }
  Word& cell(std::uint64_t row) { return cells_[row * width_]; }
  const Word& cell(std::uint64_t row) const { return cells_[row * width_]; }

  // Traced: the address this bank serves in the group entering / completing this cycle.
  struct Activity {
    bool valid = false;
    std::uint64_t address = 0;
  };
  Activity entering;
  Activity completing;

  void trace(sc_core::sc_trace_file* file) {
    const std::string base = name();
    sc_core::sc_trace(file, entering.valid, base + ".entry_valid");
    sc_core::sc_trace(file, entering.address, base + ".entry_address");
    sc_core::sc_trace(file, completing.valid, base + ".completion_valid");
    sc_core::sc_trace(file, completing.address, base + ".completion_address");
  }

 private:
  Word* cells_;
  unsigned width_;
  std::uint64_t rows_;
};

}  // namespace mmsim
