// The subcommands of mmsim. Each file of cli/ declares one subcommand with its own options and
// says what runs it; main.cpp only adds them and dispatches to the one the command line names.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include <CLI/CLI.hpp>

#include "testbench/input/option_checks.hpp"

namespace mmsim {

struct Subcommand {
  CLI::App* app;             // its options, filled in when the command line is parsed
  std::function<int()> run;  // runs it once parsed: the exit status
};

// Adds the subcommand `name` to `app`; its --help ends with "Exit status: " and
// `exit_statuses`, so that every subcommand says what its statuses mean.
CLI::App* add_subcommand(CLI::App& app, const std::string& name, const std::string& description,
                         const std::string& exit_statuses);

Subcommand add_run_command(CLI::App& app);
Subcommand add_congestion_command(CLI::App& app);
Subcommand add_list_command(CLI::App& app);
Subcommand add_plan_command(CLI::App& app);
Subcommand add_profile_command(CLI::App& app);
Subcommand add_sweep_command(CLI::App& app);

// The message for a mistyped command or option name, with the nearest valid one; empty when
// the command line has none.
std::string mistyped_name(CLI::App& app, int argc, char** argv);

}  // namespace mmsim
