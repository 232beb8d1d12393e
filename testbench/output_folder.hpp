// A folder that a command writes its outputs into (--out-dir, the SLURM job's folder): made when
// it is missing, with its missing parents, and removed again (with the parents it made) when the
// command fails, or is ended by a signal, before anything was written into it. A folder that
// existed is never removed.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "testbench/remove_on_signal.hpp"

namespace mmsim {

class OutputFolder {
 public:
  // Throws InputError at `option` when `path` exists and is not a folder, or cannot be made.
  OutputFolder(std::filesystem::path path, const std::string& option);
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;
  ~OutputFolder();

  const std::filesystem::path& path() const { return path_; }

 private:
  // The folders this made, innermost first, each removed as long as it is empty.
  void remove_made();

  std::filesystem::path path_;
  std::vector<std::filesystem::path> made_;
  std::vector<std::unique_ptr<RemoveOnSignal>> remove_on_signal_;  // of made_, in its order
};

}  // namespace mmsim
