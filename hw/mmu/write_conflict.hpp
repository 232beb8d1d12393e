// Which of several merged writes to one address is performed (CRCW arbitrary resolution).
#pragma once

#include <optional>
#include <string_view>

namespace mmsim {

enum class WriteConflict { highest_lane, lowest_lane };

constexpr std::string_view to_string(WriteConflict rule) {
  return rule == WriteConflict::highest_lane ? "highest_lane" : "lowest_lane";
}

inline std::optional<WriteConflict> write_conflict_from_string(std::string_view name) {
  if (name == "highest_lane") return WriteConflict::highest_lane;
  if (name == "lowest_lane") return WriteConflict::lowest_lane;
  return std::nullopt;
}

}  // namespace mmsim
