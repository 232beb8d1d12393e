// Programs from outside the tree: a Python class in a file (program.file, program.class) or a C++
// program in a plugin library (program.library, program.name). A loader per kind turns the
// testbench's reference into the program's ProgramInfo, as the catalogue holds a built-in's.
// Other code a testbench names from outside the tree (an address map of one's own) is referred to
// and checked the same way.
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
  // For messages: the key that names it ("program", "machine.address_map"), what it is
  // ("program", "map"), and whether one string names it (`file.py:Class` rather than its file
  // and name under `key`).
  std::string key = "program";
  std::string noun = "program";
  bool in_short = false;
};

// The keys of its file ("program.file", "program.library") and of its name ("program.class",
// "program.name"); `key` itself when it is named in short.
std::string file_key(const ExternalProgram& program);
std::string name_key(const ExternalProgram& program);

using ExternalProgramLoader =
    std::function<std::shared_ptr<const ProgramInfo>(const ExternalProgram&)>;

// Replaces the loader of `kind`.
void register_program_loader(ExternalProgram::Kind kind, ExternalProgramLoader loader);
// What can be checked of its file without running any of the program's (or map's) code: the file
// exists and can be read; a Python file's name ends in .py; a plugin's library is a complete
// shared object (sw/support/shared_library_file.hpp). Throws InputError located in the testbench.
void check_external_file(const ExternalProgram& program);
// check_external_file, and a Python class is named by an identifier.
void check_external_program(const ExternalProgram& program);
// The program, or InputError located in the testbench (a missing file, class or name, a kind
// this process cannot load). This runs the program's code: a Python file is imported, a plugin's
// library opened (its constructors run).
std::shared_ptr<const ProgramInfo> load_external_program(const ExternalProgram& program);

}  // namespace mmsim
