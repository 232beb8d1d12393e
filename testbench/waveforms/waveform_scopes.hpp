// The scopes a waveform shows (outputs.vcd.scopes, --vcd-scope): glob patterns (fnmatch: `*`,
// `?`, `[0-3]`; `*` also crosses dots) over hierarchical names. A signal is shown when a
// pattern matches its name or the name of a scope it lies in, with or without the leading
// "machine.": `machine.warp_[0-3]`, `warp_[0-3]*` and `memory.bank_*` all work.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace mmsim {

class ScopeSelection {
 public:
  explicit ScopeSelection(std::vector<std::string> patterns);

  // Whether the signal is shown; remembers which patterns matched.
  bool operator()(const std::string& signal);
  // The index of the first pattern that matched no signal offered so far.
  std::optional<std::size_t> unmatched() const;

 private:
  bool matches(const std::string& pattern, const std::string& signal) const;

  std::vector<std::string> patterns_;
  std::vector<bool> matched_;
};

}  // namespace mmsim
