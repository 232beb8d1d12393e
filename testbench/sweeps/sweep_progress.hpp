// How far a sweep has got, on stderr: on a terminal a bar redrawn in place with the rate and
// the time left; otherwise (a log, a SLURM task's output) a plain line at every tenth of the
// runs, a second apart at least, and one at the end.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace mmsim {

class SweepProgress {
 public:
  // `total` runs to do here; `terminal`: draw the bar.
  SweepProgress(std::size_t total, bool terminal);
  ~SweepProgress();
  SweepProgress(const SweepProgress&) = delete;
  SweepProgress& operator=(const SweepProgress&) = delete;

  void finished(bool failed);  // one more run done
  void tick();                 // redraw, at most ten times a second
  void close();                // the last line

 private:
  std::string line() const;
  void draw();

  std::size_t total_;
  bool terminal_;
  std::size_t done_ = 0;
  std::size_t failed_ = 0;
  std::size_t reported_tenths_ = 0;
  bool closed_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point drawn_{};
};

}  // namespace mmsim
