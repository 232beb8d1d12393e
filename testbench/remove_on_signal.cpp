#include "testbench/remove_on_signal.hpp"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <mutex>

namespace mmsim {
namespace {

// A signal handler may only touch lock-free atomics and call async-signal-safe functions
// (unlink, rmdir, signal, raise): the registry is a fixed table of C strings.
constexpr std::size_t kSlots = 256;
std::array<std::atomic<const char*>, kSlots> files{};
std::array<std::atomic<const char*>, kSlots> folders{};
// The process that registered each slot: a forked worker (mmsim sweep) inherits the table but
// must leave its parent's temporaries alone.
std::array<std::atomic<pid_t>, 2 * kSlots> owners{};
static_assert(std::atomic<const char*>::is_always_lock_free);
static_assert(std::atomic<pid_t>::is_always_lock_free);

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

extern "C" void remove_and_end(int signal) {
  const pid_t self = ::getpid();
  for (std::size_t i = 0; i < kSlots; ++i)
    if (const char* path = files[i].load(); path && owners[i].load() == self) ::unlink(path);
  for (std::size_t i = 0; i < kSlots; ++i)  // after the files: a folder goes once it is empty
    if (const char* path = folders[i].load(); path && owners[kSlots + i].load() == self)
      ::rmdir(path);
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

void install_handlers() {
  for (const int s : kSignals) {
    struct sigaction current {};
    if (::sigaction(s, nullptr, &current) != 0 || current.sa_handler == SIG_IGN) continue;
    struct sigaction action {};
    action.sa_handler = remove_and_end;
    sigemptyset(&action.sa_mask);
    for (const int other : kSignals) sigaddset(&action.sa_mask, other);
    ::sigaction(s, &action, nullptr);
  }
}

}  // namespace

RemoveOnSignal::RemoveOnSignal(std::string path, bool folder) : path_(std::move(path)) {
  static std::once_flag installed;
  std::call_once(installed, install_handlers);
  auto& table = folder ? folders : files;
  for (std::size_t i = 0; i < kSlots; ++i) {
    const char* empty = nullptr;
    if (table[i].compare_exchange_strong(empty, path_.c_str())) {
      slot_ = static_cast<int>(i) + (folder ? static_cast<int>(kSlots) : 0);
      owners[static_cast<std::size_t>(slot_)].store(::getpid());
      return;
    }
  }
}

RemoveOnSignal::~RemoveOnSignal() {
  if (slot_ < 0) return;
  const auto i = static_cast<std::size_t>(slot_);
  (i < kSlots ? files[i] : folders[i - kSlots]).store(nullptr);
}

}  // namespace mmsim
