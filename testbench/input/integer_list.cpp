#include "testbench/input/integer_list.hpp"

#include <charconv>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "sw/program/input_error.hpp"

namespace mmsim {
namespace {

std::optional<std::uint64_t> parse_integer(std::string_view text) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc()) return std::nullopt;
  if (ptr != end && *ptr == '^' && value == 2) {
    unsigned exponent = 0;
    const auto [p2, ec2] = std::from_chars(ptr + 1, end, exponent);
    if (ec2 != std::errc() || p2 != end || exponent > 63) return std::nullopt;
    return std::uint64_t{1} << exponent;
  }
  if (ptr != end) return std::nullopt;
  return value;
}

}  // namespace

std::vector<std::uint64_t> parse_integer_list(const std::string& option, const std::string& text,
                                              std::uint64_t min, std::uint64_t max) {
  const auto fail = [&](const std::string& why) -> std::vector<std::uint64_t> {
    throw InputError({option, 0, 0}, why + " (expected integers from " + std::to_string(min) +
                                         " to " + std::to_string(max) +
                                         " separated by commas, ranges a-b, or powers 2^k)");
  };
  std::vector<std::uint64_t> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view item = std::string_view(text).substr(start, comma - start);
    const std::size_t dash = item.find('-');
    const auto first = parse_integer(item.substr(0, dash));
    const auto last = dash == std::string_view::npos ? first : parse_integer(item.substr(dash + 1));
    if (!first || !last) return fail(fmt::format("'{}' is not an integer or a range", item));
    if (*first > *last) return fail(fmt::format("the range '{}' is empty", item));
    if (*last - *first >= 100000) return fail(fmt::format("the range '{}' is too long", item));
    for (const std::uint64_t value : {*first, *last})
      if (value < min || value > max) return fail(std::to_string(value) + " is out of range");
    for (std::uint64_t value = *first;; ++value) {
      out.push_back(value);
      if (value == *last) break;
    }
    start = comma + 1;
  }
  return out;
}
std::uint64_t parse_integer_option(const std::string& option, const std::string& text,
                                   std::uint64_t min, std::uint64_t max) {
  const auto value = parse_integer(text);
  if (!value || *value < min || *value > max)
    throw InputError({option, 0, 0}, "expected an integer from " + std::to_string(min) + " to " +
                                         std::to_string(max) + ", got '" + text + "'");
  return *value;
}

}  // namespace mmsim
