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
  // --policies: run once per dispatch policy ("all": every one) and print a table; each run's
  // output files get the policy's name before their extension (out.json -> out.random.json).
  std::vector<std::string> policies;
};

// Exit status: 0 verified (or nothing to verify), 1 verification failed (any run, with
// --policies), 2 invalid input.
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
