#include "sw/gpu_traces/read_ahead.hpp"

#include <signal.h>

#include "sw/support/available_cores.hpp"

namespace mmsim {

bool read_ahead_allowed() { return available_cores() >= 2; }

std::thread thread_without_signals(std::function<void()> body) {
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
