// Runs a reference program on the SystemC machine, recording what every read returned.
#pragma once

#include <vector>

#include "hw/machine/simulation.hpp"
#include "hw/pe/kernel.hpp"
#include "support/reference_machine.hpp"

namespace mmsim::test {

class ReplayKernel final : public Kernel {
 public:
  explicit ReplayKernel(const RefProgram& program)
      : program_(program), reads_(program.warps.size()) {}

  Task run(Warp& warp) override {
    for (const RefInstruction& in : program_.warps[warp.index()]) {
      if (in.kind == RefInstruction::sync) {
        co_await warp.sync();
      } else if (in.kind == RefInstruction::write) {
        co_await warp.write(in.addresses, in.values);
      } else {
        const auto values = co_await warp.read(in.addresses);
        for (unsigned lane = 0; lane < warp.width(); ++lane)
          if (in.addresses[lane] != kInactive) reads_[warp.index()].push_back(values[lane]);
      }
    }
  }
  const std::vector<std::vector<Word>>& reads() const { return reads_; }

 private:
  const RefProgram& program_;
  std::vector<std::vector<Word>> reads_;
};

struct Replayed {
  RunResult result;
  std::vector<Word> memory;
  std::vector<std::vector<Word>> reads;
};

// Memory starts as m[i] = i, as in the reference machine.
inline Replayed replay(const MachineConfig& config, const RefProgram& program,
                       const SimulationOptions& options = {}) {
  Simulation simulation(config, options);
  for (Address a = 0; a < config.memory_words; ++a)
    simulation.memory().poke(a, static_cast<Word>(a));
  ReplayKernel kernel(program);
  Replayed out;
  out.result = simulation.run(kernel);
  for (Address a = 0; a < config.memory_words; ++a)
    out.memory.push_back(simulation.memory().peek(a));
  out.reads = kernel.reads();
  return out;
}

}  // namespace mmsim::test
