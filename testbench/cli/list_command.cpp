// mmsim list: the machine models, address maps, dispatch policies and programs (with their
// parameters).
#include <iostream>
#include <memory>
#include <string_view>

#include <fmt/format.h>

#include "hw/dispatch/dispatch_policy.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/memory/address_maps.hpp"
#include "sw/programs/catalogue.hpp"
#include "sw/support/suggest.hpp"
#include "testbench/cli/subcommands.hpp"

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

// Exit status 0, or 2 for an unknown list.
int list_command(const std::string& what) {
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
  }
  if (all || what == "policies") {
    std::cout << (all ? "\n" : "") << "dispatch policies (machine.dispatch):\n";
    for (const PolicyInfo& p : dispatch_policies())
      std::cout << fmt::format("  {:<14} {}\n", p.name, p.description);
  }
  if (all || what == "programs") {
    std::cout << (all ? "\n" : "")
              << "programs (program.name) and their parameters (program.params):\n";
    for (const ProgramInfo& p : programs()) {
      std::cout << fmt::format("  {:<22} {} [{}]\n", p.name, p.summary, p.source);
      for (const ParamSpec& s : p.params)
        std::cout << fmt::format("      {:<12} {:<17} {:<16} {}\n", s.name, to_string(s.type),
                                 s.default_value ? "default " + *s.default_value : "required",
                                 s.help);
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
  auto what = std::make_shared<std::string>();
  CLI::App* list_app = app.add_subcommand(
      "list", "list machine models, address maps, dispatch policies and programs");
  list_app->footer("Exit status: 0 listed, 2 an unknown list.");
  list_app->add_option("what", *what, "models, maps, policies or programs (default: all)");
  return {list_app, [what] { return list_command(*what); }};
}

}  // namespace mmsim
