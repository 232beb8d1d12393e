// The human-readable report of a run.
#pragma once

#include <string>

#include "testbench/runner.hpp"

namespace mmsim {

std::string format_report(const RunOutcome& outcome);

}  // namespace mmsim
