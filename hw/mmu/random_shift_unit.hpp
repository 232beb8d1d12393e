// The Random Shift Unit of the RSDMM (Nakano and Matsumae 2013, Fig. 1 (C)) as a module of the MMU:
// it reads r_j for the row j of each request and adds it to the request's bank. Its logic is the
// RandomShiftMap that the MMU calls on its hot path (and mmsim congestion calls directly); the
// module gives it its place in the hierarchy and shows it in waveforms: the table itself (r_0, r_1,
// ...; memories of at most kTracedRows rows) and, per bank, the shift applied to the request
// entering that bank.
#pragma once

#include <memory>
#include <systemc>
#include <vector>

#include "hw/memory/memory_bank.hpp"
#include "hw/memory/random_shift_map.hpp"
#include "hw/support/traced_value.hpp"
#include "hw/support/tracer.hpp"

namespace mmsim {

class RandomShiftUnit : public sc_core::sc_module {
 public:
  static constexpr std::uint64_t kTracedRows = 1024;

  RandomShiftUnit(const sc_core::sc_module_name& name, const RandomShiftMap& map);

  const RandomShiftMap& map() const { return map_; }

  // Returns whether any of its signals is traced.
  bool trace(Tracer& tracer);
  // Sets the traced shifts from what enters each bank this cycle.
  void update_trace(const std::vector<std::unique_ptr<MemoryBank>>& banks);

 private:
  static unsigned shift_bits(unsigned width);  // bits of a shift in [0, w)

  const RandomShiftMap& map_;
  std::vector<unsigned> traced_shifts_;   // the table, as traced values (set once)
  std::vector<TracedValue> entry_shift_;  // per bank (z while nothing enters it)
};

}  // namespace mmsim
