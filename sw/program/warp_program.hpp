// A program for the machines: a Kernel (what every warp runs) that also knows its parameters,
// lays out and checks its data, and states the papers' figures for itself.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/simulation.hpp"
#include "hw/mmu/mmu.hpp"
#include "hw/observers/profile.hpp"
#include "hw/pe/kernel.hpp"
#include "sw/program/bound.hpp"
#include "sw/program/program_table.hpp"
#include "sw/program/verification.hpp"

namespace mmsim {

// A figure a program measures about itself (planning time, ...), shown beside the run's.
struct ProgramFigure {
  std::string key;    // stable JSON key
  std::string label;  // for the report
  double value;
  std::string unit;
};

class WarpProgram : public Kernel {
 public:
  // Threads the program uses when machine.threads is not given (`machine` has every other
  // parameter); 0: the testbench must say.
  virtual std::uint64_t default_threads(const MachineConfig& /*machine*/) const { return 0; }
  // Called once the machine is known: checks that the parameters fit it (throw ParamError or
  // ConfigError) and sizes the data.
  virtual void configure(const MachineConfig& /*machine*/) {}
  // Words of (global) memory the program needs (after configure).
  virtual std::uint64_t memory_words() const = 0;
  // Words of shared memory per streaming multiprocessor the program needs (after configure;
  // the hierarchical machine).
  virtual std::uint64_t shared_words() const { return 0; }
  // Words of local memory per PE the program needs (after configure).
  virtual std::uint64_t local_words() const { return 0; }
  // Whether its data are values the memories must keep; false for a program that carries none
  // (a GPU trace, whose reads and writes are addresses only): its memories then hold zeros,
  // drop what is written and take no memory for their cells.
  virtual bool keeps_values() const { return true; }
  // Bytes of host memory the program allocates at its peak for its own data (a permutation and
  // its plan, ...), known after configure and before prepare allocates them, so that a run that
  // would not fit is refused up front.
  virtual std::uint64_t host_bytes() const { return 0; }
  // The files it reads that no string parameter names (the traces a kernels list names), once
  // made: no output of the run may replace one of them (a file a parameter names is an input
  // already, whoever reads it).
  virtual std::vector<std::filesystem::path> input_files() const { return {}; }
  // Builds the program's own data (after configure, once the run's memory has been accepted);
  // throws ParamError or InputError for parameters found wrong on the way.
  virtual void prepare() {}
  // Writes the initial data of the global memory (backdoor, before the run).
  virtual void initialize(Mmu& /*memory*/) {}
  // Checks the result in global memory element by element (after the run); the checks made
  // while the warps ran are in `verification()` already.
  virtual void verify(const Mmu& /*memory*/) {}
  Verification& verification() { return verification_; }
  // What the program measured about itself (offline planning time, ...).
  virtual std::vector<ProgramFigure> figures() const { return {}; }
  // Tables of what it read and how it mapped it, for the report and the statistics.
  virtual std::vector<ProgramTable> tables() const { return {}; }
  // Tables it draws from a profile of its run (its sites grouped its own way), when profiled.
  virtual std::vector<ProgramTable> profile_tables(const ProfileTable& /*profile*/) const {
    return {};
  }
  // The papers' figures for this run, to show next to what was measured.
  virtual std::vector<Bound> bounds(const MachineConfig& /*machine*/,
                                    const RunResult& /*result*/) const {
    return {};
  }

 private:
  Verification verification_;
};

}  // namespace mmsim
