// A machine configuration as it runs: its model's rules applied and every check passed, once.
// Only resolve_machine() makes one and nothing changes it afterwards, so the machine is
// assembled from it as it is: no part of hw/ applies a rule or checks a parameter again.
#pragma once

#include <cstdint>
#include <functional>

#include "hw/machine/machine_config.hpp"

namespace mmsim {

class ResolvedMachine;

// The thread count a program runs with when the testbench leaves it out, given the machine as
// its model fixes it (the latency of unit-latency models).
using DefaultThreads = std::function<std::uint64_t(const MachineConfig& machine)>;

// `config` as it runs: what its model fixes whatever the testbench says (the latency of
// unit-latency models; with p known, from `default_threads` when p is 0, the super warp of all
// p/w warps of one-unit models), then validate(). Throws ConfigError naming the key at fault.
ResolvedMachine resolve_machine(MachineConfig config, const DefaultThreads& default_threads = {});

class ResolvedMachine {
 public:
  const MachineConfig& config() const { return config_; }
  const MachineConfig* operator->() const { return &config_; }
  operator const MachineConfig&() const { return config_; }  // NOLINT: read as its config

  // The memory sizes a program chose once it knew the machine (words of memory, of each
  // shared memory, of local memory per PE); checks what depends on them (validate_memory).
  struct MemorySizes {
    std::uint64_t words;
    std::uint64_t shared_words;
    std::uint64_t local_words;
    bool values = true;  // MachineConfig::memory_values
  };
  ResolvedMachine with_memory(const MemorySizes& sizes) const;

 private:
  explicit ResolvedMachine(MachineConfig config) : config_(std::move(config)) {}
  friend ResolvedMachine resolve_machine(MachineConfig, const DefaultThreads&);

  MachineConfig config_;
};

}  // namespace mmsim
