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
  // Whether it is a regular file (not a pipe, a FIFO or a device).
  bool regular() const { return regular_; }

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

// The longest line of a trace.
inline constexpr std::size_t kMaxTraceLineBytes = std::size_t{1} << 20;

// The text a trace may hold between two of its own lines (blank lines, comments, the traced
// program's own output): beyond it the file is refused, so that a file of nothing else (a
// decompression bomb: a few kB of zstd that make 20 GiB of newlines) ends in seconds.
inline constexpr std::uint64_t kMaxSkippedBytes = std::uint64_t{1} << 30;

// A line of a trace file: its file and 1-based number. where() locates it, or a field of it
// (column 1-based; 0: the whole line), as an error's place.
struct TraceLinePlace {
  const std::string* file = nullptr;
  std::uint64_t number = 0;

  SourceLocation where(std::size_t column = 0) const {
    const auto clamp = [](std::uint64_t v) {
      return static_cast<int>(std::min<std::uint64_t>(v, INT_MAX));
    };
    return {*file, clamp(number), clamp(column)};
  }
};

// The lines of a trace file (compressed or not), each at most `line_limit` bytes, at most
// `skipped_limit` bytes of them in a row that are not the trace's own (the reader says which are:
// took()). On cache lines of its own: a reading thread writes its counters at every line, and
// a line of memory shared with the recording thread's state would pass between processors.
class alignas(64) TraceLines {
 public:
  TraceLines(const std::filesystem::path& file, const std::string& what,
             std::size_t line_limit = kMaxTraceLineBytes,
             std::uint64_t skipped_limit = kMaxSkippedBytes);

  // The next line without its end ('\n', and a '\r' before it); valid until the next call.
  // False at the end of the file. Throws InputError, located at the first of them, when the
  // lines since the last one taken pass the limit.
  bool next(std::string_view& line);
  // The line last read is one of the trace's own: the count of skipped text starts again.
  void took() {
    taken_end_ = read_bytes_;
    taken_number_ = number_;
  }
  // The 1-based number of the line last read.
  std::uint64_t number() const { return number_; }
  // The line last read, and where it is (column 1-based, 0: the whole line).
  TraceLinePlace place() const { return {&input_.file(), number_}; }
  SourceLocation where(std::size_t column = 0) const { return place().where(column); }
  const std::string& file() const { return input_.file(); }
  Compression compression() const { return input_.compression(); }
  bool regular() const { return input_.regular(); }
  double decompress_seconds() const { return input_.seconds(); }

 private:
  [[noreturn]] void skipped_too_much() const;

  CompressedInput input_;
  std::size_t line_limit_;
  std::uint64_t skipped_limit_;
  std::uint64_t read_bytes_ = 0;  // of the lines read, with their ends
  std::uint64_t taken_end_ = 0;   // read_bytes_ after the line taken last
  std::uint64_t taken_number_ = 0;
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
