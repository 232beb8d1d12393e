// How a run is made besides its testbench: the outputs the command line asks for, and how it
// shows its progress. One struct from the command line (cli/run_command.cpp: each output's part
// declares its own options into it) down to the runner; the runner's parts give the simulation
// its options (hw/machine/simulation.hpp), which hand the dispatcher's down as they are.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "testbench/input/testbench.hpp"

namespace mmsim {

struct RunOptions {
  // By output (its part's name: "stats", "vcd", "timeline", ...): what the command line asks;
  // each field given replaces the testbench's (outputs.<name>).
  std::map<std::string, OutputRequest> outputs;
  // The option that named the outputs' files when not each one's own (--out-dir's folder:
  // "--out-dir"; the Python API's "out_dir"); empty: each output's own option.
  std::string outputs_option;
  bool progress = false;  // a progress line on stderr for long runs
  // Called now and then while the machine runs; it may throw to stop the run (the Python API's
  // Ctrl-C: the run unwinds, removing what it had begun).
  std::function<void()> heartbeat;
  std::string command;    // recorded in the statistics; "" = this process's command line

  // Asks for output `name` into `file` (nothing for an empty name).
  void ask(const std::string& name, const std::string& file) {
    if (file.empty()) return;
    outputs[name].file = file;
    outputs[name].on = true;
  }
};

}  // namespace mmsim
