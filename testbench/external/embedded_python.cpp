#include "testbench/external/embedded_python.hpp"

#include <dlfcn.h>

#include <filesystem>

namespace mmsim {
namespace {

using StartFunction = const char* (*)(const char* package_folder);

// The folder this library was loaded from.
std::filesystem::path library_folder() {
  Dl_info info{};
  dladdr(reinterpret_cast<const void*>(&library_folder), &info);
  return std::filesystem::path(info.dli_fname).parent_path();
}

}  // namespace

std::string start_embedded_python() {
  const std::filesystem::path folder = library_folder();
  const std::string host = (folder / "libmmsim_python.so").string();
  // Global: the extension modules Python imports (numpy's) find libpython's symbols.
  void* library = dlopen(host.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (library == nullptr) return "it needs " + host + ": " + dlerror();
  const auto start = reinterpret_cast<StartFunction>(dlsym(library, "mmsim_python_start"));
  const char* failure = start ? start((folder / "python").c_str()) : "no mmsim_python_start";
  return failure == nullptr ? "" : std::string(failure);
}

}  // namespace mmsim
