#include "hw/mmu/random_shift_unit.hpp"

#include <algorithm>
#include <bit>

namespace mmsim {

RandomShiftUnit::RandomShiftUnit(const sc_core::sc_module_name& name, const RandomShiftMap& map)
    : sc_core::sc_module(name),
      map_(map),
      entry_shift_(map.width(), TracedValue(shift_bits(map.width()))) {}

unsigned RandomShiftUnit::shift_bits(unsigned width) {
  return std::max(1u, static_cast<unsigned>(std::bit_width(width - 1)));
}

bool RandomShiftUnit::trace(Tracer& tracer) {
  const std::string base = name();
  const unsigned bits = shift_bits(map_.width());
  traced_shifts_.assign(map_.shifts().begin(), map_.shifts().end());
  bool any = false;
  if (traced_shifts_.size() <= kTracedRows)
    for (std::size_t j = 0; j < traced_shifts_.size(); ++j)
      any |= tracer.trace(traced_shifts_[j], base + ".r_" + std::to_string(j), bits);
  for (std::size_t b = 0; b < entry_shift_.size(); ++b)
    any |= tracer.trace(entry_shift_[b].bits(), base + ".entry_shift_" + std::to_string(b));
  return any;
}

void RandomShiftUnit::update_trace(const std::vector<std::unique_ptr<MemoryBank>>& banks) {
  const Divider& d = map_.divider();
  for (std::size_t b = 0; b < banks.size(); ++b) {
    const MemoryBank::Activity& entering = banks[b]->entering;
    entry_shift_[b].set(entering.valid,
                        entering.valid ? map_.shifts()[d.quotient(entering.address)] : 0);
  }
}

}  // namespace mmsim
