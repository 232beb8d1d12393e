// program.library: a C++ plugin's programs (sw/program/plugin.hpp), loaded with dlopen. The
// library stays loaded for the life of the process: its programs' code runs until the end.
#include <dlfcn.h>

#include <map>

#include "sw/program/external_program.hpp"
#include "sw/program/plugin.hpp"
#include "sw/support/suggest.hpp"

namespace mmsim {
namespace {

using ProgramsFunction = const std::vector<ProgramInfo>* (*)();
using AbiFunction = int (*)();

const std::vector<ProgramInfo>& plugin_programs(const ExternalProgram& plugin) {
  static std::map<std::filesystem::path, const std::vector<ProgramInfo>*> loaded;
  if (const auto it = loaded.find(plugin.file); it != loaded.end()) return *it->second;
  const std::string file = plugin.file.string();
  void* library = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr)
    throw InputError(plugin.file_where, "program.library: cannot load " + file + ": " + dlerror());
  const auto abi = reinterpret_cast<AbiFunction>(dlsym(library, "mmsim_plugin_abi"));
  const auto programs = reinterpret_cast<ProgramsFunction>(dlsym(library, "mmsim_plugin_programs"));
  if (abi == nullptr || programs == nullptr)
    throw InputError(plugin.file_where, "program.library: " + file +
                                            " is not an mmsim plugin (it has no "
                                            "MMSIM_PLUGIN_PROGRAMS: sw/program/plugin.hpp)");
  if (abi() != kPluginAbi)
    throw InputError(plugin.file_where, "program.library: " + file + " was built for plugin ABI " +
                                            std::to_string(abi()) + ", this mmsim has " +
                                            std::to_string(kPluginAbi) + ": rebuild it");
  return *(loaded[plugin.file] = programs());
}

std::shared_ptr<const ProgramInfo> load_plugin_program(const ExternalProgram& plugin) {
  const std::vector<ProgramInfo>& programs = plugin_programs(plugin);
  std::vector<std::string> names;
  for (const ProgramInfo& info : programs) {
    // The library stays loaded: the entry lives as long as the process.
    if (info.name == plugin.name) return {std::shared_ptr<void>(), &info};
    names.push_back(info.name);
  }
  throw InputError(plugin.name_where, "program.name: " + plugin.file.filename().string() +
                                          " has no program '" + plugin.name + "'" +
                                          suggestion(plugin.name, names));
}

[[maybe_unused]] const bool registered =
    (register_program_loader(ExternalProgram::Kind::library, load_plugin_program), true);

}  // namespace
}  // namespace mmsim
