// The machines mmsim can assemble, by name: a table of what each one's memory is made of.
// Programs and reports ask a model for its traits (how its memory splits a dispatch, whether it
// dispatches super warps) rather than comparing names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

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

}  // namespace mmsim
