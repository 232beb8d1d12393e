// machine.address_map: {library, name}: a C++ plugin's address maps (sw/program/map_plugin.hpp),
// loaded with dlopen as its programs are (plugin_library.cpp). The library stays loaded for the
// life of the process. Each row's banks are the map's bank(row, column) for the w columns, asked
// once per row; an exception the map throws is the user's error, located at the testbench key.
#include <dlfcn.h>

#include <exception>
#include <map>

#include <fmt/format.h>

#include "sw/support/suggest.hpp"
#include "testbench/input/own_maps.hpp"

namespace mmsim {
namespace {

using MapsFunction = const std::vector<PluginMap>* (*)();
using AbiFunction = int (*)();

// "libmaps.so: map 'swizzle'"
std::string map_place(const OwnMapRef& ref, const std::string& name) {
  return ref.code.file.filename().string() + ": map '" + name + "'";
}

// An exception of the plugin's code as the user's error: "... threw: what()".
[[noreturn]] void plugin_threw(const OwnMapRef& ref, const std::string& what) {
  std::string message = "an unknown exception";
  try {
    throw;
  } catch (const std::exception& e) {
    message = e.what();
  } catch (...) {
  }
  throw InputError(ref.where, ref.key + ": " + what + " threw: " + message);
}

// The banks of a row from the plugin's AddressMap.
class PluginRows final : public RowSource {
 public:
  PluginRows(std::unique_ptr<AddressMap> map, std::string name, OwnMapRef ref)
      : map_(std::move(map)), name_(std::move(name)), ref_(std::move(ref)) {}

  std::string name() const override { return name_; }

  // One row a call (block_rows() 1): only the rows the run needs.
  std::span<const std::int64_t> banks(std::uint64_t row, std::uint64_t,
                                      std::span<std::int64_t> banks) override {
    try {
      for (std::size_t k = 0; k < banks.size(); ++k)
        banks[k] = map_->bank(static_cast<std::uint32_t>(row), static_cast<std::uint32_t>(k));
    } catch (...) {
      plugin_threw(ref_, fmt::format("{}: bank({}, column)", map_place(ref_, name_), row));
    }
    return banks;
  }

  [[noreturn]] void refuse(std::uint64_t row, std::span<const std::int64_t> banks,
                           const std::string& problem) override {
    throw InputError(ref_.where,
                     fmt::format("{}: {}: the banks of row {} are [{}]: {}", ref_.key,
                                 map_place(ref_, name_), row, fmt::join(banks, ", "), problem));
  }

 private:
  std::unique_ptr<AddressMap> map_;
  std::string name_;
  OwnMapRef ref_;
};

const std::vector<PluginMap>& plugin_maps(const OwnMapRef& ref) {
  static std::map<std::filesystem::path, const std::vector<PluginMap>*> loaded;
  if (const auto it = loaded.find(ref.code.file); it != loaded.end()) return *it->second;
  const std::string file = ref.code.file.string();
  void* library = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr)
    throw InputError(ref.code.file_where, ref.key + ": cannot load " + file + ": " + dlerror());
  const auto abi = reinterpret_cast<AbiFunction>(dlsym(library, "mmsim_plugin_maps_abi"));
  const auto maps = reinterpret_cast<MapsFunction>(dlsym(library, "mmsim_plugin_maps"));
  if (abi == nullptr || maps == nullptr)
    throw InputError(ref.code.file_where, ref.key + ": " + file +
                                              " has no address maps (no MMSIM_PLUGIN_MAPS: "
                                              "sw/program/map_plugin.hpp)");
  if (abi() != kMapPluginAbi)
    throw InputError(ref.code.file_where, ref.key + ": " + file + " was built for map plugin ABI " +
                                              std::to_string(abi()) + ", this mmsim has " +
                                              std::to_string(kMapPluginAbi) + ": rebuild it");
  return *(loaded[ref.code.file] = maps());
}

std::shared_ptr<const OwnMapCode> code_of(const PluginMap& map, const OwnMapRef& ref) {
  auto code = std::make_shared<OwnMapCode>();
  code->name = map.name;
  code->description = map.description;
  code->source = ref.code.file.string();
  code->params = map.params;
  code->rows = [&map](const MapArgs& args, const OwnMapRef& at) -> std::unique_ptr<RowSource> {
    std::unique_ptr<AddressMap> made;
    try {
      made = map.make(args);
    } catch (const ParamError&) {
      throw;  // located at the parameter (own_maps.cpp)
    } catch (...) {
      plugin_threw(at, map_place(at, map.name) + ": make");
    }
    if (made == nullptr)
      throw InputError(at.where, at.key + ": " + map_place(at, map.name) + ": make returned null");
    if (made->width() != args.width)
      throw InputError(at.where,
                       fmt::format("{}: {}: make returned a map of width {}, not w = {}", at.key,
                                   map_place(at, map.name), made->width(), args.width));
    return std::make_unique<PluginRows>(std::move(made), map.name, at);
  };
  return code;
}

std::shared_ptr<const OwnMapCode> load_plugin_map(const OwnMapRef& ref) {
  std::vector<std::string> names;
  for (const PluginMap& map : plugin_maps(ref)) {
    if (map.name == ref.code.name) return code_of(map, ref);
    names.push_back(map.name);
  }
  throw InputError(ref.code.name_where, ref.key + ": " + ref.code.file.filename().string() +
                                            " has no map '" + ref.code.name + "'" +
                                            suggestion(ref.code.name, names));
}

std::vector<std::shared_ptr<const OwnMapCode>> list_plugin_maps(const OwnMapRef& ref) {
  std::vector<std::shared_ptr<const OwnMapCode>> out;
  for (const PluginMap& map : plugin_maps(ref)) out.push_back(code_of(map, ref));
  return out;
}

[[maybe_unused]] const bool registered =
    (register_map_loader(ExternalProgram::Kind::library, {load_plugin_map, list_plugin_maps}),
     true);

}  // namespace
}  // namespace mmsim
