// The statistics JSON of docs/statistics.md (keys may grow, never change).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "testbench/run/run_outcome.hpp"

namespace mmsim {

nlohmann::json stats_json(const RunOutcome& outcome);

// The value at a dotted path of the statistics (bounds.time_order.ratio), or null when absent.
const nlohmann::json* stats_at(const nlohmann::json& stats, const std::string& path);

}  // namespace mmsim
