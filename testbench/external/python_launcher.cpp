// Python code in a process without Python (the mmsim command): the first program.file, Python
// address map or Python dispatch policy starts the interpreter. libmmsim_python.so
// (testbench/python/python_host.cpp), beside this library, links libpython; it is opened only
// now, so that a run without Python code pays nothing for Python. It imports the mmsim package,
// whose native module registers the real loaders of Python programs, maps and policies in place
// of these (testbench/python).
#include <dlfcn.h>

#include <filesystem>

#include "sw/program/external_program.hpp"
#include "testbench/input/own_maps.hpp"
#include "testbench/input/own_policies.hpp"

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

// Starts the interpreter and imports the mmsim package, or InputError at `where` for `key`
// (Python `what` named there). Once: a second call means the package did not replace the
// loaders.
void start_python(const SourceLocation& where, const std::string& key, const std::string& what) {
  static bool started = false;
  if (started) throw InputError(where, key + ": the mmsim Python package did not load");
  started = true;
  const std::filesystem::path folder = library_folder();
  const std::string host = (folder / "libmmsim_python.so").string();
  // Global: the extension modules Python imports (numpy's) find libpython's symbols.
  void* library = dlopen(host.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (library == nullptr)
    throw InputError(where, key + ": Python " + what + " need " + host + ": " + dlerror());
  const auto start = reinterpret_cast<StartFunction>(dlsym(library, "mmsim_python_start"));
  const char* failure =
      start ? start(package_folder(folder).c_str()) : "no mmsim_python_start in the library";
  if (failure != nullptr) throw InputError(where, key + ": " + failure);
}

std::shared_ptr<const ProgramInfo> start_for_program(const ExternalProgram& program) {
  start_python(program.file_where, "program.file", "programs");
  return load_external_program(program);  // now the mmsim module's loader
}

[[maybe_unused]] const bool registered_programs =
    (register_program_loader(ExternalProgram::Kind::python, start_for_program), true);

// The mmsim module's loader of ref's code (`plural`: "maps"), once Python is started for it.
template <class Code>
const OwnCodeLoader<Code>& started_for(OwnCodeLoaders<Code>& loaders, const char* plural,
                                       const OwnCodeRef& ref) {
  start_python(ref.code.file_where, ref.key, plural);
  return loaders.of(ref);
}

// Loaders of Python code of one's own that start Python, whose mmsim module then replaces them
// in `loaders` with its own: so they use only their arguments once Python is started.
template <class Code>
bool start_python_for(OwnCodeLoaders<Code>& loaders, const char* plural) {
  loaders.add(
      ExternalProgram::Kind::python,
      {.load = [&loaders, plural](
                   const OwnCodeRef& ref) { return started_for(loaders, plural, ref).load(ref); },
       .list = [&loaders, plural](
                   const OwnCodeRef& ref) { return started_for(loaders, plural, ref).list(ref); }});
  return true;
}

[[maybe_unused]] const bool registered_maps = start_python_for(map_loaders(), "maps");
[[maybe_unused]] const bool registered_policies = start_python_for(policy_loaders(), "policies");

}  // namespace
}  // namespace mmsim
