// Address maps of one's own (docs/own_maps.md): machine.address_map (or
// machine.shared.address_map) naming a Python class ({file, class, params}) or a C++ plugin's
// map ({library, name, params}), as `program:` names a program from outside the tree, or in short
// `file.py:Class`, `library.so:name`. A loader per kind turns the code into an OwnMapCode; the
// code is loaded, and the params read against what it declares, when the machine is built (its
// first memory with the map), not while the testbench is read. What loads it serves any code a
// testbench names beside its program (a dispatch policy next): the reference and its checks
// (ExternalProgram, as program: has), the params (param_input.hpp), the registry of loaders per
// kind, the start of Python in the command (testbench/external/python_launcher.cpp).
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hw/memory/address_maps.hpp"
#include "hw/memory/tabulated_map.hpp"
#include "sw/program/external_program.hpp"
#include "sw/program/map_plugin.hpp"
#include "testbench/input/param_input.hpp"

namespace mmsim {

// What names a map of one's own: its code, its params as written.
struct OwnMapRef {
  std::string key;       // where it is named: "machine.address_map", "--map"
  SourceLocation where;  // of its value
  ExternalProgram code;  // the file (Python) or library (C++), the class or the map's name
  WrittenParams params;  // where: of params, or of the value when it gives none
};

// A map's code, loaded.
struct OwnMapCode {
  std::string name;
  std::string description;
  std::string source;  // its file or library
  std::vector<ParamSpec> params;
  // Where the rows of a memory come from; its errors (the user's) are located at `ref`.
  std::function<std::unique_ptr<RowSource>(const MapArgs& args, const OwnMapRef& ref)> rows;
};

// The loaders of one kind of code (Python, C++ plugin).
struct MapLoader {
  // The map `ref` names (InputError at ref's places: no such class, ...).
  std::function<std::shared_ptr<const OwnMapCode>(const OwnMapRef& ref)> load;
  // Every map of ref's file or library (mmsim list maps --file, --library).
  std::function<std::vector<std::shared_ptr<const OwnMapCode>>(const OwnMapRef& ref)> list;
};

// Replaces the loader of `kind`.
void register_map_loader(ExternalProgram::Kind kind, MapLoader loader);
// The loader of ref's kind, or InputError at ref (a missing file, a kind this process cannot load).
const MapLoader& map_loader(const OwnMapRef& ref);

// The map `ref` names, as the machine is built with it: it loads the code when it first makes a
// map, and makes every memory of the same rows (the multiprocessors' shared memories) read one
// table of rows.
std::shared_ptr<const AddressMapInfo> own_address_map(OwnMapRef ref);

// `text` names a map of one's own in short: "file.py:Class" (Python) or "library:name" (a
// plugin); it is none when it holds no ':'. Relative files are taken from `base`.
std::optional<OwnMapRef> short_map_ref(const std::string& text, const std::filesystem::path& base,
                                       const std::string& key, const SourceLocation& where);

}  // namespace mmsim
