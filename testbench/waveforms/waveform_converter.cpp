#include "testbench/waveforms/waveform_converter.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>
#include <vector>

extern char** environ;

namespace mmsim {
namespace {

const char* converter(WaveformFormat format) {
  return format == WaveformFormat::fst ? "vcd2fst" : "vcd2lxt2";
}

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::stringstream folders(path ? path : "/usr/bin:/bin");
  std::string folder;
  while (std::getline(folders, folder, ':'))
    if (::access(((folder.empty() ? "." : folder) + "/" + program).c_str(), X_OK) == 0) return true;
  return false;
}

std::string reason(int error) { return std::generic_category().message(error); }

}  // namespace

WaveformFormat waveform_format(const std::filesystem::path& file) {
  const std::string extension = file.extension().string();
  if (extension == ".fst") return WaveformFormat::fst;
  if (extension == ".lxt2") return WaveformFormat::lxt2;
  return WaveformFormat::vcd;
}

const char* to_string(WaveformFormat format) {
  switch (format) {
    case WaveformFormat::vcd:
      return "VCD";
    case WaveformFormat::fst:
      return "FST";
    case WaveformFormat::lxt2:
      return "LXT2";
  }
  return "?";
}

void check_converter(WaveformFormat format, const SourceLocation& where) {
  if (format == WaveformFormat::vcd || on_path(converter(format))) return;
  throw InputError(where, std::string("writing ") + to_string(format) + " needs " +
                              converter(format) +
                              " (Debian package gtkwave; scripts/setup installs it), which is not "
                              "on the PATH");
}

WaveformConverter::WaveformConverter(WaveformFormat format, const std::string& folder,
                                     const SourceLocation& where)
    : format_(format),
      where_(where),
      output_(folder + (format == WaveformFormat::fst ? "/waveform.fst" : "/waveform.lxt2")),
      log_(folder + "/converter.log"),
      remove_output_(std::make_unique<RemoveOnSignal>(output_)),
      remove_log_(std::make_unique<RemoveOnSignal>(log_)) {
  int pipe_ends[2];
  if (::pipe2(pipe_ends, O_CLOEXEC) != 0) fail("cannot make a pipe: " + reason(errno));
  const int log = ::open(log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (log < 0) {
    ::close(pipe_ends[0]);
    ::close(pipe_ends[1]);
    fail("cannot open its log: " + reason(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_ends[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, log, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, log, STDERR_FILENO);
  const std::string program = converter(format);
  const std::string output_option = format == WaveformFormat::fst ? "-f" : "-l";
  std::vector<std::string> words = {program, "-v", "-", output_option, output_};
  std::vector<char*> args;
  for (std::string& word : words) args.push_back(word.data());
  args.push_back(nullptr);
  // A signal between the spawn and the registration would leave the converter running: the
  // signals wait until it is registered; the converter itself starts with the mask as it was.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  int error = 0;
  {
    const RemovalSignalsHeld held;
    posix_spawnattr_setsigmask(&attributes, &held.previous());
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK);
    error = ::posix_spawnp(&pid_, program.c_str(), &actions, &attributes, args.data(), environ);
    if (error == 0) end_on_signal_ = std::make_unique<EndOnSignal>(pid_);
  }
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_ends[0]);
  ::close(log);
  if (error != 0) {
    ::close(pipe_ends[1]);
    pid_ = -1;
    fail("cannot start " + program + ": " + reason(error));
  }
  input_ = pipe_ends[1];
}

WaveformConverter::~WaveformConverter() {
  if (input_ >= 0) ::close(input_);
  end_on_signal_.reset();
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  ::unlink(output_.c_str());
  ::unlink(log_.c_str());
}

void WaveformConverter::fail(const std::string& what) const {
  throw InputError(where_, std::string("cannot write ") + to_string(format_) + " with " +
                               converter(format_) + ": " + what);
}

void WaveformConverter::write(std::string_view vcd) {
  // SIGPIPE is blocked in the thread that calls this (WaveformPipe's copier): a converter that
  // stopped reading makes the write fail with EPIPE instead of ending mmsim.
  while (!vcd.empty()) {
    const ssize_t written = ::write(input_, vcd.data(), vcd.size());
    if (written < 0 && errno == EINTR) continue;
    if (written < 0) fail("it stopped reading its input: " + reason(errno));
    vcd.remove_prefix(static_cast<std::size_t>(written));
  }
}

void WaveformConverter::finish(PendingFile& file) {
  ::close(input_);
  input_ = -1;
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  end_on_signal_.reset();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::ifstream log(log_);
    std::string said((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
    if (said.size() > 2000) said = "..." + said.substr(said.size() - 2000);
    fail((WIFEXITED(status) ? "it exited with status " + std::to_string(WEXITSTATUS(status))
                            : "it was killed by signal " + std::to_string(WTERMSIG(status))) +
         (said.empty() ? std::string() : ": " + said));
  }
  const int in = ::open(output_.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) fail("cannot read its result: " + reason(errno));
  std::vector<char> buffer(std::size_t{1} << 20);
  while (true) {
    const ssize_t got = ::read(in, buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      const int error = errno;
      ::close(in);
      fail("cannot read its result: " + reason(error));
    }
    if (got == 0) break;
    try {
      file.write({buffer.data(), static_cast<std::size_t>(got)});
    } catch (...) {
      ::close(in);
      throw;
    }
  }
  ::close(in);
}

}  // namespace mmsim
