#include "testbench/sweeps/process_pool.hpp"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <iterator>
#include <system_error>
#include <thread>

namespace mmsim {
namespace {

// The signals that stop a pool: those that would end mmsim (a terminal's Ctrl-C, kill, a closed
// terminal or pipe). Each ends the children too, so that none outlives the sweep.
constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

volatile std::sig_atomic_t stop_requested = 0;  // the signal, 0 while none came

void request_stop(int signal) { stop_requested = signal; }

// The stop signals set stop_requested while a pool runs (without SA_RESTART, so that poll()
// returns at once); a signal that was ignored (SIGHUP under nohup) stays ignored. The previous
// handlers come back afterwards, and in every child (mmsim's own, which remove its unfinished
// outputs: RemoveOnSignal).
class StopSignals {
 public:
  StopSignals() {
    stop_requested = 0;
    for (std::size_t i = 0; i < std::size(kStopSignals); ++i) {
      sigaction(kStopSignals[i], nullptr, &previous_[i]);
      if (previous_[i].sa_handler == SIG_IGN) continue;
      struct sigaction action {};
      action.sa_handler = request_stop;
      sigemptyset(&action.sa_mask);
      sigaction(kStopSignals[i], &action, nullptr);
    }
  }
  ~StopSignals() { restore(); }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  void restore() const {
    for (std::size_t i = 0; i < std::size(kStopSignals); ++i)
      sigaction(kStopSignals[i], &previous_[i], nullptr);
  }
  // The stop signals, to block around fork(): a child gets its handlers back before any of them
  // can reach it.
  static sigset_t set() {
    sigset_t signals;
    sigemptyset(&signals);
    for (const int s : kStopSignals) sigaddset(&signals, s);
    return signals;
  }

 private:
  struct sigaction previous_[std::size(kStopSignals)]{};
};

// How long children have to remove their unfinished outputs after SIGTERM before SIGKILL.
constexpr auto kGraceTime = std::chrono::seconds(5);

// The last bytes of a child's stdout and stderr are kept, for the message when it fails.
constexpr std::size_t kKeptLog = 16 * 1024;

struct Child {
  pid_t pid = -1;
  std::size_t job = 0;
  int result_fd = -1;
  int log_fd = -1;
  std::string output{};
  std::string log{};
  std::chrono::steady_clock::time_point start{};
};

void write_all(int fd, const std::string& data) {
  std::size_t written = 0;
  while (written < data.size()) {
    const ssize_t n = ::write(fd, data.data() + written, data.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(71);
    written += static_cast<std::size_t>(n);
  }
}

[[noreturn]] void run_child(std::size_t job, const std::function<std::string(std::size_t)>& work,
                            int result_fd, int log_fd) {
  dup2(log_fd, STDOUT_FILENO);
  dup2(log_fd, STDERR_FILENO);
  close(log_fd);
  std::string output;
  try {
    output = work(job);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    std::fflush(stderr);
    _exit(70);
  }
  write_all(result_fd, output);
  std::cout.flush();
  std::fflush(nullptr);
  _exit(0);
}

Child start(std::size_t job, const std::function<std::string(std::size_t)>& work,
            const std::vector<Child>& running, const StopSignals& signals) {
  int result[2];
  int log[2];
  if (pipe(result) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
  if (pipe(log) != 0) {
    const int error = errno;
    close(result[0]);
    close(result[1]);
    throw std::system_error(error, std::generic_category(), "pipe");
  }
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const auto started = std::chrono::steady_clock::now();
  const sigset_t blocked = StopSignals::set();
  sigset_t previous;
  sigprocmask(SIG_BLOCK, &blocked, &previous);
  const pid_t pid = fork();
  if (pid != 0) sigprocmask(SIG_SETMASK, &previous, nullptr);
  if (pid < 0) {
    const int error = errno;
    for (const int fd : {result[0], result[1], log[0], log[1]}) close(fd);
    throw std::system_error(error, std::generic_category(), "fork");
  }
  if (pid == 0) {
    close(result[0]);
    close(log[0]);
    for (const Child& other : running)
      for (const int fd : {other.result_fd, other.log_fd})
        if (fd >= 0) close(fd);
    signals.restore();
    sigprocmask(SIG_SETMASK, &previous, nullptr);
    run_child(job, work, result[1], log[1]);
  }
  close(result[1]);
  close(log[1]);
  return {.pid = pid, .job = job, .result_fd = result[0], .log_fd = log[0], .start = started};
}

// Reads what is there; closes the descriptor at the end of the stream.
void drain(int& fd, std::string& into, std::size_t keep) {
  char buffer[65536];
  const ssize_t n = ::read(fd, buffer, sizeof buffer);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
  if (n <= 0) {
    close(fd);
    fd = -1;
    return;
  }
  into.append(buffer, static_cast<std::size_t>(n));
  if (into.size() > keep) into.erase(0, into.size() - keep);
}

// Ends the children: SIGTERM, on which each removes its unfinished outputs and ends its own
// children (RemoveOnSignal), then SIGKILL for any still running after kGraceTime.
void end_all(std::vector<Child>& children) {
  for (const Child& c : children) kill(c.pid, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + kGraceTime;
  for (Child& c : children) {
    for (int* fd : {&c.result_fd, &c.log_fd})
      if (*fd >= 0) close(*fd);
    int status = 0;
    while (waitpid(c.pid, &status, WNOHANG) == 0 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (waitpid(c.pid, &status, WNOHANG) == 0) {
      kill(c.pid, SIGKILL);
      while (waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {
      }
    }
  }
  children.clear();
}

}  // namespace

bool ProcessPool::Finished::returned() const {
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

std::string ProcessPool::Finished::failure() const {
  std::string why;
  if (WIFSIGNALED(status))
    why = "killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
          strsignal(WTERMSIG(status)) + ")";
  else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
    why = "exited with status " + std::to_string(WEXITSTATUS(status));
  std::string tail = log.size() > 2000 ? log.substr(log.size() - 2000) : log;
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' ')) tail.pop_back();
  return tail.empty() ? why : why + ": " + tail;
}

ProcessPool::ProcessPool(unsigned workers) : workers_(workers == 0 ? 1 : workers) {}

int ProcessPool::run(const std::vector<std::size_t>& jobs,
                     const std::function<std::string(std::size_t)>& work,
                     const std::function<void(const Finished&)>& done,
                     const std::function<void()>& tick) {
  const StopSignals signals;
  std::vector<Child> running;
  std::size_t next = 0;
  try {
    while (!stop_requested && (next < jobs.size() || !running.empty())) {
      while (!stop_requested && running.size() < workers_ && next < jobs.size())
        running.push_back(start(jobs[next++], work, running, signals));
      std::vector<pollfd> fds;
      for (const Child& c : running)
        for (const int fd : {c.result_fd, c.log_fd})
          if (fd >= 0) fds.push_back({.fd = fd, .events = POLLIN, .revents = 0});
      if (poll(fds.data(), fds.size(), 250) < 0 && errno != EINTR)
        throw std::system_error(errno, std::generic_category(), "poll");
      // Children that end now may have been killed by the same Ctrl-C: none is reported.
      if (stop_requested) break;
      for (auto it = running.begin(); it != running.end();) {
        Child& c = *it;
        for (const pollfd& p : fds) {
          if (p.revents == 0) continue;
          if (p.fd == c.result_fd) drain(c.result_fd, c.output, SIZE_MAX);
          if (p.fd == c.log_fd) drain(c.log_fd, c.log, kKeptLog);
        }
        if (c.result_fd >= 0 || c.log_fd >= 0) {
          ++it;
          continue;
        }
        Finished finished{.job = c.job, .log = std::move(c.log)};
        while (waitpid(c.pid, &finished.status, 0) < 0 && errno == EINTR) {
        }
        finished.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - c.start).count();
        if (finished.returned()) finished.output = std::move(c.output);
        it = running.erase(it);
        done(finished);
      }
      tick();
    }
  } catch (...) {
    end_all(running);
    throw;
  }
  if (!stop_requested) return 0;
  end_all(running);
  return stop_requested;
}

}  // namespace mmsim
