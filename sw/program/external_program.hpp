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
// What can be checked without running any of the program's code: the file exists and can be
// read; a Python file's name ends in .py and its class is named by an identifier; a plugin's
// library is a complete shared object (sw/support/shared_library_file.hpp) and names a
// program. Throws InputError located in the testbench.
void check_external_program(const ExternalProgram& program);
// The program, or InputError located in the testbench (a missing file, class or name, a kind
// this process cannot load). This runs the program's code: a Python file is imported, a plugin's
// library opened (its constructors run).
std::shared_ptr<const ProgramInfo> load_external_program(const ExternalProgram& program);

}  // namespace mmsim
