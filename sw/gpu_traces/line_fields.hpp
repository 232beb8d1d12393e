// The fields of one line of a trace, separated by blanks, each parsed with its column so that a
// field that is not what the format says is reported at file:line:column. Numbers are parsed
// as the field is scanned (a trace has millions of them).
#pragma once

#include <array>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "sw/gpu_traces/compressed_input.hpp"

namespace mmsim {

// A hexadecimal digit's value, or 16.
inline constexpr std::array<unsigned char, 256> kHexDigits = [] {
  std::array<unsigned char, 256> table{};
  table.fill(16);
  for (unsigned c = '0'; c <= '9'; ++c) table[c] = static_cast<unsigned char>(c - '0');
  for (unsigned c = 'a'; c <= 'f'; ++c) table[c] = static_cast<unsigned char>(c - 'a' + 10);
  for (unsigned c = 'A'; c <= 'F'; ++c) table[c] = static_cast<unsigned char>(c - 'A' + 10);
  return table;
}();

// "x,y,z" of non-negative integers, or "(x,y,z)", blanks allowed around each: a CTA id or a
// grid or block size.
inline bool parse_triple(std::string_view text, std::array<std::uint32_t, 3>& out) {
  const auto trimmed = [](std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
  };
  text = trimmed(text);
  if (text.size() >= 2 && text.front() == '(' && text.back() == ')')
    text = text.substr(1, text.size() - 2);
  for (unsigned i = 0; i < 3; ++i) {
    const std::size_t comma = i < 2 ? text.find(',') : text.size();
    if (comma == std::string_view::npos) return false;
    const std::string_view field = trimmed(text.substr(0, comma));
    const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), out[i]);
    if (field.empty() || error != std::errc() || end != field.data() + field.size()) return false;
    text = i < 2 ? text.substr(comma + 1) : std::string_view{};
  }
  return true;
}

class LineFields {
 public:
  LineFields(std::string_view line, TraceLinePlace place)
      : begin_(line.data()), at_(line.data()), end_(line.data() + line.size()), place_(place) {}

  // The next field; empty at the end of the line.
  std::string_view next() {
    skip_blanks();
    start_ = at_;
    while (at_ != end_ && *at_ != ' ' && *at_ != '\t') ++at_;
    return {start_, static_cast<std::size_t>(at_ - start_)};
  }
  bool at_end() {
    skip_blanks();
    return at_ == end_;
  }
  // The next field as a number (`what` names it in the message).
  std::uint64_t decimal(const char* what) {
    skip_blanks();
    start_ = at_;
    std::uint64_t value = 0;
    unsigned digits = 0;
    while (at_ != end_ && *at_ >= '0' && *at_ <= '9' && digits < 19) {
      value = value * 10 + static_cast<unsigned>(*at_ - '0');
      ++at_;
      ++digits;
    }
    if (digits == 0 || !field_ends()) bad(what, " (a decimal integer)");
    return value;
  }
  std::int64_t signed_decimal(const char* what) {
    skip_blanks();
    const bool negative = at_ != end_ && *at_ == '-';
    if (negative) ++at_;
    const std::uint64_t magnitude = decimal(what);
    if (negative) --start_;
    return negative ? -static_cast<std::int64_t>(magnitude) : static_cast<std::int64_t>(magnitude);
  }
  // Hexadecimal (1 to 16 digits), with or without "0x".
  std::uint64_t hex(const char* what) {
    skip_blanks();
    start_ = at_;
    if (end_ - at_ > 2 && at_[0] == '0' && (at_[1] == 'x' || at_[1] == 'X')) at_ += 2;
    std::uint64_t value = 0;
    unsigned digits = 0;
    for (; at_ != end_; ++at_, ++digits) {
      const unsigned char d = kHexDigits[static_cast<unsigned char>(*at_)];
      if (d == 16) break;
      value = (value << 4) | d;
    }
    if (digits == 0 || digits > 16 || !field_ends()) bad(what, " (hexadecimal)");
    return value;
  }
  // The next field as "0x" and 1 to 16 hexadecimal digits (a mem_trace address); false at the
  // end of the line. mem_trace's 16 digits are converted 8 at a time.
  bool address(std::uint64_t& value, const char* what) {
    skip_blanks();
    if (at_ == end_) return false;
    start_ = at_;
    if (end_ - at_ >= 18 && at_[0] == '0' && at_[1] == 'x' &&
        (end_ - at_ == 18 || at_[18] == ' ' || at_[18] == '\t')) {
      std::uint32_t high = 0, low = 0;
      if (eight_hex_digits(at_ + 2, high) && eight_hex_digits(at_ + 10, low)) {
        value = std::uint64_t{high} << 32 | low;
        at_ += 18;
        return true;
      }
    }
    if (!(end_ - at_ > 2 && at_[0] == '0' && (at_[1] == 'x' || at_[1] == 'X')))
      bad(what, " (0x and hexadecimal digits)");
    value = hex(what);
    return true;
  }
  // A register, R and a number.
  void register_name() {
    skip_blanks();
    start_ = at_;
    unsigned digits = 0;
    if (at_ != end_ && *at_ == 'R')
      for (++at_; at_ != end_ && *at_ >= '0' && *at_ <= '9'; ++at_) ++digits;
    if (digits == 0 || !field_ends()) bad("a register", " (R and its number)");
  }
  // Eight hexadecimal digits at p, all at once: each byte's value from its low four bits (plus
  // 9 for a letter), checked to be a digit or a letter a-f (either case) with byte-wise
  // comparisons in one 64-bit word, then packed four bits each, the first digit highest.
  static bool eight_hex_digits(const char* p, std::uint32_t& out) {
    if constexpr (std::endian::native != std::endian::little) {
      std::uint64_t value = 0;
      if (!parse_hex(std::string_view(p, 8), value)) return false;
      out = static_cast<std::uint32_t>(value);
      return true;
    } else {
      constexpr std::uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
      std::uint64_t x = 0;
      std::memcpy(&x, p, 8);
      if ((x & high) != 0) return false;
      // c >= k for each byte (all below 0x80): the high bit of c + 0x80 - k.
      const auto at_least = [&](std::uint64_t v, unsigned k) {
        return (v + ones * (0x80 - k)) & high;
      };
      const std::uint64_t digit = at_least(x, '0') & ~at_least(x, '9' + 1);
      const std::uint64_t lower = x | ones * 0x20;
      const std::uint64_t letter = at_least(lower, 'a') & ~at_least(lower, 'f' + 1);
      if ((digit | letter) != high) return false;
      std::uint64_t n = (x & ones * 0x0f) + ((x >> 6) & ones) * 9;
      n = ((n & 0x0f000f000f000f00ull) >> 8) | ((n & 0x000f000f000f000full) << 4);
      n = ((n & 0x00ff000000ff0000ull) >> 16) | ((n & 0x000000ff000000ffull) << 8);
      n = ((n & 0x0000ffff00000000ull) >> 32) | ((n & 0x000000000000ffffull) << 16);
      out = static_cast<std::uint32_t>(n);
      return true;
    }
  }
  // 1 to 16 hexadecimal digits.
  static bool parse_hex(std::string_view digits, std::uint64_t& value) {
    if (digits.empty() || digits.size() > 16) return false;
    std::uint64_t v = 0;
    for (const char c : digits) {
      const unsigned char d = kHexDigits[static_cast<unsigned char>(c)];
      if (d == 16) return false;
      v = (v << 4) | d;
    }
    value = v;
    return true;
  }
  // The column (1-based) of the field read last.
  std::size_t column() const { return static_cast<std::size_t>(start_ - begin_) + 1; }
  [[noreturn]] void fail(const std::string& message) const {
    throw InputError(place_.where(column()), message);
  }
  static std::string shown(std::string_view field) {
    if (field.empty()) return "the end of the line";
    std::string out(1, '\'');  // built in place: GCC 12 warns (-Wrestrict) on "'" + string
    out.append(field.substr(0, 40));
    out.append(field.size() > 40 ? "...'" : "'");
    return out;
  }

 private:
  void skip_blanks() {
    while (at_ != end_ && (*at_ == ' ' || *at_ == '\t')) ++at_;
  }
  bool field_ends() const { return at_ == end_ || *at_ == ' ' || *at_ == '\t'; }
  // The field at start_ is not `what`.
  [[noreturn]] void bad(const char* what, const char* form) {
    at_ = start_;
    const std::string_view field = next();
    fail(std::string("expected ") + what + form + ", got " + shown(field));
  }

  const char* begin_;
  const char* at_;
  const char* end_;
  const char* start_ = nullptr;
  TraceLinePlace place_;
};

}  // namespace mmsim
