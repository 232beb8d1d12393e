// Address maps of one's own (docs/own_maps.md): machine.address_map (or
// machine.shared.address_map) naming a Python class or a C++ plugin's map, code of one's own
// (own_code.hpp). A loader per language turns the code into an OwnMapCode; it is loaded, and its
// params read, when the machine is built (its first memory with the map).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hw/memory/address_maps.hpp"
#include "hw/memory/tabulated_map.hpp"
#include "sw/program/map_plugin.hpp"
#include "testbench/input/own_code.hpp"

namespace mmsim {

// A map's code, loaded.
struct OwnMapCode {
  std::string name;
  std::string description;
  std::string source;  // its file or library
  std::vector<ParamSpec> params;
  // Where the rows of a memory come from; its errors (the user's) are located at `ref`.
  std::function<std::unique_ptr<RowSource>(const MapArgs& args, const OwnCodeRef& ref)> rows;
};

// The loaders of maps, by language.
OwnCodeLoaders<OwnMapCode>& map_loaders();

// The map `ref` names, as the machine is built with it: it loads the code when it first makes a
// map, and makes every memory of the same rows (the multiprocessors' shared memories) read one
// table of rows.
std::shared_ptr<const AddressMapInfo> own_address_map(OwnCodeRef ref);

}  // namespace mmsim
