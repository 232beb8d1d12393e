// The memories a machine is made of, each with its address map and the splitter of its MMU, as
// its machine model says (machine_models.hpp) and its parameters size them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hw/machine/resolved_machine.hpp"
#include "hw/memory/address_map.hpp"
#include "hw/mmu/stage_splitter.hpp"

namespace mmsim {

// One memory of a machine, with what its MMU is made of.
struct MemorySpec {
  std::string name;   // of its module: "memory", "global_memory", "shared_memory"
  std::string label;  // for reports: "memory", "global", "SM 3 shared"
  // The streaming multiprocessor it belongs to (a shared memory), or none (kNoBlock).
  unsigned block;
  unsigned width;
  unsigned latency;
  std::uint64_t words;
  std::unique_ptr<AddressMap> map;
  std::unique_ptr<StageSplitter> splitter;
};

inline constexpr unsigned kNoBlock = ~0u;

// The memories of `machine` (with its memory sizes), in memory-id order: the global memory
// (id 0), then the shared memory of each streaming multiprocessor in turn.
std::vector<MemorySpec> memory_specs(const ResolvedMachine& machine);

}  // namespace mmsim
