// An output file that appears complete or not at all: it is written under a temporary name
// next to its target and renamed at commit(); if never committed, the temporary is removed.
#pragma once

#include <filesystem>
#include <string>

#include "sw/program/input_error.hpp"

namespace mmsim {

// An output path must have an existing folder, checked before the work rather than after it:
// throws InputError at `where` ("what: cannot write ...") otherwise. An empty path is no output.
void check_output(const std::string& path, const SourceLocation& where, const std::string& what);

class PendingFile {
 public:
  // `suffix` is appended to the temporary name (".vcd": SystemC adds it to trace file names).
  explicit PendingFile(std::filesystem::path target, const std::string& suffix = "");
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;
  ~PendingFile();

  const std::filesystem::path& target() const { return target_; }
  const std::filesystem::path& temporary() const { return temporary_; }
  // The temporary name without `suffix`.
  std::string temporary_base() const { return base_; }
  // Writes `content` to the temporary file (throws std::runtime_error when it cannot).
  void write(const std::string& content) const;
  void commit();

 private:
  std::filesystem::path target_;
  std::string base_;
  std::filesystem::path temporary_;
  bool committed_ = false;
};

}  // namespace mmsim
