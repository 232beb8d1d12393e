// Runs a reference program on the SystemC machine, recording what every read returned.
#pragma once

#include <string>
#include <vector>

#include "hw/machine/simulation.hpp"
#include "hw/pe/kernel.hpp"
#include "support/reference_machine.hpp"

namespace mmsim::test {

class ReplayKernel final : public Kernel {
 public:
  // `runs`: every access whose addresses are consecutive (lane i at lane 0's + i) is issued as
  // a LaneRun, the others as spans.
  explicit ReplayKernel(const RefProgram& program, bool runs = false)
      : program_(program), runs_(runs), reads_(program.warps.size()) {}

  Task run(Warp& warp) override {
    for (const RefInstruction& in : program_.warps[warp.index()]) {
      const bool as_run = runs_ && is_run(in.addresses);
      const LaneRun run{as_run ? in.addresses.front() : 0};
      if (in.kind == RefInstruction::sync) {
        co_await warp.sync();
      } else if (in.kind == RefInstruction::grid_sync) {
        co_await warp.grid_sync();
      } else if (in.kind == RefInstruction::write) {
        if (as_run)
          co_await warp.write(run, in.values, in.space);
        else
          co_await warp.write(in.addresses, in.values, in.space);
      } else {
        const auto values =
            as_run ? co_await warp.read(run, in.space) : co_await warp.read(in.addresses, in.space);
        for (unsigned lane = 0; lane < warp.width(); ++lane)
          if (in.addresses[lane] != kInactive) reads_[warp.index()].push_back(values[lane]);
      }
    }
  }
  const std::vector<std::vector<Word>>& reads() const { return reads_; }

 private:
  static bool is_run(const std::vector<Address>& addresses) {
    if (addresses.empty()) return false;
    for (std::size_t lane = 0; lane < addresses.size(); ++lane)
      if (addresses[lane] != addresses.front() + lane) return false;
    return true;
  }

  const RefProgram& program_;
  bool runs_;
  std::vector<std::vector<Word>> reads_;
};

// A flat machine (or the global level of a hierarchical one) with the given w, l, p and memory.
inline MachineConfig machine(const std::string& model, unsigned w, unsigned l, std::uint64_t p,
                             std::uint64_t words) {
  MachineConfig c;
  c.model = model;
  c.width = w;
  c.latency = l;
  c.threads = p;
  c.memory_words = words;
  return c;
}

// A hierarchical machine of 2 SMs of 3 warps of 4 lanes (l = 5, l_s = 2), 40 words of global
// memory and 20 of shared memory each.
inline MachineConfig two_sm_hmm() {
  MachineConfig c;
  c.model = "hmm";
  c.multiprocessors = 2;
  c.width = 4;
  c.threads = 4 * 6;
  c.latency = 5;
  c.shared.latency = 2;
  c.memory_words = 40;
  c.shared.words = 20;
  return c;
}

struct Replayed {
  RunResult result;
  std::vector<Word> memory;                 // the global memory (a flat machine's only one)
  std::vector<std::vector<Word>> memories;  // every memory, global first
  std::vector<std::vector<Word>> reads;
};

// Every memory starts as m[i] = i, as in the reference machines. `observer`, if any, sees
// every memory's accesses; `runs`: see ReplayKernel.
inline Replayed replay(const MachineConfig& config, const RefProgram& program,
                       const SimulationOptions& options = {}, AccessObserver* observer = nullptr,
                       bool runs = false) {
  Simulation simulation(resolve_machine(config), options);
  for (MemoryId m = 0; m < simulation.machine().memory_count(); ++m) {
    Mmu& memory = simulation.memory(m);
    for (Address a = 0; a < memory.words(); ++a) memory.poke(a, static_cast<Word>(a));
    memory.set_observer(observer);
  }
  ReplayKernel kernel(program, runs);
  Replayed out;
  out.result = simulation.run(kernel);
  for (MemoryId m = 0; m < simulation.machine().memory_count(); ++m) {
    const Mmu& memory = simulation.memory(m);
    auto& words = out.memories.emplace_back();
    for (Address a = 0; a < memory.words(); ++a) words.push_back(memory.peek(a));
  }
  out.memory = out.memories.front();
  out.reads = kernel.reads();
  return out;
}

}  // namespace mmsim::test
