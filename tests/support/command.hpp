// Runs a command line and captures its exit status, standard output and standard error.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "support/temp_dir.hpp"

namespace mmsim::test {

struct CommandResult {
  int status = -1;
  std::string out;
  std::string err;
};

// A path as one word of a shell command (the tests' paths hold no quote).
inline std::string shell_word(const std::filesystem::path& path) {
  std::string word;  // built in place: GCC 12 warns (-Wrestrict) on "'" + path + "'"
  word.reserve(path.native().size() + 2);
  word += '\'';
  word += path.native();
  word += '\'';
  return word;
}

inline CommandResult run_command(const std::string& command) {
  TempDir dir;
  const auto out = dir / "stdout";
  const auto err = dir / "stderr";
  const int raw =
      std::system((command + " > " + shell_word(out) + " 2> " + shell_word(err)).c_str());
  CommandResult result;
  result.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  result.out = read_file(out);
  result.err = read_file(err);
  return result;
}

// A markdown table without its provenance line ("mmsim VERSION on HOST, DATE."): the tables
// of two commands are written at different times.
inline std::string without_provenance(const std::string& table) {
  const std::size_t at = table.find("\nmmsim ");
  if (at == std::string::npos) return table;
  return table.substr(0, at + 1) + table.substr(table.find('\n', at + 1) + 1);
}

// The mmsim command of this build, with arguments.
inline CommandResult mmsim(const std::string& arguments) {
  return run_command(std::string("'") + MMSIM_BINARY + "' " + arguments);
}

}  // namespace mmsim::test
