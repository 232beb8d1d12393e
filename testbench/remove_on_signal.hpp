// Files and folders that must not outlive an interrupted mmsim: the temporaries of outputs not
// yet complete. On SIGINT, SIGTERM, SIGHUP or SIGPIPE the registered paths are removed, then the
// signal ends mmsim as it would have (exit status 128 + the signal's number in a shell).
#pragma once

#include <string>

namespace mmsim {

class RemoveOnSignal {
 public:
  // Registers `path` (a file, or an empty folder when `folder`); the first registration installs
  // the handlers (a signal that was ignored, as SIGHUP under nohup, stays ignored). The table
  // holds 256 paths; beyond, a path is removed only by its owner's destructor.
  explicit RemoveOnSignal(std::string path, bool folder = false);
  // Unregisters, without removing anything.
  ~RemoveOnSignal();
  RemoveOnSignal(const RemoveOnSignal&) = delete;
  RemoveOnSignal& operator=(const RemoveOnSignal&) = delete;

 private:
  std::string path_;
  int slot_ = -1;
};

}  // namespace mmsim
