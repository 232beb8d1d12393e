// The race report (machine.race_check: docs/semantics.md): the race detector
// (hw/observers/race_detector.hpp) watches every memory's accesses; its races go into the
// report, the statistics and the run's verification.
#include "hw/observers/observer_thread.hpp"
#include "hw/observers/race_detector.hpp"
#include "sw/support/available_cores.hpp"
#include "testbench/run/output_part.hpp"

namespace mmsim {
namespace {

class RacePart final : public OutputPart {
 public:
  void start(Simulation& simulation, const RunPlan&) override {
    Machine& machine = simulation.machine();
    // The global memory of a machine of several blocks is reached by all of them.
    std::vector<RaceDetector::MemoryScope> scopes;
    const bool one_block = machine.config().multiprocessors == 1;
    for (MemoryId m = 0; m < machine.memory_count(); ++m)
      scopes.push_back({machine.memory(m).words(), one_block || m != 0});
    detector_ = std::make_unique<RaceDetector>(scopes, kListedRaces);
    // Beside the simulation where a second processor may take it (the same accesses in the
    // same order: the same races).
    AccessObserver* observer = detector_.get();
    if (available_cores() >= 2) {
      thread_ = std::make_unique<ObserverThread>(*detector_);
      observer = thread_.get();
    }
    for (MemoryId m = 0; m < machine.memory_count(); ++m) machine.memory(m).set_observer(observer);
  }
  void finish(Simulation&, RunOutcome& outcome, const WarpProgram&) override {
    if (thread_) thread_->finish();
    outcome.race_check = true;
    outcome.race_count = detector_->count();
    outcome.races = detector_->races();
  }

 private:
  std::unique_ptr<RaceDetector> detector_;
  std::unique_ptr<ObserverThread> thread_;  // ends before the detector
};

std::unique_ptr<OutputPart> make(const PartContext& context) {
  if (!context.testbench.race_check) return nullptr;
  return std::make_unique<RacePart>();
}

}  // namespace

OutputPartInfo race_part() { return {.name = "races", .make = make}; }

}  // namespace mmsim
