// The fields of one line of a trace, separated by blanks, each parsed with its column so that a
// field that is not what the format says is reported at file:line:column.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

#include "sw/gpu_traces/compressed_input.hpp"

namespace mmsim {

class LineFields {
 public:
  LineFields(std::string_view line, const TraceLines& lines) : line_(line), lines_(lines) {}

  // The next field; empty at the end of the line.
  std::string_view next() {
    while (pos_ < line_.size() && (line_[pos_] == ' ' || line_[pos_] == '\t')) ++pos_;
    start_ = pos_;
    while (pos_ < line_.size() && line_[pos_] != ' ' && line_[pos_] != '\t') ++pos_;
    return line_.substr(start_, pos_ - start_);
  }
  bool at_end() {
    while (pos_ < line_.size() && (line_[pos_] == ' ' || line_[pos_] == '\t')) ++pos_;
    return pos_ == line_.size();
  }
  // The next field as a number (`what` names it in the message).
  std::uint64_t decimal(const std::string& what) { return unsigned_number(next(), 10, what); }
  std::int64_t signed_decimal(const std::string& what) {
    const std::string_view field = next();
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (field.empty() || error != std::errc() || end != field.data() + field.size())
      fail("expected " + what + " (a decimal integer), got " + shown(field));
    return value;
  }
  // Hexadecimal, with or without "0x".
  std::uint64_t hex(const std::string& what) {
    std::string_view field = next();
    if (field.size() > 2 && field[0] == '0' && (field[1] == 'x' || field[1] == 'X'))
      field.remove_prefix(2);
    return unsigned_number(field, 16, what);
  }
  std::uint64_t unsigned_number(std::string_view field, int base, const std::string& what) {
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value, base);
    if (field.empty() || error != std::errc() || end != field.data() + field.size())
      fail("expected " + what + (base == 16 ? " (hexadecimal)" : " (a decimal integer)") +
           ", got " + shown(field));
    return value;
  }
  // The column (1-based) of the field read last.
  std::size_t column() const { return start_ + 1; }
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
  std::string_view line_;
  const TraceLines& lines_;
  std::size_t pos_ = 0;
  std::size_t start_ = 0;
};

}  // namespace mmsim
