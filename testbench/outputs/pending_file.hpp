// Every output of mmsim (statistics, waveforms, tables, schedules) goes through a PendingFile,
// so that it appears complete or not at all and never replaces what it should not:
// - The target is checked when the PendingFile is made, before the work: a missing folder, a
//   folder, a read-only folder, a name too long or a loop of symbolic links is reported then.
// - A regular file, or a new one, is written to a temporary in its folder; every write, the
//   flush and the close are checked, and commit() renames the temporary over the target. A
//   PendingFile never committed (an error, an exception, SIGINT or SIGTERM) leaves nothing.
// - A symbolic link is followed: the file it points to is written as above; the link stays.
// - A character device (a null device, a terminal) or a FIFO is written in place, as any Unix
//   tool would, unless the output is a script (OutputKind): then it is refused, as block devices
//   and sockets always are.
// Errors are InputError located at the option or key that named the output (exit status 2).
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

#include "sw/program/input_error.hpp"
#include "testbench/outputs/remove_on_signal.hpp"

namespace mmsim {

// What an output may replace and how it is made.
struct OutputKind {
  // A character device or a FIFO is written in place (a null device, a terminal, a pipe); a
  // job script must be a file that sbatch can read, so it refuses them.
  bool devices = true;
  // Made executable (a job script): the temporary gets 0777 less the umask, so that no mode is
  // ever changed through a path.
  bool executable = false;
};

class PendingFile {
 public:
  // `where`: the option or the key that named the output (default: the path itself).
  explicit PendingFile(const std::filesystem::path& target, SourceLocation where = {},
                       OutputKind kind = {});
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;
  ~PendingFile();

  const std::filesystem::path& target() const { return target_; }
  // Appends `content` (throws InputError when the write fails: a full disk, ...).
  void write(std::string_view content);
  // Makes the output complete: flush and close, then the rename over the target.
  void commit();

 private:
  // The regular file (or the new one) the temporary replaces: symbolic links followed. `info`
  // gets its mode.
  std::filesystem::path file_to_replace(struct stat& info) const;
  [[noreturn]] void fail(const std::string& reason) const;

  std::filesystem::path target_;  // as given, for messages
  SourceLocation where_;
  std::filesystem::path temporary_;  // empty: the target is written in place
  std::filesystem::path final_;      // what the temporary replaces (symbolic links followed)
  int descriptor_ = -1;
  bool committed_ = false;
  std::unique_ptr<RemoveOnSignal> remove_on_signal_;
};

// An output stream into a PendingFile, for outputs too large to hold in memory as a whole (a
// schedule): buffered, and a failed write throws the PendingFile's InputError out of the
// stream operation that made it (or out of flush()).
class PendingStream : public std::ostream {
 public:
  explicit PendingStream(PendingFile& file) : std::ostream(&buffer_), buffer_(file) {
    exceptions(std::ios::badbit);
  }

 private:
  class Buffer final : public std::streambuf {
   public:
    explicit Buffer(PendingFile& file);

   protected:
    int_type overflow(int_type c) override;
    int sync() override;

   private:
    void drain();
    PendingFile& file_;
    std::vector<char> data_;
  };
  Buffer buffer_;
};

// A PendingFile written while the work goes (a timeline, a waveform), kept within `limit` bytes:
// the write that would pass it throws InputError at `where` with `refusal` instead, so that the
// file never grows past its limit and, never committed, is removed.
class BoundedWriter {
 public:
  BoundedWriter(PendingFile& file, std::uint64_t limit, SourceLocation where, std::string refusal)
      : file_(file), limit_(limit), where_(std::move(where)), refusal_(std::move(refusal)) {}
  void write(std::string_view piece);
  std::uint64_t written() const { return written_; }

 private:
  PendingFile& file_;
  std::uint64_t limit_;
  SourceLocation where_;
  std::string refusal_;
  std::uint64_t written_ = 0;
};

// A file a command reads or writes, where it was named, and what it is for messages ("the
// testbench", "the output of --vcd").
struct NamedFile {
  std::string path;  // empty: none
  SourceLocation where;
  std::string role;
};

// A file named by a command-line option: the output (or input) of `option`.
NamedFile option_output(const std::string& path, const std::string& option);
NamedFile option_input(const std::string& path, const std::string& option);

// The outputs of a command, checked and opened before the work, written and committed together.
class OutputFiles {
 public:
  // Refuses an output that is an input or another output (check_distinct_files), then opens
  // each output that has a path.
  explicit OutputFiles(std::vector<NamedFile> outputs, const std::vector<NamedFile>& inputs = {});
  // The pending file of outputs[i], to write before write_all (nullptr: no path).
  PendingFile* file(std::size_t i) { return pending_.at(i).get(); }
  // Writes contents[i] to outputs[i] (those that have a path), then commits them all.
  void write_all(const std::vector<std::string>& contents);

 private:
  std::vector<NamedFile> outputs_;
  std::vector<std::unique_ptr<PendingFile>> pending_;  // one per output, null without a path
};

// Refuses an output that is one of the inputs or another output (the same file by any name:
// links, "./x", hard links). Character devices may repeat (--vcd and --stats to a null device).
void check_distinct_files(const std::vector<NamedFile>& inputs,
                          const std::vector<NamedFile>& outputs);

}  // namespace mmsim
