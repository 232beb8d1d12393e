// A plugin (sw/program/plugin.hpp) for tests/testbench/user_code_test.cpp: one program per way a
// plugin's code may fail, each otherwise the same small contiguous read (p threads each read
// their own word once), and `fine`, which does not fail. Two ask for more threads than
// machine.threads takes (default_threads 2^62 and 2^40 + 4). Loading the library leaves a mark: the
// file MMSIM_TEST_MARKER names, when it is set, gets a line, so that a test sees whether mmsim
// loaded it (it must only when the program is about to run).
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>

#include <sw/program/plugin.hpp>

namespace {

using namespace mmsim;

[[gnu::constructor]] void leave_mark() {
  if (const char* marker = std::getenv("MMSIM_TEST_MARKER"))
    std::ofstream(marker, std::ios::app) << "failing_programs loaded\n";
}

enum class Failure { none, constructor, configure, run, verify, foreign };

class Reader final : public WarpProgram {
 public:
  Reader(Failure failure, std::uint64_t threads_asked)
      : failure_(failure), threads_asked_(threads_asked) {
    if (failure_ == Failure::constructor) throw std::runtime_error("no constructor today");
  }
  std::uint64_t default_threads(const MachineConfig& /*machine*/) const override {
    return threads_asked_;
  }
  void configure(const MachineConfig& machine) override {
    if (failure_ == Failure::configure)
      throw std::logic_error("configure refused " + std::to_string(machine.width));
    threads_ = machine.threads;
  }
  std::uint64_t memory_words() const override { return threads_; }
  Task run(Warp& warp) override {
    const LaneRun lanes{warp.thread(0)};
    co_await warp.read(lanes);
    if (failure_ == Failure::run) throw std::out_of_range("warp " + std::to_string(warp.index()));
    if (failure_ == Failure::foreign) throw 42;
  }
  void verify(const Mmu& /*memory*/) override {
    if (failure_ == Failure::verify) throw std::runtime_error("nothing to verify");
    verification().passed(threads_);
  }

 private:
  Failure failure_;
  std::uint64_t threads_asked_;
  std::uint64_t threads_ = 0;
};

ProgramInfo program(std::string name, Failure failure, std::uint64_t threads_asked = 0) {
  return {std::move(name),
          "reads a word per thread",
          "tests",
          {},
          [failure, threads_asked](const ProgramArgs&) -> std::unique_ptr<WarpProgram> {
            return std::make_unique<Reader>(failure, threads_asked);
          }};
}

ProgramInfo makes_nothing() {
  return {"makes_nothing",
          "make returns nullptr",
          "tests",
          {},
          [](const ProgramArgs&) -> std::unique_ptr<WarpProgram> { return nullptr; }};
}

}  // namespace

MMSIM_PLUGIN_PROGRAMS(program("fine", Failure::none),
                      program("throws_in_constructor", Failure::constructor),
                      program("throws_in_configure", Failure::configure),
                      program("throws_in_run", Failure::run),
                      program("throws_42_in_run", Failure::foreign),
                      program("throws_in_verify", Failure::verify), makes_nothing(),
                      program("threads_2_62", Failure::none, std::uint64_t{1} << 62),
                      program("threads_2_40_and_more", Failure::none,
                              (std::uint64_t{1} << 40) + 4))
