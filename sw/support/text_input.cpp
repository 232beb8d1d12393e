#include "sw/support/text_input.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

namespace mmsim {
namespace {

constexpr std::size_t kChunk = std::size_t{1} << 16;

std::string size_text(std::uint64_t bytes) {
  if (bytes % (1 << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

[[noreturn]] void fail_open(int error) {
  const std::error_code code(error, std::generic_category());
  throw TextInputError(code.message(), 0, code);
}

}  // namespace

std::ifstream open_text_file(const std::filesystem::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) fail_open(errno);
  if (S_ISDIR(info.st_mode))
    throw TextInputError("is a folder", 0, std::make_error_code(std::errc::is_a_directory));
  std::ifstream in(path, std::ios::binary);
  if (!in) fail_open(errno != 0 ? errno : EIO);
  return in;
}

bool LineReader::fill() {
  buffer_.resize(kChunk);
  in_.read(buffer_.data(), static_cast<std::streamsize>(kChunk));
  if (in_.bad()) throw TextInputError("read error after line " + std::to_string(number_));
  buffer_.resize(static_cast<std::size_t>(in_.gcount()));
  position_ = 0;
  total_ += buffer_.size();
  if (total_ > limits_.total_bytes)
    throw TextInputError("the input holds more than " + size_text(limits_.total_bytes) +
                             " (the limit of an input file)",
                         number_ + 1);
  return !buffer_.empty();
}

bool LineReader::next(std::string& line) {
  line.clear();
  bool any = false;
  while (true) {
    if (position_ == buffer_.size() && !fill()) {
      if (!any) return false;
      break;
    }
    any = true;
    const char* begin = buffer_.data() + position_;
    const std::size_t left = buffer_.size() - position_;
    const auto* newline = static_cast<const char*>(std::memchr(begin, '\n', left));
    const std::size_t take = newline ? static_cast<std::size_t>(newline - begin) : left;
    if (line.size() + take > limits_.line_bytes)
      throw TextInputError("line " + std::to_string(number_ + 1) + " is longer than " +
                               size_text(limits_.line_bytes) + " (the limit of a line)",
                           number_ + 1);
    line.append(begin, take);
    position_ += take;
    if (newline) {
      ++position_;
      break;
    }
  }
  ++number_;
  return true;
}

std::string read_text(std::istream& in, TextLimits limits) {
  std::string text;
  std::string chunk(kChunk, '\0');
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(kChunk));
    if (in.bad()) throw TextInputError("read error");
    text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
    if (text.size() > limits.total_bytes)
      throw TextInputError("the input holds more than " + size_text(limits.total_bytes) +
                           " (the limit of an input file)");
  }
  return text;
}

std::optional<std::size_t> invalid_utf8(std::string_view text) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const auto continuation = [&](std::size_t i) {
    return i < text.size() && (byte(i) & 0xC0) == 0x80;
  };
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char b = byte(i);
    if (b < 0x80) {
      ++i;
      continue;
    }
    // Lead byte: its sequence length and the range its second byte must lie in (which rules out
    // overlong forms, surrogates and code points above U+10FFFF).
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;
    if (b >= 0xC2 && b <= 0xDF) {
      length = 2;
    } else if (b >= 0xE0 && b <= 0xEF) {
      length = 3;
      if (b == 0xE0) low = 0xA0;
      if (b == 0xED) high = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
      length = 4;
      if (b == 0xF0) low = 0x90;
      if (b == 0xF4) high = 0x8F;
    } else {
      return i;
    }
    if (i + 1 >= text.size() || byte(i + 1) < low || byte(i + 1) > high) return i;
    for (std::size_t k = 2; k < length; ++k)
      if (!continuation(i + k)) return i;
    i += length;
  }
  return std::nullopt;
}

}  // namespace mmsim
