#include "testbench/external/plugin_code.hpp"

#include <dlfcn.h>

#include <exception>

namespace mmsim {

void* plugin_table_function(const std::filesystem::path& file, const SourceLocation& where,
                            const std::string& key, const PluginExports& exports) {
  const std::string name = file.string();
  void* library = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) throw InputError(where, key + ": cannot load " + name + ": " + dlerror());
  const auto abi = reinterpret_cast<int (*)()>(dlsym(library, exports.abi_symbol));
  void* table = dlsym(library, exports.table_symbol);
  if (abi == nullptr || table == nullptr)
    throw InputError(where, key + ": " + name + " " + exports.without);
  if (const int built = abi(); built != exports.abi)
    throw InputError(where, key + ": " + name + " was built for " + exports.abi_name + " " +
                                std::to_string(built) + ", this mmsim has " +
                                std::to_string(exports.abi) + ": rebuild it");
  return table;
}

std::string thrown_text() {
  try {
    throw;
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "an exception that is not a std::exception";
  }
}

}  // namespace mmsim
