// A progress line on stderr once a run has taken a couple of seconds, refreshed twice a second
// (mmsim run on a terminal).
#pragma once

#include <chrono>
#include <cstdio>

#include "hw/support/types.hpp"

namespace mmsim {

class ProgressLine {
 public:
  void update(Cycle now) {
    const auto t = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(t - start_).count();
    if (elapsed < 2.0 || elapsed - last_ < 0.5) return;
    last_ = elapsed;
    std::fprintf(stderr, "\rmmsim: simulated %llu cycles in %.1f s",
                 static_cast<unsigned long long>(now), elapsed);
    std::fflush(stderr);
    shown_ = true;
  }
  ~ProgressLine() {
    if (shown_) std::fprintf(stderr, "\r\033[K");
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  double last_ = 0;
  bool shown_ = false;
};

}  // namespace mmsim
