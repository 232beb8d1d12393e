// The congestion experiment's results as a readable table (one block per n: rows s, columns w,
// and a block of the analytic values), as CSV and as JSON.
#pragma once

#include <string>
#include <vector>

#include "testbench/congestion_experiment.hpp"

namespace mmsim {

std::string format_congestion_table(const CongestionSpec& spec,
                                    const std::vector<CongestionCell>& cells);
// One line per cell: width,super_warp,array,rounds,ratio,stderr,congestion,analytic.
std::string congestion_csv(const std::vector<CongestionCell>& cells);
// A list of cells with keys width, super_warp, array, rounds, ratio, stderr, congestion and
// analytic.
std::string congestion_json(const std::vector<CongestionCell>& cells);

}  // namespace mmsim
