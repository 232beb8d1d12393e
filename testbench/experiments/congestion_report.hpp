// The congestion experiment's results as a readable table (one block per n: rows s, columns w,
// and a block of the analytic values), as CSV and as JSON.
#pragma once

#include <string>
#include <vector>

#include "testbench/experiments/congestion_experiment.hpp"
#include "testbench/outputs/provenance.hpp"

namespace mmsim {

std::string format_congestion_table(const CongestionSpec& spec,
                                    const std::vector<CongestionCell>& cells);
// One line per cell: width,super_warp,array,rounds,ratio,stderr,congestion,analytic.
std::string congestion_csv(const std::vector<CongestionCell>& cells);
// The provenance (version, command, date, host), the options as run (resolved: widths,
// super_warps, arrays, rounds, seed, map) and `cells`, a list of cells with keys width,
// super_warp, array, rounds, ratio, stderr, congestion and analytic.
std::string congestion_json(const CongestionSpec& spec, const std::vector<CongestionCell>& cells,
                            const Provenance& provenance);

}  // namespace mmsim
