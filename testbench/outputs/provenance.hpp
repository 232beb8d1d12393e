// Where a statistics file comes from, recorded in every one (run, sweep results and tables,
// plan, congestion): mmsim's version, the command line, when and on which host.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace mmsim {

struct Provenance {
  std::string version;  // `git describe --always --dirty` at build time, or the release
  std::string command;  // the whole command line, quoted for a POSIX shell
  std::string date;     // UTC, ISO 8601 (2026-11-23T15:04:05Z)
  std::string host;
};

// mmsim's version (the build's git describe, or the project's version without git).
const char* mmsim_version();

// Records the process's command line (main does, once).
void set_command_line(int argc, const char* const* argv);
// The command line recorded, quoted ("" when none was).
const std::string& command_line();

// The provenance of an output made now by `command`.
Provenance provenance_now(const std::string& command = command_line());

// Adds version, command, date and host to a JSON object.
void add_provenance(nlohmann::json& object, const Provenance& provenance);
// "mmsim VERSION on HOST, DATE", for the headers of tables.
std::string describe(const Provenance& provenance);

// `word` as a POSIX shell reads it back: as it is when that is safe, else in single quotes.
std::string shell_quote(const std::string& word);

}  // namespace mmsim
