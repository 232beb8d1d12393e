// mmsim plan: plans an offline permutation (Nakano 2012, sections V, VI), writes the schedule.
#pragma once

#include <cstdint>
#include <string>

namespace mmsim {

struct PlanCommand {
  std::uint64_t n = 0;
  unsigned width = 0;
  std::string permutation = "random";
  std::uint64_t seed = 1;
  std::string machine = "dmm";  // dmm | umm
  std::string algorithm = "automatic";
  std::string out;    // schedule file
  std::string stats;  // statistics JSON
};

// Exit status: 0 planned and checked, 1 the plan failed its check, 2 invalid input.
int plan_command(const PlanCommand& command);

}  // namespace mmsim
