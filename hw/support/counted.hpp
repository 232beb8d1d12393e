// A count with its noun, for messages and reports: "1 warp", "3 warps", "1 entry", "2 entries".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace mmsim {

// `plural` when the noun does not take an s ("entries"); empty: the noun with an s.
inline std::string counted(std::uint64_t n, std::string_view noun, std::string_view plural = {}) {
  std::string out = std::to_string(n) + " ";
  if (n == 1) return out.append(noun);
  return plural.empty() ? out.append(noun).append("s") : out.append(plural);
}

}  // namespace mmsim
