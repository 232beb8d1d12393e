// A sweep's table, from its runs and their records: markdown for people (values as written,
// figures rounded), CSV and JSON for programs (numbers as numbers, the error in a column of its
// own).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "testbench/outputs/provenance.hpp"
#include "testbench/sweeps/sweep_file.hpp"
#include "testbench/sweeps/sweep_plan.hpp"

namespace mmsim {

struct SweepRow {
  const SweepRun* run;
  const nlohmann::json* record;  // from the results
};

// `provenance` names the command that generates the table (its command), the version, the
// host and the date, recorded in the header (markdown: a line of its own after the command).
std::string sweep_markdown(const Sweep& sweep, const std::vector<SweepRow>& rows,
                           const Provenance& provenance);
std::string sweep_csv(const Sweep& sweep, const std::vector<SweepRow>& rows);
nlohmann::json sweep_json(const Sweep& sweep, const std::vector<SweepRow>& rows,
                          const Provenance& provenance);

// Whether the run failed: it could not run, or it ran and was not verified.
bool run_failed(const nlohmann::json& record);

}  // namespace mmsim
