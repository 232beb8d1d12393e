// What the catalogue knows of a program: its name, summary, source, parameters and how to make
// it (the built-in programs' catalogue is sw/programs/catalogue.hpp).
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "sw/program/params.hpp"
#include "sw/program/trace_listing.hpp"
#include "sw/program/warp_program.hpp"

namespace mmsim {

// What a program is made from: its parameters, and (trace only) its instructions.
struct ProgramArgs {
  ParamValues params;
  std::optional<TraceListing> listing;  // `program.warps` of the testbench, when given
  std::filesystem::path base_dir;       // relative file names are resolved here
};

struct ProgramInfo {
  std::string name;
  std::string summary;
  std::string source;  // where the algorithm comes from (docs/bibliography.md)
  std::vector<ParamSpec> params;
  std::function<std::unique_ptr<WarpProgram>(const ProgramArgs&)> make;
  // What make() itself allocates (a trace read from its file: the program needs it to know its
  // warps and addresses), estimated from the arguments before make() runs; none: nothing that
  // grows with the input (programs make their data in WarpProgram::prepare).
  std::function<std::uint64_t(const ProgramArgs&)> made_bytes = nullptr;
};

// A ProgramInfo's make() for a Program constructed from `variant` (what the programs of one
// class differ in, e.g. a pattern; none for most) and then the arguments, or their parameters
// where it takes those only.
template <class Program, class... Variant>
auto make_program(Variant... variant) {
  return [variant...](const ProgramArgs& args) -> std::unique_ptr<WarpProgram> {
    if constexpr (std::is_constructible_v<Program, const Variant&..., const ProgramArgs&>)
      return std::make_unique<Program>(variant..., args);
    else
      return std::make_unique<Program>(variant..., args.params);
  };
}

}  // namespace mmsim
