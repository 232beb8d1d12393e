// A fresh folder for one test's files, removed afterwards.
#pragma once

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace mmsim::test {

class TempDir {
 public:
  TempDir() {
    std::random_device entropy;
    path_ = std::filesystem::temp_directory_path() /
            ("mmsim-test-" + std::to_string(entropy()) + std::to_string(entropy()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  std::filesystem::path write(const std::string& name, const std::string& content) const {
    const auto file = path_ / name;
    std::ofstream(file) << content;
    return file;
  }
  // A copy of `from` in the folder, as `name`.
  std::filesystem::path copy(const std::filesystem::path& from, const std::string& name) const {
    const auto file = path_ / name;
    std::filesystem::copy_file(from, file);
    return file;
  }
  // The names in the folder (or one of its folders), sorted.
  std::vector<std::string> names() const { return names_of(path_); }
  static std::vector<std::string> names_of(const std::filesystem::path& folder) {
    std::vector<std::string> out;
    for (const auto& entry : std::filesystem::directory_iterator(folder))
      out.push_back(entry.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
  // A private character device in the folder (never /dev/null or /dev/full themselves):
  // kNullDevice discards what is written, kFullDevice fails every write as a full disk does.
  // Empty when mknod is not allowed (it needs root).
  static constexpr unsigned kNullDevice = 3;
  static constexpr unsigned kFullDevice = 7;
  std::optional<std::filesystem::path> device(const std::string& name, unsigned minor) const {
    const auto file = path_ / name;
    if (::mknod(file.c_str(), S_IFCHR | 0600, makedev(1, minor)) != 0) return std::nullopt;
    return file;
  }

 private:
  std::filesystem::path path_;
};

inline std::string read_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace mmsim::test
