// The subcommands of the mmsim command line.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "testbench/testbench.hpp"

namespace mmsim {

struct RunCommand {
  std::string testbench;
  std::vector<std::string> overrides;
  std::string vcd;
  WaveformOptions vcd_options;  // --vcd-from, --vcd-to, --vcd-scope, --vcd-limit
  std::string stats;            // "-": standard output (the report then goes to stderr)
  // --out-dir: the folder of the run's outputs (testbench.yaml, stats.json, trace.vcd).
  std::string out_dir;
  std::uint64_t stats_interval = 0;  // --stats-interval: the counters every N time units
  // --policies: run once per dispatch policy ("all": every one) and print a table; each run's
  // output files get the policy's name before their extension (out.json -> out.random.json).
  std::vector<std::string> policies;
};

// mmsim congestion: the experiment of Nakano and Matsumae 2013, section VI (defaults: its table).
struct CongestionCommand {
  std::string widths = "16,32,64,128,256";
  std::string super_warps = "1-10";
  std::string arrays = "1024,1048576";
  std::string rounds = "1000000";
  std::string seed = "1";
  std::string map = "random_shift";
  std::string threads = "0";  // 0: one per core
  std::string csv;
  std::string json;
};

// Exit status: 0 verified (or nothing to verify), 1 verification failed (any run, with
// --policies), 2 invalid input.
int run_command(const RunCommand& command);
// Prints the table; exit status 0, or 2 for invalid options.
int congestion_command(const CongestionCommand& command);

// Prints the machine models, dispatch policies and programs (with their parameters).
int list_command(const std::string& what);

}  // namespace mmsim
