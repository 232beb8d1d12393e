// Integers on the command line: one ("1000000", "2^20"), or lists of them: "16,32,64", ranges
// "1-10", powers "2^20", mixed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mmsim {

// Throws InputError located at `option` when `text` is not such a list or a value lies outside
// [min, max].
std::vector<std::uint64_t> parse_integer_list(const std::string& option, const std::string& text,
                                              std::uint64_t min, std::uint64_t max);
// One integer in [min, max].
std::uint64_t parse_integer_option(const std::string& option, const std::string& text,
                                   std::uint64_t min, std::uint64_t max);

}  // namespace mmsim
