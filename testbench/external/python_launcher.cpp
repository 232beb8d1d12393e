// program.file in a process without Python (the mmsim command): the first Python program starts
// the interpreter. libmmsim_python.so (testbench/python/python_host.cpp), beside this library,
// links libpython; it is opened only now, so that a run of a built-in program pays nothing for
// Python. It imports the mmsim package, whose native module registers the real loader of Python
// programs in place of this one (testbench/python).
#include <dlfcn.h>

#include <filesystem>

#include "sw/program/external_program.hpp"

namespace mmsim {
namespace {

using StartFunction = const char* (*)(const char* package_folder);

// The folder this library was loaded from.
std::filesystem::path library_folder() {
  Dl_info info{};
  dladdr(reinterpret_cast<const void*>(&library_folder), &info);
  return std::filesystem::path(info.dli_fname).parent_path();
}

// The folder holding the mmsim package of this library: python/ beside it (the build folder, an
// installation's lib/), or the folder above when this library is in the package itself (what
// pip installs: site-packages/mmsim).
std::filesystem::path package_folder(const std::filesystem::path& library) {
  if (std::filesystem::exists(library / "__init__.py")) return library.parent_path();
  return library / "python";
}

std::shared_ptr<const ProgramInfo> start_python(const ExternalProgram& program) {
  static bool started = false;  // once: the package replaces this loader when imported
  if (started)
    throw InputError(program.file_where, "program.file: the mmsim Python package did not load");
  started = true;
  const std::filesystem::path folder = library_folder();
  const std::string host = (folder / "libmmsim_python.so").string();
  // Global: the extension modules Python imports (numpy's) find libpython's symbols.
  void* library = dlopen(host.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (library == nullptr)
    throw InputError(program.file_where,
                     "program.file: Python programs need " + host + ": " + dlerror());
  const auto start = reinterpret_cast<StartFunction>(dlsym(library, "mmsim_python_start"));
  const char* failure =
      start ? start(package_folder(folder).c_str()) : "no mmsim_python_start in the library";
  if (failure != nullptr)
    throw InputError(program.file_where, std::string("program.file: ") + failure);
  return load_external_program(program);  // now the mmsim module's loader
}

[[maybe_unused]] const bool registered =
    (register_program_loader(ExternalProgram::Kind::python, start_python), true);

}  // namespace
}  // namespace mmsim
