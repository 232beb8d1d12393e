// A table a program adds to its report and to the statistics: what it read and how it mapped it
// onto the machine (the gpu_trace program's kernels, opcodes not run, relocation, CTA placement).
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace mmsim {

struct ProgramTable {
  using Cell = std::variant<std::string, std::uint64_t>;  // text, or a number

  std::string key;    // stable JSON key
  std::string title;  // for the report
  std::vector<std::string> columns;
  std::vector<std::vector<Cell>> rows;
  std::vector<std::string> notes;  // lines shown under the table
};

}  // namespace mmsim
