// mmsim: run testbenches on the memory machine models, list what is available. Each subcommand
// declares its own options (cli/*_command.cpp); main parses the command line and runs the one
// it names.
#include <iostream>
#include <vector>

#include "testbench/cli/subcommands.hpp"
#include "testbench/outputs/provenance.hpp"
#include "testbench/outputs/standard_output.hpp"

int main(int argc, char** argv) {
  mmsim::set_command_line(argc, argv);
  CLI::App app{"mmsim - cycle-accurate simulator of the memory machine models of GPUs"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("mmsim ") + mmsim::mmsim_version());
  app.option_defaults()->always_capture_default();  // --help shows every default
  const std::vector<mmsim::Subcommand> subcommands = {
      mmsim::add_run_command(app),     mmsim::add_congestion_command(app),
      mmsim::add_list_command(app),    mmsim::add_plan_command(app),
      mmsim::add_profile_command(app), mmsim::add_sweep_command(app)};
  app.footer(
      "Exit status: 0 success, 1 a verification failed, 2 invalid input or an output that "
      "cannot be written; interrupted (SIGINT, SIGTERM), mmsim removes its unfinished outputs.");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    const std::string typo = mmsim::mistyped_name(app, argc, argv);
    std::cerr << "mmsim: " << (typo.empty() ? std::string(e.what()) : typo) << " (see --help)\n";
    return 2;
  }
  // Every command's standard output is checked: a write that failed makes the exit status 2.
  mmsim::CheckedStandardOutput standard_output;
  for (const mmsim::Subcommand& subcommand : subcommands)
    if (*subcommand.app) return standard_output.finish(subcommand.run());
  return 2;  // require_subcommand(1): parsing names one
}
