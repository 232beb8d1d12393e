#include "testbench/pending_file.hpp"

#include <fstream>
#include <stdexcept>
#include <system_error>

namespace mmsim {

void check_output(const std::string& path, const SourceLocation& where, const std::string& what) {
  if (path.empty()) return;
  const std::filesystem::path parent = std::filesystem::absolute(path).parent_path();
  if (!std::filesystem::is_directory(parent))
    throw InputError(where, what + ": cannot write " + path + ": no folder " + parent.string());
}

PendingFile::PendingFile(std::filesystem::path target, const std::string& suffix)
    : target_(std::move(target)),
      base_(target_.string() + ".partial"),
      temporary_(base_ + suffix) {}

PendingFile::~PendingFile() {
  if (committed_) return;
  std::error_code ignored;
  std::filesystem::remove(temporary_, ignored);
}

void PendingFile::write(const std::string& content) const {
  std::ofstream out(temporary_, std::ios::binary | std::ios::trunc);
  out << content;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + temporary_.string());
}

void PendingFile::commit() {
  std::filesystem::rename(temporary_, target_);
  committed_ = true;
}

}  // namespace mmsim
