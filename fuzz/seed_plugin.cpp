// The known-good seed of the plugin_library fuzz target: a complete mmsim plugin (one program,
// "seed", that makes nothing: the target only opens the library and lists its programs), built
// without libmmsim.so so that opening it loads no second copy of mmsim into the fuzzer.
#include "sw/program/plugin.hpp"

MMSIM_PLUGIN_PROGRAMS(::mmsim::ProgramInfo{.name = "seed",
                                           .summary = "the plugin_library fuzz target's seed",
                                           .source = "fuzz/seed_plugin.cpp",
                                           .params = {},
                                           .make = nullptr})
