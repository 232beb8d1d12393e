#include "testbench/output_folder.hpp"

#include "sw/program/input_error.hpp"

namespace mmsim {

OutputFolder::OutputFolder(std::filesystem::path path, const std::string& option)
    : path_(std::move(path)) {
  std::error_code error;
  if (std::filesystem::is_directory(path_, error)) return;
  if (std::filesystem::exists(std::filesystem::symlink_status(path_, error)))
    throw InputError({option, 0, 0}, path_.string() + " exists and is not a folder");
  if (!std::filesystem::create_directory(path_, error))
    throw InputError({option, 0, 0},
                     "cannot make the folder " + path_.string() + ": " + error.message());
  made_ = true;
  remove_on_signal_ = std::make_unique<RemoveOnSignal>(path_.string(), Removal::empty_folder);
}

OutputFolder::~OutputFolder() {
  remove_on_signal_.reset();
  std::error_code error;
  if (made_ && std::filesystem::is_empty(path_, error)) std::filesystem::remove(path_, error);
}

}  // namespace mmsim
