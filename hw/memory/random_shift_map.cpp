#include "hw/memory/random_shift_map.hpp"

#include "hw/support/random.hpp"

namespace mmsim {

std::vector<std::uint16_t> random_shifts(unsigned width, std::uint64_t rows, std::uint64_t seed) {
  Random random(seed);
  std::vector<std::uint16_t> shifts(rows);
  for (std::uint16_t& r : shifts) r = static_cast<std::uint16_t>(uniform_below(random, width));
  return shifts;
}

}  // namespace mmsim
