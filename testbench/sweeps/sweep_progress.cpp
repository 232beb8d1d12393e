#include "testbench/sweeps/sweep_progress.hpp"
#include "hw/support/counted.hpp"

#include <cstdio>

#include <fmt/format.h>

namespace mmsim {
namespace {

std::string duration(double seconds) {
  const auto s = static_cast<long long>(seconds + 0.5);
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

}  // namespace

SweepProgress::SweepProgress(std::size_t total, bool terminal)
    : total_(total), terminal_(terminal), drawn_(start_) {}

SweepProgress::~SweepProgress() {
  if (terminal_ && !closed_) std::fprintf(stderr, "\n");
}

std::string SweepProgress::line() const {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = elapsed > 0 ? static_cast<double>(done_) / elapsed : 0;
  std::string text = fmt::format("{}/{}", done_, counted(total_, "run"));
  if (done_ > 0 && rate > 0) {
    text += fmt::format(", {:.1f} runs/s", rate);
    text += done_ < total_ ? ", " + duration(static_cast<double>(total_ - done_) / rate) + " left"
                           : ", " + duration(elapsed);
  }
  if (failed_ > 0) text += fmt::format(", {} failed", failed_);
  return text;
}

void SweepProgress::draw() {
  constexpr std::size_t width = 30;
  const std::size_t filled = total_ ? done_ * width / total_ : width;
  std::fprintf(stderr, "\r\033[K[%s%s] %s", std::string(filled, '#').c_str(),
               std::string(width - filled, '.').c_str(), line().c_str());
  std::fflush(stderr);
  drawn_ = std::chrono::steady_clock::now();
}

void SweepProgress::finished(bool failed) {
  ++done_;
  failed_ += failed;
  if (terminal_) {
    tick();
    return;
  }
  const std::size_t tenths = total_ ? done_ * 10 / total_ : 10;
  const auto now = std::chrono::steady_clock::now();
  if (tenths > reported_tenths_ && done_ < total_ && now - drawn_ >= std::chrono::seconds(1)) {
    reported_tenths_ = tenths;
    std::fprintf(stderr, "mmsim: %s\n", line().c_str());
    drawn_ = now;
  }
}

void SweepProgress::tick() {
  if (terminal_ && std::chrono::steady_clock::now() - drawn_ >= std::chrono::milliseconds(100))
    draw();
}

void SweepProgress::close() {
  if (closed_) return;
  closed_ = true;
  if (terminal_) {
    draw();
    std::fprintf(stderr, "\n");
  } else {
    std::fprintf(stderr, "mmsim: %s\n", line().c_str());
  }
}

}  // namespace mmsim
