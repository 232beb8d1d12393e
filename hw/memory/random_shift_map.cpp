#include "hw/memory/random_shift_map.hpp"

#include <algorithm>

#include "hw/support/random.hpp"

namespace mmsim {

std::vector<std::uint16_t> random_shifts(unsigned width, std::uint64_t rows, std::uint64_t seed) {
  Random random(seed);
  std::vector<std::uint16_t> shifts(rows);
  for (std::uint16_t& r : shifts) r = static_cast<std::uint16_t>(uniform_below(random, width));
  return shifts;
}

std::vector<std::uint16_t> permuted_shifts(unsigned width, std::uint64_t rows, std::uint64_t seed) {
  Random random(seed);
  std::vector<std::uint16_t> shifts(rows);
  std::vector<std::uint16_t> block(width);
  for (std::uint64_t first = 0; first < rows; first += width) {
    // Fisher-Yates: every permutation of 0..w-1 equally likely.
    for (unsigned i = 0; i < width; ++i) block[i] = static_cast<std::uint16_t>(i);
    for (unsigned i = width - 1; i > 0; --i)
      std::swap(block[i], block[uniform_below(random, std::uint64_t{i} + 1)]);
    const std::uint64_t count = std::min<std::uint64_t>(width, rows - first);
    std::copy_n(block.begin(), count, shifts.begin() + static_cast<std::ptrdiff_t>(first));
  }
  return shifts;
}

}  // namespace mmsim
