#include "sw/gpu_traces/compressed_input.hpp"

#include <fcntl.h>
#include <lzma.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>
#include <vector>

namespace mmsim {

std::string_view to_string(Compression compression) {
  switch (compression) {
    case Compression::none:
      return "plain";
    case Compression::gzip:
      return "gzip";
    case Compression::xz:
      return "xz";
    case Compression::zstd:
      return "zstd";
  }
  return "?";
}

// Decompresses the file's bytes, which it reads itself through `source` (the file descriptor's
// reader): each format keeps its own state, and says when its stream ended early or is corrupt.
class CompressedInput::Decoder {
 public:
  explicit Decoder(CompressedInput& input) : input_(input), in_(kInput) {}
  virtual ~Decoder() = default;
  virtual std::size_t read(char* out, std::size_t capacity) = 0;

 protected:
  static constexpr std::size_t kInput = std::size_t{1} << 18;

  // More compressed bytes into in_; false at the end of the file.
  bool refill() {
    if (at_end_) return false;
    const ssize_t n = read_some(in_.data(), in_.size());
    if (n == 0) {
      at_end_ = true;
      return false;
    }
    available_ = static_cast<std::size_t>(n);
    return true;
  }
  ssize_t read_some(unsigned char* out, std::size_t capacity) {
    while (true) {
      const ssize_t n = ::read(input_.fd_, out, capacity);
      if (n >= 0) return n;
      if (errno != EINTR) fail(std::string("read error: ") + std::strerror(errno));
    }
  }
  [[noreturn]] void fail(const std::string& why) const {
    throw InputError({input_.file_, 0, 0}, input_.what_ + ": " + why);
  }
  [[noreturn]] void truncated() const {
    fail(std::string("the ") + std::string(to_string(input_.compression_)) +
         " stream ends before its end (a truncated file?)");
  }

  CompressedInput& input_;
  std::vector<unsigned char> in_;
  std::size_t available_ = 0;  // bytes of in_ read from the file, from its start
  bool at_end_ = false;
};

namespace {

constexpr unsigned char kGzipMagic[] = {0x1f, 0x8b};
constexpr unsigned char kXzMagic[] = {0xfd, '7', 'z', 'X', 'Z', 0x00};
constexpr unsigned char kZstdMagic[] = {0x28, 0xb5, 0x2f, 0xfd};
// A zstd skippable frame (0x184D2A50 to 0x184D2A5F, little-endian): pzstd writes one first, with
// the sizes of the frames it compressed in parallel; libzstd's stream skips it.
constexpr unsigned char kZstdSkippableMagic[] = {0x2a, 0x4d, 0x18};
constexpr unsigned char kBzip2Magic[] = {'B', 'Z', 'h'};

template <std::size_t N>
bool starts_with(const unsigned char* data, std::size_t size, const unsigned char (&magic)[N]) {
  return size >= N && std::memcmp(data, magic, N) == 0;
}

bool starts_with_zstd(const unsigned char* data, std::size_t size) {
  return starts_with(data, size, kZstdMagic) ||
         (size >= 4 && (data[0] & 0xf0) == 0x50 &&
          starts_with(data + 1, size - 1, kZstdSkippableMagic));
}

class PlainDecoder final : public CompressedInput::Decoder {
 public:
  PlainDecoder(CompressedInput& input, const unsigned char* peeked, std::size_t size)
      : Decoder(input), peeked_(size) {
    std::memcpy(in_.data(), peeked, size);
  }
  std::size_t read(char* out, std::size_t capacity) override {
    if (used_ < peeked_) {  // the bytes read to recognise the format come first
      const std::size_t n = std::min(capacity, peeked_ - used_);
      std::memcpy(out, in_.data() + used_, n);
      used_ += n;
      return n;
    }
    return static_cast<std::size_t>(read_some(reinterpret_cast<unsigned char*>(out), capacity));
  }

 private:
  std::size_t peeked_;
  std::size_t used_ = 0;
};

// gzip (RFC 1952), several members one after the other as gzip itself writes them.
class GzipDecoder final : public CompressedInput::Decoder {
 public:
  GzipDecoder(CompressedInput& input, const unsigned char* peeked, std::size_t size)
      : Decoder(input) {
    std::memcpy(in_.data(), peeked, size);
    available_ = size;
    stream_.next_in = in_.data();
    stream_.avail_in = static_cast<uInt>(size);
    if (inflateInit2(&stream_, 16 + MAX_WBITS) != Z_OK) fail("cannot start zlib");
  }
  ~GzipDecoder() override { inflateEnd(&stream_); }

  std::size_t read(char* out, std::size_t capacity) override {
    stream_.next_out = reinterpret_cast<Bytef*>(out);
    stream_.avail_out = static_cast<uInt>(std::min<std::size_t>(capacity, UINT_MAX));
    while (stream_.avail_out > 0 && !done_) {
      if (stream_.avail_in == 0) {
        if (!refill()) {
          if (in_member_) truncated();
          done_ = true;
          break;
        }
        stream_.next_in = in_.data();
        stream_.avail_in = static_cast<uInt>(available_);
      }
      if (!in_member_) {  // another member follows: it must be gzip again
        if (stream_.next_in[0] != kGzipMagic[0])
          fail("bytes that are not gzip follow the gzip stream");
        inflateReset(&stream_);
        in_member_ = true;
      }
      const int status = inflate(&stream_, Z_NO_FLUSH);
      if (status == Z_STREAM_END) {
        in_member_ = false;
      } else if (status == Z_BUF_ERROR) {
        continue;  // needs more input
      } else if (status != Z_OK) {
        fail(std::string("corrupt gzip data (") + (stream_.msg ? stream_.msg : "zlib error") + ")");
      }
    }
    return capacity - stream_.avail_out;
  }

 private:
  z_stream stream_{};
  bool in_member_ = true;
  bool done_ = false;
};

// xz (several streams one after the other, as xz writes them).
class XzDecoder final : public CompressedInput::Decoder {
 public:
  XzDecoder(CompressedInput& input, const unsigned char* peeked, std::size_t size)
      : Decoder(input) {
    std::memcpy(in_.data(), peeked, size);
    stream_.next_in = in_.data();
    stream_.avail_in = size;
    if (lzma_stream_decoder(&stream_, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
      fail("cannot start liblzma");
  }
  ~XzDecoder() override { lzma_end(&stream_); }

  std::size_t read(char* out, std::size_t capacity) override {
    stream_.next_out = reinterpret_cast<std::uint8_t*>(out);
    stream_.avail_out = capacity;
    while (stream_.avail_out > 0 && !done_) {
      lzma_action action = LZMA_RUN;
      if (stream_.avail_in == 0) {
        if (refill()) {
          stream_.next_in = in_.data();
          stream_.avail_in = available_;
        } else {
          action = LZMA_FINISH;
        }
      }
      const lzma_ret status = lzma_code(&stream_, action);
      if (status == LZMA_STREAM_END) {
        done_ = true;
      } else if (status == LZMA_BUF_ERROR && action == LZMA_FINISH) {
        truncated();
      } else if (status == LZMA_DATA_ERROR || status == LZMA_FORMAT_ERROR ||
                 status == LZMA_OPTIONS_ERROR) {
        fail("corrupt xz data");
      } else if (status != LZMA_OK && status != LZMA_BUF_ERROR) {
        fail("xz decoding failed (liblzma error " + std::to_string(status) + ")");
      }
    }
    return capacity - stream_.avail_out;
  }

 private:
  lzma_stream stream_ = LZMA_STREAM_INIT;
  bool done_ = false;
};

// zstd (several frames one after the other).
class ZstdDecoder final : public CompressedInput::Decoder {
 public:
  ZstdDecoder(CompressedInput& input, const unsigned char* peeked, std::size_t size)
      : Decoder(input), stream_(ZSTD_createDStream()) {
    if (stream_ == nullptr) fail("cannot start libzstd");
    std::memcpy(in_.data(), peeked, size);
    buffer_ = {in_.data(), size, 0};
  }
  ~ZstdDecoder() override { ZSTD_freeDStream(stream_); }

  std::size_t read(char* out, std::size_t capacity) override {
    ZSTD_outBuffer output = {out, capacity, 0};
    while (output.pos < output.size) {
      if (buffer_.pos == buffer_.size) {
        if (!refill()) {
          if (in_frame_) truncated();
          break;
        }
        buffer_ = {in_.data(), available_, 0};
      }
      const std::size_t hint = ZSTD_decompressStream(stream_, &output, &buffer_);
      if (ZSTD_isError(hint))
        fail(std::string("corrupt zstd data (") + ZSTD_getErrorName(hint) + ")");
      in_frame_ = hint != 0;
    }
    return output.pos;
  }

 private:
  ZSTD_DStream* stream_;
  ZSTD_inBuffer buffer_{};
  bool in_frame_ = true;
};

}  // namespace

CompressedInput::CompressedInput(const std::filesystem::path& file, const std::string& what)
    : file_(file.string()), what_(what) {
  const auto cannot = [&](const std::string& why) {
    throw InputError({file_, 0, 0}, "cannot open " + what_ + ": " + why);
  };
  fd_ = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) cannot(std::strerror(errno));
  struct stat info {};
  if (::fstat(fd_, &info) != 0) {
    const int error = errno;
    ::close(fd_);
    cannot(std::strerror(error));
  }
  if (S_ISDIR(info.st_mode)) {
    ::close(fd_);
    cannot("is a folder");
  }
  regular_ = S_ISREG(info.st_mode);
  size_ = static_cast<std::uint64_t>(info.st_size);
  const auto start = std::chrono::steady_clock::now();
  unsigned char peek[sizeof kXzMagic];
  std::size_t peeked = 0;
  while (peeked < sizeof peek) {
    const ssize_t n = ::read(fd_, peek + peeked, sizeof peek - peeked);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd_);
      cannot(std::strerror(error));
    }
    if (n == 0) break;
    peeked += static_cast<std::size_t>(n);
  }
  if (starts_with(peek, peeked, kBzip2Magic)) {
    ::close(fd_);
    throw InputError({file_, 0, 0}, what_ +
                                        " is compressed with bzip2, which mmsim does not read: "
                                        "decompress it, or recompress it with zstd, xz or gzip");
  }
  if (starts_with(peek, peeked, kGzipMagic)) {
    compression_ = Compression::gzip;
    decoder_ = std::make_unique<GzipDecoder>(*this, peek, peeked);
  } else if (starts_with(peek, peeked, kXzMagic)) {
    compression_ = Compression::xz;
    decoder_ = std::make_unique<XzDecoder>(*this, peek, peeked);
  } else if (starts_with_zstd(peek, peeked)) {
    compression_ = Compression::zstd;
    decoder_ = std::make_unique<ZstdDecoder>(*this, peek, peeked);
  } else {
    decoder_ = std::make_unique<PlainDecoder>(*this, peek, peeked);
  }
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

CompressedInput::~CompressedInput() {
  registered_.reset();
  if (window_ != nullptr) ::munmap(window_, window_bytes_);
  decoder_.reset();
  if (fd_ >= 0) ::close(fd_);
}

bool CompressedInput::mappable() {
  if (compression_ != Compression::none || !regular_ || size_ == 0) return false;
  void* window = ::mmap(nullptr, 1, PROT_READ, MAP_PRIVATE, fd_, 0);
  if (window == MAP_FAILED) return false;  // a file system that cannot: read() it is
  ::munmap(window, 1);
  return true;
}

std::string_view CompressedInput::map(std::uint64_t offset, std::size_t length) {
  const auto start = std::chrono::steady_clock::now();
  registered_.reset();
  if (window_ != nullptr) ::munmap(window_, window_bytes_);
  window_ = nullptr;
  if (offset >= size_) return {};
  // Mapped from the page holding `offset`; the kernel maps the pages of the page cache around
  // each one touched (16 at a fault), which measured faster than reading them all in at once
  // (MAP_POPULATE) and than read()'s copy.
  static const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  const std::uint64_t from = offset / page * page;
  const auto bytes =
      static_cast<std::size_t>(std::min<std::uint64_t>(size_ - from, length + (offset - from)));
  void* window = ::mmap(nullptr, bytes, PROT_READ, MAP_PRIVATE, fd_, static_cast<off_t>(from));
  if (window == MAP_FAILED)
    throw InputError({file_, 0, 0}, what_ + ": read error: " + std::strerror(errno));
  window_ = window;
  window_bytes_ = bytes;
  registered_.emplace(window, bytes, file_.c_str());
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return {static_cast<const char*>(window) + (offset - from), bytes - (offset - from)};
}

std::size_t CompressedInput::read(char* out, std::size_t capacity) {
  const auto start = std::chrono::steady_clock::now();
  const std::size_t n = decoder_->read(out, capacity);
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return n;
}

TraceLines::TraceLines(const std::filesystem::path& file, const std::string& what,
                       std::size_t line_limit, std::uint64_t skipped_limit)
    : input_(file, what), line_limit_(line_limit), skipped_limit_(skipped_limit) {
  // A window holds a line of the limit, from any place in its first page.
  mapped_ = input_.mappable();
  if (mapped_) {
    window_ = std::max(line_limit + 1 + 65536, std::size_t{4} << 20);
  } else {
    buffer_.assign(std::max(line_limit + 1, std::size_t{1} << 20), '\0');
    data_ = buffer_.data();
  }
}

bool TraceLines::next(std::string_view& line) {
  while (true) {
    const char* begin = data_ + begin_;
    // A blank line without the call: a file of nothing else (a decompression bomb) is refused
    // only after kMaxSkippedBytes of them (10^9 lines: 5.4 s of CPU rather than 7.9 s).
    const auto* newline =
        begin_ < end_ && *begin == '\n'
            ? begin
            : static_cast<const char*>(std::memchr(begin, '\n', end_ - begin_));
    std::size_t length = 0;
    if (newline != nullptr) {
      length = static_cast<std::size_t>(newline - begin);
      begin_ += length + 1;
    } else if (eof_ && begin_ < end_) {  // the last line, with no '\n' after it
      length = end_ - begin_;
      begin_ = end_;
    } else if (eof_) {
      return false;
    } else if (end_ - begin_ > line_limit_) {
      ++number_;
      break;
    } else if (mapped_) {  // the next window, from the partial line on
      offset_ += begin_;
      const std::string_view window = input_.map(offset_, window_);
      data_ = window.empty() ? "" : window.data();
      begin_ = 0;
      end_ = window.size();
      eof_ = offset_ + end_ >= input_.size();
      continue;
    } else {  // the partial line to the front, more behind it
      std::memmove(buffer_.data(), begin, end_ - begin_);
      end_ -= begin_;
      begin_ = 0;
      const std::size_t n = input_.read(buffer_.data() + end_, buffer_.size() - end_);
      eof_ = n == 0;
      end_ += n;
      continue;
    }
    if (read_bytes_ - taken_end_ > skipped_limit_) skipped_too_much();
    ++number_;
    read_bytes_ += length + (newline != nullptr);
    if (length > line_limit_) break;
    if (length > 0 && begin[length - 1] == '\r') --length;
    line = std::string_view(begin, length);
    return true;
  }
  throw InputError(where(), "the line is longer than " + std::to_string(line_limit_) +
                                " bytes (the limit of a trace line)");
}

void TraceLines::skipped_too_much() const {
  const auto clamp = [](std::uint64_t v) {
    return static_cast<int>(std::min<std::uint64_t>(v, INT_MAX));
  };
  throw InputError({input_.file(), clamp(taken_number_ + 1), 0},
                   "no line of the trace in the " + std::to_string(read_bytes_ - taken_end_) +
                       " bytes from here to line " + std::to_string(number_) +
                       ": mmsim skips at most " + std::to_string(skipped_limit_) +
                       " bytes of other lines in a row (is it a trace in this format?)");
}

}  // namespace mmsim
