// The machines mmsim can assemble, by name: a table of what each one's memory is made of.
// Programs and reports ask a model for its traits (how its memory splits a dispatch, whether it
// dispatches super warps) rather than comparing names.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/resolved_machine.hpp"
#include "hw/memory/address_map.hpp"
#include "hw/memory/address_maps.hpp"
#include "hw/mmu/stage_splitter.hpp"

namespace mmsim {

// How a memory cuts a dispatch into stage groups (the k of the timing rules).
enum class Splitting {
  banked,     // request packing unit: k = the most distinct requests to one bank (DMM family)
  coalesced,  // coalescer: k = the address groups touched (UMM)
  bandwidth,  // bandwidth serializer: k = ceil(distinct requests / w) (BPRAM)
  crossbar,   // no conflicts: k = 1 for any dispatch (PRAM)
};

// How one memory serves a dispatch.
struct MemoryTraits {
  Splitting splitting = Splitting::banked;
  std::string address_map = "interleaved";  // its own map
  bool other_maps = false;                  // machine.address_map may choose another
};

struct MachineModel {
  std::string name;
  std::string description;
  std::string reference;  // the paper that defines it (docs/bibliography.md)
  MemoryTraits memory;
  bool super_warps = false;   // the dispatch unit is a super warp of machine.super_warp warps
  bool unit_latency = false;  // the latency is 1 whatever machine.latency says
  bool one_unit = false;      // all p threads dispatch together, as one unit (PRAM)
  // The hierarchical machine: the memory above is its global memory (of width
  // machine.global.width); each streaming multiprocessor adds a shared memory (machine.shared).
  bool hierarchical = false;
  bool shared_memory = false;  // may be the hierarchical machine's shared memory (shared.model)
};

const std::vector<MachineModel>& machine_models();
const MachineModel* find_machine_model(std::string_view name);
// The model of `config` (throws ConfigError on `model` when there is none of that name).
const MachineModel& machine_model(const MachineConfig& config);
// The address map `config`'s memory runs with: machine.address_map, or its model's own.
const AddressMapInfo& address_map_of(const MachineConfig& config);
// The model of the shared memories of a hierarchical `config` (machine.shared.model).
const MachineModel& shared_memory_model(const MachineConfig& config);
// The address map of the shared memories of a hierarchical `config`.
const AddressMapInfo& shared_address_map(const MachineConfig& config);

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
