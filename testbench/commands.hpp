// The subcommands of the mmsim command line.
#pragma once

#include <string>
#include <vector>

namespace mmsim {

struct RunCommand {
  std::string testbench;
  std::vector<std::string> overrides;
  std::string vcd;
  std::string stats;
};

// Exit status: 0 verified (or nothing to verify), 1 verification failed, 2 invalid input.
int run_command(const RunCommand& command);
// Prints the machine models, dispatch policies and programs (with their parameters).
int list_command(const std::string& what);

}  // namespace mmsim
