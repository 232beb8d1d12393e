// What must not outlive an interrupted mmsim: the temporaries of outputs not yet complete, the
// folders made for them, and the helper processes (waveform converters) writing into them. On
// SIGINT, SIGTERM, SIGHUP or SIGPIPE the registered processes are killed and waited for, then
// the registered paths removed, then the signal ends mmsim as it would have (exit status 128 +
// the signal's number in a shell). SIGBUS is handled the same way once a file is mapped to be
// read (sw/support/mapped_files.hpp): a fault inside a mapped file means it was cut short while
// mmsim read it, which is bad input: "FILE: the trace changed while it was read", exit status 2;
// any other SIGBUS still ends mmsim as it would have.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <string>

namespace mmsim {

// How a registered path goes.
enum class Removal {
  file,            // unlinked
  empty_folder,    // removed only if empty (an output folder: it may hold complete outputs)
  private_folder,  // emptied of every file (what a killed helper left), then removed
};

class RemoveOnSignal {
 public:
  // Registers `path`; the first registration installs the handlers (a signal that was ignored,
  // as SIGHUP under nohup, stays ignored). The table holds 256 paths of each kind; beyond, a
  // path is removed only by its owner's destructor.
  explicit RemoveOnSignal(std::string path, Removal removal = Removal::file);
  // Unregisters, without removing anything.
  ~RemoveOnSignal();
  RemoveOnSignal(const RemoveOnSignal&) = delete;
  RemoveOnSignal& operator=(const RemoveOnSignal&) = delete;

 private:
  std::string path_;
  int slot_ = -1;
  Removal removal_;
};

// Holds back the signals on which registered paths are removed and processes ended, for its
// lifetime: around making a path or starting a process and registering it, so that no signal
// falls in between (and leaves it behind). A signal that came meanwhile is handled when it ends.
class RemovalSignalsHeld {
 public:
  RemovalSignalsHeld();
  ~RemovalSignalsHeld();
  RemovalSignalsHeld(const RemovalSignalsHeld&) = delete;
  RemovalSignalsHeld& operator=(const RemovalSignalsHeld&) = delete;
  // The signal mask from before (what a process started meanwhile should begin with).
  const sigset_t& previous() const { return previous_; }

 private:
  sigset_t previous_;
};

// A child process (a waveform converter) that must not outlive mmsim: on those signals it is
// killed (SIGKILL) and waited for before any path is removed, so that it cannot write into a
// folder being removed.
class EndOnSignal {
 public:
  explicit EndOnSignal(pid_t child);
  // Unregisters, without killing anything.
  ~EndOnSignal();
  EndOnSignal(const EndOnSignal&) = delete;
  EndOnSignal& operator=(const EndOnSignal&) = delete;

 private:
  int slot_ = -1;
};

}  // namespace mmsim
