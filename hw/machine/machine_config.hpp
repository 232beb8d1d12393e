// The parameters of a machine (the `machine:` section of a testbench).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hw/mmu/write_conflict.hpp"
#include "hw/support/types.hpp"

namespace mmsim {

struct AddressMapInfo;
struct MachineModel;
struct PolicyInfo;

// How a DMM-family memory maps addresses to banks (machine.address_map, machine.rsu).
struct BankMapping {
  std::string address_map;  // "" = the memory model's own (see address_maps())
  // A map of one's own (machine.address_map naming a Python class or a plugin's map), in place
  // of address_map.
  std::shared_ptr<const AddressMapInfo> own_map{};
  // The random shift unit's table r_j, one per row of memory; empty: drawn from rsu_seed, or
  // else from the machine's seed.
  std::vector<std::uint32_t> rsu_shifts;
  std::optional<std::uint64_t> rsu_seed;
};

// The shared memory of every streaming multiprocessor of the hierarchical machine
// (machine.shared).
struct SharedMemoryConfig {
  std::string model = "dmm";  // how it serves a dispatch: dmm | sdmm | rsdmm | pram
  unsigned latency = 1;       // l_s
  std::uint64_t words = 0;    // of each shared memory; 0: what the program needs
  BankMapping mapping;
  unsigned ports = 1;  // requests a bank serves per time unit (docs/semantics.md §10)
};

struct MachineConfig {
  std::string model = "dmm";
  unsigned width = 32;        // w: banks, and threads per warp
  unsigned latency = 1;       // l: pipeline stages of the MMU
  std::uint64_t threads = 0;  // p
  unsigned super_warp = 1;    // s: warps per dispatch unit (sdmm, rsdmm)
  std::string dispatch = "round_robin";
  // A dispatch policy of one's own (machine.dispatch naming a Python class or a plugin's
  // policy), in place of the built-in `dispatch` names; `dispatch` then holds its name.
  std::shared_ptr<const PolicyInfo> own_policy{};
  std::uint64_t seed = 1;  // for every random choice of the hardware
  Cycle barrier_latency = 0;
  Cycle compute_latency = 0;
  WriteConflict write_conflict = WriteConflict::highest_lane;
  std::uint64_t memory_words = 0;  // words of memory
  // Whether the memories keep the values written: not for a program that carries no data (a
  // GPU trace), whose memories hold zeros and take no memory for their cells. Set by the run
  // from the program, never by a testbench.
  bool memory_values = true;
  std::uint64_t local_words = 0;  // local memory per PE, in words
  BankMapping mapping;            // DMM family
  // k: requests a bank serves per time unit (docs/semantics.md §10); hmm: the global memory's.
  unsigned ports = 1;
  // The hierarchical machine (model hmm): d streaming multiprocessors, each with its shared
  // memory, over the global memory (memory_words words, latency l, width global_width).
  unsigned multiprocessors = 1;  // d
  unsigned global_width = 0;     // w_g: words per address group of global memory; 0: w
  SharedMemoryConfig shared;
  Cycle kernel_latency = 0;  // grid_sync: from the last arrival to the release

  std::uint64_t warps() const { return threads / width; }
  // Warps per block (streaming multiprocessor).
  std::uint64_t block_warps() const { return warps() / multiprocessors; }
  unsigned global_words_per_group() const { return global_width == 0 ? width : global_width; }
  std::uint64_t units() const { return warps() / super_warp; }
  // Rows (address groups) of memory: ceil(memory_words / w).
  std::uint64_t rows() const { return (memory_words + width - 1) / width; }
};

// Checks what every machine needs (w >= 1, l >= 1, p a multiple of s*w, ...), then
// validate_memory(). Throws ConfigError naming the key at fault.
void validate(const MachineConfig& config);
// Checks what depends on the memory sizes, those not known yet (0) aside: at most 2^32 words,
// a shift table with one shift per row.
void validate_memory(const MachineConfig& config);

// The model of `config` (throws ConfigError on `model` when there is none of that name).
const MachineModel& machine_model(const MachineConfig& config);
// The address map `config`'s memory runs with: machine.address_map, or its model's own.
const AddressMapInfo& address_map_of(const MachineConfig& config);
// The model of the shared memories of a hierarchical `config` (machine.shared.model).
const MachineModel& shared_memory_model(const MachineConfig& config);
// The address map of the shared memories of a hierarchical `config`.
const AddressMapInfo& shared_address_map(const MachineConfig& config);

}  // namespace mmsim
