#include "testbench/cli/subcommands.hpp"

#include <algorithm>
#include <vector>

#include "sw/support/suggest.hpp"

namespace mmsim {

CLI::App* add_subcommand(CLI::App& app, const std::string& name, const std::string& description,
                         const std::string& exit_statuses) {
  CLI::App* subcommand = app.add_subcommand(name, description);
  subcommand->footer("Exit status: " + exit_statuses + ".");
  return subcommand;
}

std::string mistyped_name(CLI::App& app, int argc, char** argv) {
  int i = 1;
  while (i < argc && argv[i][0] == '-') ++i;  // --help, --version
  if (i == argc) return {};
  const std::string command = argv[i];
  const std::vector<CLI::App*> subcommands = app.get_subcommands([](CLI::App*) { return true; });
  std::vector<std::string> commands;
  for (const CLI::App* sub : subcommands) commands.push_back(sub->get_name());
  const auto sub = std::find_if(subcommands.begin(), subcommands.end(),
                                [&](const CLI::App* s) { return s->get_name() == command; });
  if (sub == subcommands.end())
    return "unknown command '" + command + "'" + suggestion(command, commands);
  std::vector<std::string> options;
  for (const CLI::Option* option : (*sub)->get_options())
    for (const std::string& name : option->get_lnames()) options.push_back("--" + name);
  for (int j = i + 1; j < argc; ++j) {
    const std::string arg = std::string(argv[j]).substr(0, std::string(argv[j]).find('='));
    if (arg == "--") break;
    if (arg.rfind("--", 0) == 0 && std::find(options.begin(), options.end(), arg) == options.end())
      return command + ": unknown option '" + arg + "'" + suggestion(arg, options);
  }
  return {};
}

}  // namespace mmsim
