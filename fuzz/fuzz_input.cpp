#include "fuzz/fuzz_input.hpp"

#include <cstdlib>
#include <fstream>
#include <stdexcept>

#include "sw/planning/dmm_plan.hpp"
#include "sw/planning/permutation.hpp"
#include "sw/planning/schedule_file.hpp"
#include "sw/planning/umm_plan.hpp"

namespace mmsim::fuzz {
namespace {

void write_file(const std::filesystem::path& file, std::string_view text) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!out.flush()) throw std::runtime_error("cannot write " + file.string());
}

// The files the corpus testbenches name (program.params.file, permutation, schedule), next to
// the configs. The schedules are made by the planners for P = bit_reversal of 16 elements, w = 4.
void write_helper_files(const std::filesystem::path& dir) {
  write_file(dir / "trace.csv", "# Nakano 2012, Fig. 4\n0,read,0,1,5,10\n1,read,8,9,14,15\n");
  write_file(dir / "values.txt", "3 1 4 1 5 9 2 6 5 3 5 8 9 7 9 3\n");
  const planning::Permutation p = planning::bit_reversal_permutation(16);
  std::string lines;
  for (const std::uint64_t d : p) lines += std::to_string(d) + "\n";
  write_file(dir / "permutation.txt", lines);
  planning::save_schedule(dir / "schedule_dmm.txt", planning::plan_dmm(p, 4), p);
  planning::save_schedule(dir / "schedule_umm.txt", planning::plan_umm(p, 4), p);
}

class WorkDir {
 public:
  WorkDir() {
    const std::filesystem::path base = std::filesystem::temp_directory_path();
    std::string pattern = (base / "mmsim-fuzz-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr)
      throw std::runtime_error("cannot make a folder in " + base.string());
    path_ = pattern;
    const std::filesystem::path configs = std::filesystem::path(MMSIM_SOURCE_DIR) / "configs";
    std::filesystem::create_directory(path_ / "configs");
    for (const auto& entry : std::filesystem::recursive_directory_iterator(configs)) {
      const std::filesystem::path to =
          path_ / "configs" / std::filesystem::relative(entry.path(), configs);
      if (entry.is_directory())
        std::filesystem::create_directories(to);
      else if (entry.path().extension() != ".png")
        std::filesystem::copy_file(entry.path(), to);
    }
    write_helper_files(path_ / "configs");
    // The GPU traces the gpu_trace testbenches name (../examples/traces/...), and the kernels
    // of examples/traces/three_kernels/ at the top, where a kernels list input names them.
    const std::filesystem::path traces = std::filesystem::path(MMSIM_SOURCE_DIR) / "examples";
    std::filesystem::copy(traces, path_ / "examples", std::filesystem::copy_options::recursive);
    for (const auto& entry :
         std::filesystem::directory_iterator(traces / "traces" / "three_kernels"))
      if (entry.path().filename().string().rfind("kernel-", 0) == 0)
        std::filesystem::copy_file(entry.path(), path_ / entry.path().filename());
  }
  ~WorkDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  WorkDir(const WorkDir&) = delete;
  WorkDir& operator=(const WorkDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace

const std::filesystem::path& work_dir() {
  static const WorkDir dir;
  return dir.path();
}

std::filesystem::path write_input(const std::string& name, const std::uint8_t* data,
                                  std::size_t size) {
  const std::filesystem::path file = work_dir() / name;
  write_file(file, as_text(data, size));
  return file;
}

std::vector<std::string> set_lines(std::string_view text) {
  constexpr std::string_view kPrefix = "#set ";
  std::vector<std::string> out;
  while (!text.empty()) {
    const auto [line, rest] = first_line(text);
    if (line.starts_with(kPrefix)) out.emplace_back(line.substr(kPrefix.size()));
    text = rest;
  }
  return out;
}

std::pair<std::string_view, std::string_view> first_line(std::string_view text) {
  const std::size_t newline = text.find('\n');
  if (newline == std::string_view::npos) return {text, {}};
  return {text.substr(0, newline), text.substr(newline + 1)};
}

void limit_run_memory() { ::setenv("MMSIM_MEMORY_LIMIT", "20971520", 1); }

}  // namespace mmsim::fuzz
