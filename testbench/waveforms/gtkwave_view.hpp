// The GTKWave save file written next to every waveform (out.vcd -> out.gtkw), so that
// `gtkwave out.vcd out.gtkw` opens ready to read: the dispatcher, each memory (its packing unit
// or coalescer with the per-bank loads, its pipeline, its banks), the barrier and the first
// warps, in groups of their own colour, named by their place below `machine`. Warp states,
// memory spaces and unit numbers read as names through GTKWave translate filter files written
// next to the save file (out.gtkw.state.txt, ...). On the hierarchical machine: the global
// memory, then one group per streaming multiprocessor.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "hw/machine/machine.hpp"
#include "hw/support/tracer.hpp"

namespace mmsim {

// The files of a view: the save file and its translate filters, each with its contents.
struct GtkwaveViewFile {
  std::filesystem::path path;
  std::string contents;
};

struct GtkwaveViewPlace {
  std::filesystem::path waveform;   // the dump file (absolute)
  std::filesystem::path save_file;  // absolute: the waveform's name with .gtkw
};

// Warp units shown per group (the first ones of the machine, or of each multiprocessor).
inline constexpr std::size_t kViewedUnits = 4;

// The save file next to `waveform`, and its filters beside it.
GtkwaveViewPlace gtkwave_view_place(const std::filesystem::path& waveform);
// Their paths, before the run (so that they are checked as outputs with the waveform).
std::vector<std::filesystem::path> gtkwave_view_paths(const GtkwaveViewPlace& place);

// The save file and its filters for the signals `traced` of `machine`, showing cycles
// [first, last] of the run (the window) from its start.
std::vector<GtkwaveViewFile> gtkwave_view(Machine& machine,
                                          const std::vector<Tracer::Signal>& traced,
                                          const GtkwaveViewPlace& place, std::uint64_t first,
                                          std::uint64_t last);

}  // namespace mmsim
