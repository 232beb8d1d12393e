// An output as a run will write it: the command line's request over the testbench's
// (outputs.<name>), key by key, each value with where it was given, so that every message about
// it names the option or the key (docs/running.md, "Files mmsim reads and writes").
#pragma once

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
  // own); `noun`: what it is in messages ("waveform"), `unit` its window's ("cycle").
  AskedOutput(const Testbench& tb, std::string name, const OutputRequest* command_line,
              const std::string& named_by, OutputOptions options, std::string noun,
              std::string unit);

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
  std::string noun_;
  std::string unit_;
  bool asked_ = false;
  NamedFile file_;
};

}  // namespace mmsim
