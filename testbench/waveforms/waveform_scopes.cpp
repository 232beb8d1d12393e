#include "testbench/waveforms/waveform_scopes.hpp"

#include <fnmatch.h>

namespace mmsim {
namespace {

constexpr std::string_view kTop = "machine.";

}  // namespace

ScopeSelection::ScopeSelection(std::vector<std::string> patterns)
    : patterns_(std::move(patterns)), matched_(patterns_.size(), false) {}

bool ScopeSelection::operator()(const std::string& signal) {
  bool shown = false;
  for (std::size_t i = 0; i < patterns_.size(); ++i)
    if (matches(patterns_[i], signal)) {
      matched_[i] = true;
      shown = true;
    }
  return shown;
}

std::optional<std::size_t> ScopeSelection::unmatched() const {
  for (std::size_t i = 0; i < matched_.size(); ++i)
    if (!matched_[i]) return i;
  return std::nullopt;
}

bool ScopeSelection::matches(const std::string& pattern, const std::string& signal) const {
  const bool below_top = signal.starts_with(kTop) && !std::string_view(pattern).starts_with(kTop);
  // The signal's name, then each enclosing scope's, longest first.
  std::string name = signal.substr(below_top ? kTop.size() : 0);
  while (true) {
    if (::fnmatch(pattern.c_str(), name.c_str(), 0) == 0) return true;
    const std::size_t dot = name.rfind('.');
    if (dot == std::string::npos) return false;
    name.resize(dot);
  }
}

}  // namespace mmsim
