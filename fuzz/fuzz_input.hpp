// What the fuzz targets share. The parsers read files, so each input is written to a file in a
// private folder (removed at exit) and the real entry point reads it; inputs may name other
// files relative to themselves, so the folder also holds a copy of configs/ (its testbenches,
// sweeps and their helper files).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace mmsim::fuzz {

// The process's private folder: made on first use, with configs/ copied into it (its pictures
// left out) and, in configs/, the files its testbenches name: trace.csv, values.txt,
// permutation.txt (bit_reversal of 16), schedule_dmm.txt and schedule_umm.txt (its plans for
// w = 4); examples/, with the GPU traces the gpu_trace testbenches name, and at the top the
// kernel-N.traceg files of examples/traces/three_kernels/ (for a kernels list input).
const std::filesystem::path& work_dir();

// Writes `data` to work_dir() / `name` (replacing what was there) and returns the path; a
// testbench goes to "configs/NAME", a sweep to "configs/sweeps/NAME", as the corpus inputs came.
std::filesystem::path write_input(const std::string& name, const std::uint8_t* data,
                                  std::size_t size);

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// The --set options a YAML input carries as comment lines "#set key.path=value" (still a valid
// YAML file), so that one input exercises both the file and its overrides.
std::vector<std::string> set_lines(std::string_view text);

// The first line of `text` (without its '\n') and the rest.
std::pair<std::string_view, std::string_view> first_line(std::string_view text);

// Keeps the runs an input may describe small: MMSIM_MEMORY_LIMIT for the memory check that
// every run passes before it allocates (mmsim itself counts 16 MiB of it).
void limit_run_memory();

}  // namespace mmsim::fuzz
