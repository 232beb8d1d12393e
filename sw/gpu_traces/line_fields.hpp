// The fields of one line of a trace, separated by blanks, each parsed with its column so that a
// field that is not what the format says is reported at file:line:column. Numbers are parsed
// as the field is scanned (a trace has millions of them).
#pragma once

#include <array>
#include <charconv>
#include <cstdint>
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

class LineFields {
 public:
  LineFields(std::string_view line, const TraceLines& lines)
      : begin_(line.data()), at_(line.data()), end_(line.data() + line.size()), lines_(lines) {}

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
  // A register, R and a number.
  void register_name() {
    skip_blanks();
    start_ = at_;
    unsigned digits = 0;
    if (at_ != end_ && *at_ == 'R')
      for (++at_; at_ != end_ && *at_ >= '0' && *at_ <= '9'; ++at_) ++digits;
    if (digits == 0 || !field_ends()) bad("a register", " (R and its number)");
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
    throw InputError(lines_.where(column()), message);
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
  const TraceLines& lines_;
};

}  // namespace mmsim
