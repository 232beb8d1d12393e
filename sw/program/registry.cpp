#include "sw/program/registry.hpp"

#include "sw/programs/sequential_access.hpp"
#include "sw/programs/trace.hpp"
#include "sw/programs/transpose.hpp"

namespace mmsim {

const std::vector<ProgramInfo>& programs() {
  static const std::vector<ProgramInfo> all = {
      trace_program(),
      contiguous_access_program(),
      stride_access_program(),
      transpose_naive_program(),
      transpose_diagonal_program(),
  };
  return all;
}

const ProgramInfo* find_program(std::string_view name) {
  for (const ProgramInfo& info : programs())
    if (info.name == name) return &info;
  return nullptr;
}

}  // namespace mmsim
