// mmsim: run testbenches on the memory machine models, list what is available.
#include <CLI/CLI.hpp>

#include "testbench/commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"mmsim - cycle-accurate simulator of the memory machine models of GPUs"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "mmsim 0.1.0");

  mmsim::RunCommand run;
  CLI::App* run_app = app.add_subcommand("run", "simulate a YAML testbench and report");
  run_app->add_option("testbench", run.testbench, "testbench YAML file")->required();
  run_app->add_option("--set", run.overrides, "override a testbench value: key.path=value")
      ->allow_extra_args(false);
  run_app->add_option("--vcd", run.vcd, "write a waveform (VCD) to this file");
  run_app->add_option("--stats", run.stats, "write the statistics (JSON) to this file");
  run_app
      ->add_option("--policies", run.policies,
                   "run once per dispatch policy (all, or a comma-separated list) and print a "
                   "table; output files get the policy's name before their extension")
      ->delimiter(',');

  std::string what;
  CLI::App* list_app = app.add_subcommand("list", "list machine models, dispatch policies and programs");
  list_app->add_option("what", what, "models, policies or programs (default: all)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  if (*run_app) return mmsim::run_command(run);
  return mmsim::list_command(what);
}
