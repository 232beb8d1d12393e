// A C++ plugin: a shared library of warp programs built outside the tree against the installed
// mmsim (CMake: find_package(mmsim), target mmsim::mmsim). Its programs are ProgramInfo entries,
// as the catalogue lists the built-in ones; `program: {library: libmine.so, name: ...}` runs one
// (docs/own_programs.md). In the plugin's source, at namespace scope:
//   MMSIM_PLUGIN_PROGRAMS(my_program_info(), my_other_program_info())
#pragma once

#include <vector>

#include "sw/program/program_info.hpp"

namespace mmsim {

// Changes whenever ProgramInfo, WarpProgram or Warp change in a way a built plugin would not
// survive: a plugin built for another ABI is refused by name.
inline constexpr int kPluginAbi = 2;

}  // namespace mmsim

#define MMSIM_PLUGIN_PROGRAMS(...)                                                     \
  extern "C" [[gnu::visibility("default")]] int mmsim_plugin_abi() {                   \
    return ::mmsim::kPluginAbi;                                                        \
  }                                                                                    \
  extern "C" [[gnu::visibility("default")]] const std::vector<::mmsim::ProgramInfo>*   \
  mmsim_plugin_programs() {                                                            \
    static const std::vector<::mmsim::ProgramInfo> programs = {__VA_ARGS__};           \
    return &programs;                                                                  \
  }
