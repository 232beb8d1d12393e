// Parameters that must be powers: the message that says which would do.
#pragma once

#include <cstdint>
#include <string>

namespace mmsim {

// "n = 48 is not a power of two; 32 or 64 would be" ("" when it is one).
inline std::string not_a_power(std::uint64_t n, std::uint64_t base, const std::string& base_name) {
  std::uint64_t below = 1;
  while (below <= n / base) below *= base;
  if (below == n) return {};
  return "n = " + std::to_string(n) + " is not a power of " + base_name + "; " +
         std::to_string(below) + " or " + std::to_string(below * base) + " would be";
}

}  // namespace mmsim
