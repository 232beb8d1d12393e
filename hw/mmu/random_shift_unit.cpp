#include "hw/mmu/random_shift_unit.hpp"

#include <algorithm>
#include <bit>

namespace mmsim {

RandomShiftUnit::RandomShiftUnit(const sc_core::sc_module_name& name, const RandomShiftMap& map)
    : sc_core::sc_module(name), map_(map), entry_shift_(map.width(), 0) {}

void RandomShiftUnit::trace(sc_core::sc_trace_file* file) {
  const std::string base = name();
  const int bits = std::max(1, static_cast<int>(std::bit_width(map_.width() - 1)));
  traced_shifts_.assign(map_.shifts().begin(), map_.shifts().end());
  if (traced_shifts_.size() <= kTracedRows)
    for (std::size_t j = 0; j < traced_shifts_.size(); ++j)
      sc_core::sc_trace(file, traced_shifts_[j], base + ".r_" + std::to_string(j), bits);
  for (std::size_t b = 0; b < entry_shift_.size(); ++b)
    sc_core::sc_trace(file, entry_shift_[b], base + ".entry_shift_" + std::to_string(b), bits);
}

void RandomShiftUnit::update_trace(const std::vector<std::unique_ptr<MemoryBank>>& banks) {
  const Divider& d = map_.divider();
  for (std::size_t b = 0; b < banks.size(); ++b) {
    const MemoryBank::Activity& entering = banks[b]->entering;
    entry_shift_[b] = entering.valid ? map_.shifts()[d.quotient(entering.address)] : 0;
  }
}

}  // namespace mmsim
