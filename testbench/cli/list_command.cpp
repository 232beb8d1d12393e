// mmsim list: the machine models, address maps, dispatch policies and programs (with their
// parameters); with --file or --library, the address maps or dispatch policies of one's own a
// Python file or a C++ plugin holds.
#include <iostream>
#include <memory>
#include <string_view>

#include <fmt/format.h>

#include "hw/dispatch/dispatch_policies.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/memory/address_map.hpp"
#include "hw/memory/address_maps.hpp"
#include "sw/programs/catalogue.hpp"
#include "sw/support/suggest.hpp"
#include "testbench/cli/subcommands.hpp"
#include "testbench/input/own_maps.hpp"
#include "testbench/input/own_policies.hpp"

namespace mmsim {
namespace {

// What banks of k ports do to a dispatch of a memory that splits its dispatches so
// (docs/semantics.md §10).
std::string_view ports_rule(Splitting splitting) {
  switch (splitting) {
    case Splitting::banked:
      return "ceil(c/k) stages, c the most requests to one bank";
    case Splitting::coalesced:
      return "k address groups per stage";
    case Splitting::bandwidth:
      return "k*w requests per stage (a warp: one stage)";
    case Splitting::crossbar:
      return "no banks: one stage, whatever k";
  }
  return "";
}

struct ListCommand {
  std::string what;
  std::string file;     // a Python file: its maps or policies
  std::string library;  // a C++ plugin: its maps or policies
};

void list_params(const std::vector<ParamSpec>& params) {
  for (const ParamSpec& s : params)
    std::cout << fmt::format("      {:<12} {:<17} {:<16} {}\n", s.name, to_string(s.type),
                             s.default_value ? "default " + *s.default_value : "required", s.help);
}

// The maps or policies of one's own (a `noun`) of a file or library, as `loaders` list them
// under `title` (exit status 0), or its error (2).
template <class Code>
int list_own(const ListCommand& command, const OwnCodeLoaders<Code>& loaders,
             const std::string& title, const std::string& key, const std::string& noun) {
  const bool python = !command.file.empty();
  const std::string option = python ? "--file" : "--library";
  const OwnCodeRef ref =
      listing_ref(python, python ? command.file : command.library, option, {option, 0, 0}, noun);
  try {
    const auto listed = loaders.of(ref).list(ref);
    std::cout << title << " of " << ref.code.file.string() << " (" << key << ": "
              << (python ? "{file, class}" : "{library, name}") << "):\n";
    for (const auto& code : listed) {
      std::cout << fmt::format("  {:<22} {}\n", code->name, code->description);
      list_params(code->params);
    }
    return 0;
  } catch (const InputError& e) {
    std::cerr << "mmsim: list: " << e.what() << "\n";
    return 2;
  }
}

// Exit status 0, or 2 for an unknown list.
int list_command(const ListCommand& command) {
  if (!command.file.empty() || !command.library.empty()) {
    if (command.what == "policies")
      return list_own(command, policy_loaders(), "dispatch policies", "machine.dispatch", "policy");
    if (!command.what.empty() && command.what != "maps") {
      std::cerr << "mmsim: list: --file and --library list maps or policies, not " << command.what
                << "\n";
      return 2;
    }
    return list_own(command, map_loaders(), "address maps", "machine.address_map", "map");
  }
  const std::string& what = command.what;
  const bool all = what.empty();
  if (all || what == "models") {
    std::cout << "machine models (machine.model):\n";
    for (const MachineModel& m : machine_models())
      std::cout << fmt::format("  {:<8} {} [{}]\n", m.name, m.description, m.reference);
    std::cout << "\nbanks of k ports (machine.ports, default 1; hmm: of its global memory, "
                 "machine.shared.ports of its shared memories):\n";
    for (const MachineModel& m : machine_models())
      std::cout << fmt::format("  {:<8} {}\n", m.name, ports_rule(m.memory.splitting));
  }
  if (all || what == "maps") {
    std::cout << (all ? "\n" : "") << "address maps (machine.address_map, dmm and sdmm):\n";
    for (const AddressMapInfo& m : address_maps())
      std::cout << fmt::format("  {:<14} {}\n", m.name, m.description);
    std::cout << "  and maps of one's own: file.py:Class, library:name (list them with --file, "
                 "--library; docs/own_maps.md)\n";
  }
  if (all || what == "policies") {
    std::cout << (all ? "\n" : "") << "dispatch policies (machine.dispatch):\n";
    for (const PolicyInfo& p : dispatch_policies())
      std::cout << fmt::format("  {:<14} {}\n", p.name, p.description);
    std::cout << "  and policies of one's own: {file, class} or {library, name} (list them with "
                 "--file, --library; docs/own_policies.md)\n";
  }
  if (all || what == "programs") {
    std::cout << (all ? "\n" : "")
              << "programs (program.name) and their parameters (program.params):\n";
    for (const ProgramInfo& p : programs()) {
      std::cout << fmt::format("  {:<22} {} [{}]\n", p.name, p.summary, p.source);
      list_params(p.params);
    }
  }
  if (!all && what != "models" && what != "maps" && what != "policies" && what != "programs") {
    std::cerr << "mmsim: list: unknown list '" << what << "'"
              << suggestion(what, {"models", "maps", "policies", "programs"}) << "\n";
    return 2;
  }
  return 0;
}

}  // namespace

Subcommand add_list_command(CLI::App& app) {
  auto command = std::make_shared<ListCommand>();
  CLI::App* list_app = add_subcommand(
      app, "list", "list machine models, address maps, dispatch policies and programs",
      "0 listed, 2 an unknown list, or a file or library that cannot be read");
  list_app->add_option("what", command->what, "models, maps, policies or programs (default: all)");
  auto* file = list_app->add_option("--file", command->file,
                                    "a Python file: list its address maps (mmsim.AddressMap), or "
                                    "with `policies` its dispatch policies (mmsim.Policy)");
  list_app
      ->add_option("--library", command->library,
                   "a C++ plugin: list its address maps (MMSIM_PLUGIN_MAPS), or with `policies` "
                   "its dispatch policies (MMSIM_PLUGIN_POLICIES)")
      ->excludes(file);
  return {list_app, [command] { return list_command(*command); }};
}

}  // namespace mmsim
