// Programs from outside the tree: a Python class in a file (program.file, program.class) or a C++
// program in a plugin library (program.library, program.name). A loader per kind turns the
// testbench's reference into the program's ProgramInfo, as the catalogue holds a built-in's.
// The loaders live with the shared core library (testbench/external), which registers them;
// the Python module registers its own (testbench/python).
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "sw/program/input_error.hpp"
#include "sw/program/program_info.hpp"

namespace mmsim {

struct ExternalProgram {
  enum class Kind { python, library };
  Kind kind = Kind::python;
  std::filesystem::path file;  // absolute
  std::string name;            // the class (python), the program's name (library)
  SourceLocation file_where;   // where the testbench names the file, and the name
  SourceLocation name_where;
};

using ExternalProgramLoader =
    std::function<std::shared_ptr<const ProgramInfo>(const ExternalProgram&)>;

// Replaces the loader of `kind`.
void register_program_loader(ExternalProgram::Kind kind, ExternalProgramLoader loader);
// The program, or InputError located in the testbench (a missing file, class or name, a kind
// this process cannot load).
std::shared_ptr<const ProgramInfo> load_external_program(const ExternalProgram& program);

}  // namespace mmsim
