// An output as a run will write it: the command line's request over the testbench's
// (outputs.<name>), key by key, each value with where it was given, so that every message about
// it names the option or the key (docs/running.md, "Files mmsim reads and writes").
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "testbench/input/testbench.hpp"
#include "testbench/outputs/pending_file.hpp"

namespace mmsim {

// The options of `mmsim run` that ask for an output and choose its keys ("" : none).
struct OutputOptions {
  std::string file{};  // "--timeline"
  std::string from{};
  std::string to{};
  std::string scopes{};
  std::string limit{};
  std::string interval{};
  std::string noun{};  // what the output is in messages and help: "waveform"
  std::string unit{};  // its window's unit: "cycle"
};

// The time units [from, to] an output keeps of a run: a waveform's cycles, a timeline's time
// units.
struct TimeWindow {
  static constexpr std::uint64_t kUnbounded = ~std::uint64_t{0};  // no `to`
  std::uint64_t from = 0;
  std::uint64_t to = kUnbounded;

  bool whole() const { return from == 0 && to == kUnbounded; }
  // How many of the time units 0 .. last it keeps.
  std::uint64_t kept(std::uint64_t last) const {
    const std::uint64_t end = std::min(last, to);
    return end >= from ? end - from + 1 : 0;
  }
};

// A value of an output's request and where it was given.
template <class T>
struct Located {
  T value;
  SourceLocation where;
};

class AskedOutput {
 public:
  // `name`: outputs.<name>; `command_line`: what the command line asks of it (nullptr: nothing);
  // `named_by`: the option that named its file when not its own (--out-dir's folder, "" : its
  // own).
  AskedOutput(const Testbench& tb, std::string name, const OutputRequest* command_line,
              const std::string& named_by, OutputOptions options);

  const std::string& name() const { return name_; }
  // Asked for: a file named (by either), or `true` (a flag).
  bool asked() const { return asked_; }
  // Its file (no path: none), where it was named, and its role in messages.
  const NamedFile& file() const { return file_; }
  std::optional<Located<std::uint64_t>> from() const {
    return number(&OutputRequest::from, "from");
  }
  std::optional<Located<std::uint64_t>> to() const { return number(&OutputRequest::to, "to"); }
  std::optional<Located<std::uint64_t>> limit() const {
    return number(&OutputRequest::limit, "limit");
  }
  std::optional<Located<std::uint64_t>> interval() const {
    return number(&OutputRequest::interval, "interval");
  }
  std::vector<Located<std::string>> scopes() const;
  // Its window: from and to where given, the whole run otherwise.
  TimeWindow window() const;

  // Refuses options given for an output that is not asked ("there is no timeline to choose for:
  // give --timeline FILE (or outputs.timeline)"), and a window that ends before it begins.
  void check() const;

 private:
  std::optional<Located<std::uint64_t>> number(std::optional<std::uint64_t> OutputRequest::*field,
                                               const std::string& key) const;
  const std::string& option(const std::string& key) const;
  bool on_command_line(const std::string& key) const;

  const Testbench& tb_;
  std::string name_;
  const OutputRequest* command_line_;
  const OutputRequest* testbench_;  // nullptr: the testbench names it not
  OutputOptions options_;
  bool asked_ = false;
  NamedFile file_;
};

}  // namespace mmsim
