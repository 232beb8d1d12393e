// Reading text inputs (testbenches, traces, permutations, schedules, input values) within
// bounds: an endless input (/dev/zero, a runaway generator) ends with an error naming the line
// instead of filling memory, and a file that cannot be opened says why.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <istream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

namespace mmsim {

struct TextLimits {
  // A trace line of w = 2^16 lanes with values takes about 2.6 MB.
  std::size_t line_bytes = std::size_t{16} << 20;
  // A permutation file of 2^26 destinations takes about 600 MB.
  std::uint64_t total_bytes = std::uint64_t{1} << 30;
};

// Why a text input cannot be read. Each reader reports it as its own error, at line() (0: the
// input as a whole).
class TextInputError : public std::runtime_error {
 public:
  explicit TextInputError(const std::string& message, std::size_t line = 0,
                          std::error_code code = {})
      : std::runtime_error(message), line_(line), code_(code) {}
  std::size_t line() const { return line_; }
  // The system's reason when the file could not be opened (no_such_file_or_directory, ...).
  std::error_code code() const { return code_; }

 private:
  std::size_t line_;
  std::error_code code_;
};

// Opens `path` for reading; throws TextInputError with the reason ("No such file or directory",
// "Too many levels of symbolic links", "File name too long", "is a folder", ...).
std::ifstream open_text_file(const std::filesystem::path& path);

// The lines of a text input, each within the limits.
class LineReader {
 public:
  explicit LineReader(std::istream& in, TextLimits limits = {}) : in_(in), limits_(limits) {}

  // The next line, without its '\n'; false at the end of the input. Throws TextInputError for a
  // line or an input beyond the limits, or a read error.
  bool next(std::string& line);
  // The 1-based number of the line last read.
  std::size_t number() const { return number_; }

 private:
  bool fill();

  std::istream& in_;
  TextLimits limits_;
  std::string buffer_;
  std::size_t position_ = 0;
  std::uint64_t total_ = 0;
  std::size_t number_ = 0;
};

// The whole input, within limits.total_bytes.
std::string read_text(std::istream& in, TextLimits limits = {});

// `s` without the white space (blanks, tabs, carriage returns, form and line feeds) at its ends.
inline std::string_view trim(std::string_view s) {
  constexpr std::string_view space = " \t\r\f\v\n";
  const auto first = s.find_first_not_of(space);
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(space) - first + 1);
}

// The offset of the first byte of `text` that is not part of valid UTF-8, if any.
std::optional<std::size_t> invalid_utf8(std::string_view text);

}  // namespace mmsim
