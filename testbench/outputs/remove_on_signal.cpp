#include "testbench/outputs/remove_on_signal.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstring>
#include <mutex>

#include "sw/support/mapped_files.hpp"

namespace mmsim {
namespace {

// A signal handler may only touch lock-free atomics and call async-signal-safe functions
// (kill, waitpid, open, getdents64, unlink, rmdir, signal, raise, write, _exit): the registry is
// fixed tables of C strings and process ids.
constexpr std::size_t kSlots = 256;
constexpr std::size_t kRemovals = 3;  // Removal's values
std::array<std::array<std::atomic<const char*>, kSlots>, kRemovals> paths{};
std::array<std::atomic<pid_t>, kSlots> children{};
// The process that registered each slot: a forked worker (mmsim sweep) inherits the tables but
// must leave its parent's temporaries and helpers alone.
std::array<std::array<std::atomic<pid_t>, kSlots>, kRemovals> path_owners{};
std::array<std::atomic<pid_t>, kSlots> child_owners{};
static_assert(std::atomic<const char*>::is_always_lock_free);
static_assert(std::atomic<pid_t>::is_always_lock_free);

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

// An entry of getdents64 (the system call: readdir may allocate).
struct DirectoryEntry {
  std::uint64_t inode;
  std::int64_t offset;
  unsigned short length;
  unsigned char type;
  char name[1];
};

// Unlinks every file of the folder at `path` (not following a link to it).
void empty_folder(const char* path) {
  const int folder = ::open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (folder < 0) return;
  alignas(8) static char buffer[8192];     // the handler runs once: the signals are blocked in it
  for (int pass = 0; pass < 64; ++pass) {  // entries unlinked while listed may be skipped
    ::lseek(folder, 0, SEEK_SET);
    bool removed = false;
    for (long got; (got = ::syscall(SYS_getdents64, folder, buffer, sizeof buffer)) > 0;) {
      for (long at = 0; at < got;) {
        const auto* entry = reinterpret_cast<const DirectoryEntry*>(buffer + at);
        at += entry->length;
        if (std::strcmp(entry->name, ".") == 0 || std::strcmp(entry->name, "..") == 0) continue;
        removed = ::unlinkat(folder, entry->name, 0) == 0 || removed;
      }
    }
    if (!removed) break;
  }
  ::close(folder);
}

// Ends the registered processes, then removes the registered paths (this process's own).
void remove_registered() {
  const pid_t self = ::getpid();
  for (std::size_t i = 0; i < kSlots; ++i)
    if (const pid_t child = children[i].load(); child > 0 && child_owners[i].load() == self) {
      ::kill(child, SIGKILL);
      ::waitpid(child, nullptr, 0);
    }
  // Files first: an output folder goes once it is empty.
  for (const Removal removal : {Removal::file, Removal::private_folder, Removal::empty_folder}) {
    const auto kind = static_cast<std::size_t>(removal);
    for (std::size_t i = 0; i < kSlots; ++i) {
      const char* path = paths[kind][i].load();
      if (!path || path_owners[kind][i].load() != self) continue;
      if (removal == Removal::file) {
        ::unlink(path);
        continue;
      }
      if (removal == Removal::private_folder) empty_folder(path);
      ::rmdir(path);
    }
  }
}

extern "C" void remove_and_end(int signal) {
  remove_registered();
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

// Writes `text` to standard error, as much as it takes.
void say(const char* text) {
  for (std::size_t left = std::strlen(text); left > 0;) {
    const ssize_t n = ::write(STDERR_FILENO, text, left);
    if (n <= 0) return;
    text += n;
    left -= static_cast<std::size_t>(n);
  }
}

extern "C" void remove_on_bus_error(int signal, siginfo_t* info, void* /*context*/) {
  const char* file = mapped_file_at(info->si_addr);
  remove_registered();
  if (file != nullptr) {
    say("mmsim: ");
    say(file);
    say(": the trace changed while it was read (it was cut short while mmsim read it)\n");
    ::_exit(2);
  }
  // Not a file mapped to be read: the access faults again once this returns, and ends mmsim.
  ::signal(signal, SIG_DFL);
}

// SIGBUS, from the first file mapped to be read on.
void install_bus_handler() {
  struct sigaction action {};
  action.sa_sigaction = remove_on_bus_error;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  for (const int other : kSignals) sigaddset(&action.sa_mask, other);
  ::sigaction(SIGBUS, &action, nullptr);
}

[[maybe_unused]] const bool bus_handler_registered =
    (on_first_mapped_file(install_bus_handler), true);

void install_handlers() {
  static std::once_flag installed;
  std::call_once(installed, [] {
    for (const int s : kSignals) {
      struct sigaction current {};
      if (::sigaction(s, nullptr, &current) != 0 || current.sa_handler == SIG_IGN) continue;
      struct sigaction action {};
      action.sa_handler = remove_and_end;
      sigemptyset(&action.sa_mask);
      for (const int other : kSignals) sigaddset(&action.sa_mask, other);
      ::sigaction(s, &action, nullptr);
    }
  });
}

}  // namespace

RemovalSignalsHeld::RemovalSignalsHeld() {
  sigset_t signals;
  sigemptyset(&signals);
  for (const int s : kSignals) sigaddset(&signals, s);
  ::pthread_sigmask(SIG_BLOCK, &signals, &previous_);
}

RemovalSignalsHeld::~RemovalSignalsHeld() { ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }

RemoveOnSignal::RemoveOnSignal(std::string path, Removal removal)
    : path_(std::move(path)), removal_(removal) {
  install_handlers();
  const auto kind = static_cast<std::size_t>(removal);
  for (std::size_t i = 0; i < kSlots; ++i) {
    const char* empty = nullptr;
    if (paths[kind][i].compare_exchange_strong(empty, path_.c_str())) {
      slot_ = static_cast<int>(i);
      path_owners[kind][i].store(::getpid());
      return;
    }
  }
}

RemoveOnSignal::~RemoveOnSignal() {
  if (slot_ >= 0)
    paths[static_cast<std::size_t>(removal_)][static_cast<std::size_t>(slot_)].store(nullptr);
}

EndOnSignal::EndOnSignal(pid_t child) {
  install_handlers();
  for (std::size_t i = 0; i < kSlots; ++i) {
    pid_t none = 0;
    if (children[i].compare_exchange_strong(none, child)) {
      slot_ = static_cast<int>(i);
      child_owners[i].store(::getpid());
      return;
    }
  }
}

EndOnSignal::~EndOnSignal() {
  if (slot_ >= 0) children[static_cast<std::size_t>(slot_)].store(0);
}

}  // namespace mmsim
