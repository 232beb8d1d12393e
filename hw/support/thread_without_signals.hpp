// Threads that work beside the main one (a trace's reading, the race detector) and leave the
// signals that end mmsim to it.
#pragma once

#include <signal.h>

#include <functional>
#include <thread>

namespace mmsim {

// Runs `body` on a new thread with the signals that end mmsim (SIGINT, SIGTERM, ...) blocked:
// they stay the main thread's, whose handlers remove the outputs not yet complete. A fault
// (SIGBUS on a mapped trace cut short) is still the faulting thread's.
inline std::thread thread_without_signals(std::function<void()> body) {
  // The new thread inherits the mask in force where it starts: blocked here for it, then
  // restored.
  sigset_t blocked, previous;
  sigfillset(&blocked);
  for (const int fault : {SIGBUS, SIGSEGV, SIGFPE, SIGILL, SIGTRAP, SIGSYS})
    sigdelset(&blocked, fault);
  ::pthread_sigmask(SIG_BLOCK, &blocked, &previous);
  std::thread thread;
  try {
    thread = std::thread(std::move(body));
  } catch (...) {
    ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    throw;
  }
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return thread;
}

}  // namespace mmsim
