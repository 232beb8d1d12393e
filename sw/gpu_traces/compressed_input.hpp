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
#include <optional>
#include <string>
#include <string_view>

#include "sw/program/input_error.hpp"
#include "sw/support/mapped_files.hpp"

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

  // A plain file (a regular one) is also read in place, mapped a window at a time, which spares
  // copying its bytes into a buffer: whether it can be (its first window mapped), and the bytes
  // [offset, offset + length) clipped to its end (empty past it), valid until the next call.
  // Use one way or the other. A file cut short while a window is mapped makes reading the window
  // fault (SIGBUS): the window is registered (sw/support/mapped_files.hpp) for the handler to
  // report that the trace changed while it was read.
  bool mappable();
  std::string_view map(std::uint64_t offset, std::size_t length);
  std::uint64_t size() const { return size_; }

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
  bool regular_ = false;
  std::uint64_t size_ = 0;  // of a regular file
  void* window_ = nullptr;  // mapped
  std::size_t window_bytes_ = 0;
  std::optional<MappedFileWindow> registered_;  // window_, while it is mapped
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
  // The bytes at hand: buffer_'s, or the window of a mapped file, which starts at `offset_`.
  bool mapped_ = false;
  std::size_t window_ = 0;
  std::uint64_t offset_ = 0;
  std::string buffer_;
  const char* data_ = "";
  std::size_t begin_ = 0;  // the unread bytes are data_[begin_, end_)
  std::size_t end_ = 0;
  bool eof_ = false;
  std::uint64_t number_ = 0;
};

}  // namespace mmsim
