// Runs a command line and captures its exit status, standard output and standard error.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <string>

#include "support/temp_dir.hpp"

namespace mmsim::test {

struct CommandResult {
  int status = -1;
  std::string out;
  std::string err;
};

inline CommandResult run_command(const std::string& command) {
  TempDir dir;
  const auto out = dir / "stdout";
  const auto err = dir / "stderr";
  const int raw =
      std::system((command + " > '" + out.string() + "' 2> '" + err.string() + "'").c_str());
  CommandResult result;
  result.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  result.out = read_file(out);
  result.err = read_file(err);
  return result;
}

// The mmsim command of this build, with arguments.
inline CommandResult mmsim(const std::string& arguments) {
  return run_command(std::string("'") + MMSIM_BINARY + "' " + arguments);
}

}  // namespace mmsim::test
