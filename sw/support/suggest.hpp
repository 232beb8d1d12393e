// "Did you mean ...?" for mistyped names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace mmsim {

// The candidate closest to `name` by edit distance, if close enough to be a likely typo.
std::string nearest_name(std::string_view name, const std::vector<std::string>& candidates);

// " (did you mean 'x'?)", " (expected one of: a, b, c)" or, without candidates,
// " (there are none)".
std::string suggestion(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace mmsim
