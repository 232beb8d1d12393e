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
struct SweepCommand {
  std::string sweep;
  std::vector<std::string> overrides;  // applied to every run
  std::string markdown;
  std::string csv;
  std::string json;
  std::string command_line;  // recorded in the markdown
};

// Exit status: 0 every run verified (or had nothing to verify), 1 a run failed its checks,
// 2 invalid input.
int sweep_command(const SweepCommand& command);
// Prints the machine models, dispatch policies and programs (with their parameters).
int list_command(const std::string& what);

}  // namespace mmsim
