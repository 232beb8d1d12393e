// The bytes of a trace file as they are read, decompressed on the way: plain text, gzip, xz or
// zstd, told apart by the file's first bytes (not its name). One buffer at a time, so that
// memory stays bounded whatever the file's length; a stream that ends early (a truncated
// download) or is corrupt is an InputError naming the file.
#pragma once

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "sw/program/input_error.hpp"

namespace mmsim {

enum class Compression { none, gzip, xz, zstd };

std::string_view to_string(Compression compression);

class CompressedInput {
 public:
  // Opens `file`; `what` names it in messages ("trace file"). Throws InputError when it cannot
  // be opened, is a folder, or is compressed in a format mmsim does not read (bzip2).
  CompressedInput(const std::filesystem::path& file, const std::string& what);
  ~CompressedInput();
  CompressedInput(const CompressedInput&) = delete;
  CompressedInput& operator=(const CompressedInput&) = delete;

  // Fills `out` with up to `capacity` decompressed bytes; 0 at the end of the (last) stream.
  std::size_t read(char* out, std::size_t capacity);

  Compression compression() const { return compression_; }
  const std::string& file() const { return file_; }
  // Wall-clock seconds spent reading and decompressing so far.
  double seconds() const { return seconds_; }

  class Decoder;  // one per compression

 private:
  std::string file_;
  std::string what_;
  int fd_ = -1;
  Compression compression_ = Compression::none;
  std::unique_ptr<Decoder> decoder_;
  double seconds_ = 0;
};

// The lines of a trace file (compressed or not), each at most `line_limit` bytes.
class TraceLines {
 public:
  TraceLines(const std::filesystem::path& file, const std::string& what,
             std::size_t line_limit = std::size_t{1} << 20);

  // The next line without its end ('\n', and a '\r' before it); valid until the next call.
  // False at the end of the file.
  bool next(std::string_view& line);
  // The 1-based number of the line last read.
  std::uint64_t number() const { return number_; }
  // Where the line last read is (column 1-based, 0: the whole line).
  SourceLocation where(std::size_t column = 0) const {
    const auto clamp = [](std::uint64_t v) {
      return static_cast<int>(std::min<std::uint64_t>(v, INT_MAX));
    };
    return {input_.file(), clamp(number_), clamp(column)};
  }
  const std::string& file() const { return input_.file(); }
  Compression compression() const { return input_.compression(); }
  double decompress_seconds() const { return input_.seconds(); }

 private:
  CompressedInput input_;
  std::size_t line_limit_;
  std::string buffer_;
  std::size_t begin_ = 0;  // the unread bytes are buffer_[begin_, end_)
  std::size_t end_ = 0;
  bool eof_ = false;
  std::uint64_t number_ = 0;
};

}  // namespace mmsim
