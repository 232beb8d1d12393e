// A C++ plugin's address maps (docs/own_maps.md): a shared library built outside the tree
// against the installed mmsim, as a plugin's programs are (sw/program/plugin.hpp), whose maps
// `machine.address_map: {library: libmine.so, name: ..., params: {...}}` names. A map is an
// AddressMap (hw/memory/address_map.hpp: a RowPermutation with its rule, or any AddressMap with
// its bank(row, column)). mmsim asks its bank(row, column) for the w columns of each row it needs,
// once per row, checks that they are a permutation of 0..w-1 and keeps them in a table
// (hw/memory/tabulated_map.hpp). In the plugin's source, at namespace scope:
//   MMSIM_PLUGIN_MAPS(my_map(), my_other_map())
// (a library may hold programs too: MMSIM_PLUGIN_PROGRAMS beside it).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hw/memory/address_map.hpp"
#include "sw/program/params.hpp"

namespace mmsim {

// What a map is made for: a memory of `rows` rows of `width` banks, the machine's seed, and the
// map's parameters (as declared, each given or its default).
struct MapArgs {
  unsigned width = 1;
  std::uint64_t rows = 0;
  std::uint64_t seed = 1;
  ParamValues params{};
};

struct PluginMap {
  std::string name;
  std::string description;
  std::vector<ParamSpec> params;
  std::function<std::unique_ptr<AddressMap>(const MapArgs&)> make;
};

// Changes whenever PluginMap, MapArgs or AddressMap change in a way a built plugin would not
// survive: a plugin built for another ABI is refused by name.
inline constexpr int kMapPluginAbi = 1;

}  // namespace mmsim

#define MMSIM_PLUGIN_MAPS(...)                                                     \
  extern "C" [[gnu::visibility("default")]] int mmsim_plugin_maps_abi() {          \
    return ::mmsim::kMapPluginAbi;                                                 \
  }                                                                                \
  extern "C" [[gnu::visibility("default")]] const std::vector<::mmsim::PluginMap>* \
  mmsim_plugin_maps() {                                                            \
    static const std::vector<::mmsim::PluginMap> maps = {__VA_ARGS__};             \
    return &maps;                                                                  \
  }
