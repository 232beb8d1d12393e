// Jobs run in worker processes: each job in a fresh child (fork), so that a crash, a leak or the
// global state of the SystemC kernel (which is neither thread-safe nor made to elaborate twice)
// cannot spoil the next job. The parent schedules, collects each job's output through a pipe,
// and hands it on in completion order.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace mmsim {

class ProcessPool {
 public:
  struct Finished {
    std::size_t job = 0;
    std::string output{};  // what the job returned; empty when it did not return
    std::string log{};     // what it wrote to stdout and stderr
    int status = 0;        // as waitpid() reports it
    double seconds = 0;    // wall time from fork to exit
    bool returned() const;
    // Why the job did not return ("killed by signal 11 (Segmentation fault)", ...).
    std::string failure() const;
  };

  explicit ProcessPool(unsigned workers);

  // Runs work(job) for every job, at most `workers` at once, each in a child process; calls
  // done() in this process as each finishes, and tick() at least every quarter of a second.
  // Returns 0 when every job ran. SIGINT, SIGTERM, SIGHUP or SIGPIPE stops the scheduling: the
  // children still running are ended (SIGTERM, so that they remove their unfinished outputs;
  // SIGKILL after some seconds), and run() returns the signal. If done() throws, the children
  // are ended and the exception passes on.
  int run(const std::vector<std::size_t>& jobs, const std::function<std::string(std::size_t)>& work,
          const std::function<void(const Finished&)>& done, const std::function<void()>& tick);

 private:
  unsigned workers_;
};

}  // namespace mmsim
