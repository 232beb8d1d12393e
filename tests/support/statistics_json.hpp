// Statistics JSON compared between runs: without what depends on the clock, the machine or the
// command line rather than on what was simulated.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace mmsim::test {

// Keys whose values depend on the clock, the machine or the command line of the run, not on
// what it simulated: wall times (wall_seconds, plan_seconds, ...) and the provenance (version,
// command, date, host: testbench/outputs/provenance.cpp). Removed wherever they occur before the
// comparison.
inline bool wall_clock_or_host_key(const std::string& key) {
  const bool seconds = key.size() >= 7 && key.compare(key.size() - 7, 7, "seconds") == 0;
  return seconds || key == "version" || key == "command" || key == "date" || key == "host";
}

inline nlohmann::json without_wall_clock(const nlohmann::json& value) {
  if (value.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& item : value) out.push_back(without_wall_clock(item));
    return out;
  }
  if (!value.is_object()) return value;
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, item] : value.items())
    if (!wall_clock_or_host_key(key)) out[key] = without_wall_clock(item);
  return out;
}

}  // namespace mmsim::test
