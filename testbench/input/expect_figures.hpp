// The figures a run measures that a testbench may expect (expect.<name>, docs/testbench.md),
// declared once: the schema's expect keys, the runner's measurement of each and the statistics'
// keys of the same names come from this table.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mmsim {

struct RunResult;

struct ExpectFigure {
  std::string name;     // "cycles": expect.cycles, and the statistics' key
  std::string meaning;  // for the reference
  std::uint64_t (*measure)(const RunResult& result);
};

// In the order of the testbench as it ran.
const std::vector<ExpectFigure>& expect_figures();
// The figure named `name`; throws std::out_of_range for one the table lacks.
const ExpectFigure& expect_figure(const std::string& name);

}  // namespace mmsim
