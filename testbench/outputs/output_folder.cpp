#include "testbench/outputs/output_folder.hpp"

#include "sw/program/input_error.hpp"

namespace mmsim {

OutputFolder::OutputFolder(std::filesystem::path path, const std::string& option)
    : path_(std::move(path)) {
  std::error_code error;
  if (std::filesystem::is_directory(path_, error)) return;
  std::filesystem::path missing = path_.lexically_normal();
  if (!missing.has_filename()) missing = missing.parent_path();  // "runs/a/" is "runs/a"
  for (; !missing.empty() &&
         !std::filesystem::exists(std::filesystem::symlink_status(missing, error));
       missing = missing.parent_path())
    made_.push_back(missing);
  if (made_.empty())
    throw InputError({option, 0, 0}, path_.string() + " exists and is not a folder");
  // A signal between making the folders and registering them would leave them behind.
  const RemovalSignalsHeld held;
  if (!std::filesystem::create_directories(path_, error)) {
    remove_made();
    throw InputError({option, 0, 0},
                     "cannot make the folder " + path_.string() + ": " + error.message());
  }
  for (const std::filesystem::path& folder : made_)
    remove_on_signal_.push_back(
        std::make_unique<RemoveOnSignal>(folder.string(), Removal::empty_folder));
}

OutputFolder::~OutputFolder() {
  remove_on_signal_.clear();
  remove_made();
}

void OutputFolder::remove_made() {
  std::error_code error;
  for (const std::filesystem::path& folder : made_) {
    if (!std::filesystem::exists(folder, error)) continue;  // its making failed
    if (!std::filesystem::is_empty(folder, error) || !std::filesystem::remove(folder, error))
      return;
  }
}

}  // namespace mmsim
