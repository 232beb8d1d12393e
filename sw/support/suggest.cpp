#include "sw/support/suggest.hpp"

#include <algorithm>
#include <numeric>

namespace mmsim {
namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string nearest_name(std::string_view name, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, name.size() / 3) + 1;
  for (const std::string& candidate : candidates) {
    const std::size_t d = edit_distance(name, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  }
  return best;
}

std::string suggestion(std::string_view name, const std::vector<std::string>& candidates) {
  const std::string nearest = nearest_name(name, candidates);
  if (!nearest.empty()) return " (did you mean '" + nearest + "'?)";
  if (candidates.empty()) return " (there are none)";
  std::string all;
  for (const std::string& c : candidates) all += (all.empty() ? "" : ", ") + c;
  return " (expected one of: " + all + ")";
}

}  // namespace mmsim
