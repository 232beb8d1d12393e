// machine.address_map: {library, name}: a C++ plugin's address maps (sw/program/map_plugin.hpp),
// loaded as its programs are (plugin_code.hpp). Each row's banks are the map's bank(row, column)
// for the w columns, asked once per row; an exception the map throws is the user's error,
// located at the testbench key.
#include <fmt/format.h>

#include "testbench/external/plugin_code.hpp"
#include "testbench/input/own_maps.hpp"

namespace mmsim {
namespace {

// "libmaps.so: map 'swizzle'"
std::string map_place(const OwnCodeRef& ref, const std::string& name) {
  return ref.code.file.filename().string() + ": map '" + name + "'";
}

// An exception of the plugin's code as the user's error: "... threw: what()".
[[noreturn]] void plugin_threw(const OwnCodeRef& ref, const std::string& what) {
  throw InputError(ref.where, ref.key + ": " + what + " threw: " + thrown_text());
}

// The banks of a row from the plugin's AddressMap.
class PluginRows final : public RowSource {
 public:
  PluginRows(std::unique_ptr<AddressMap> map, std::string name, OwnCodeRef ref)
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
  OwnCodeRef ref_;
};

std::shared_ptr<const OwnMapCode> code_of(const PluginMap& map, const OwnCodeRef& ref) {
  const std::shared_ptr<OwnMapCode> code = plugin_code<OwnMapCode>(map, ref);
  code->rows = [&map](const MapArgs& args, const OwnCodeRef& at) -> std::unique_ptr<RowSource> {
    std::unique_ptr<AddressMap> made;
    try {
      made = map.make(args);
    } catch (const ParamError&) {
      throw;  // located at the parameter (own_code.hpp)
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

[[maybe_unused]] const bool registered =
    (map_loaders().add(
         ExternalProgram::Kind::library,
         plugin_loader<OwnMapCode, PluginMap>(
             {.abi_symbol = "mmsim_plugin_maps_abi",
              .table_symbol = "mmsim_plugin_maps",
              .abi = kMapPluginAbi,
              .abi_name = "map plugin ABI",
              .without = "has no address maps (no MMSIM_PLUGIN_MAPS: sw/program/map_plugin.hpp)"},
             code_of)),
     true);

}  // namespace
}  // namespace mmsim
