// The statistics JSON of DESIGN.md section 4 (keys may grow, never change).
#pragma once

#include <nlohmann/json.hpp>

#include "testbench/runner.hpp"

namespace mmsim {

nlohmann::json stats_json(const RunOutcome& outcome);

}  // namespace mmsim
