// Memory up front: a run or a plan that would need more memory than the machine has is refused
// before it allocates anything (exit status 2, naming the estimate and what is available),
// instead of being killed by the kernel or aborting on std::bad_alloc halfway.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hw/machine/machine_config.hpp"
#include "sw/planning/edge_coloring.hpp"
#include "sw/planning/permutation.hpp"
#include "sw/program/input_error.hpp"
#include "sw/program/warp_program.hpp"

namespace mmsim {

struct Testbench;

// What the process may still allocate, and where that figure comes from.
struct AvailableMemory {
  std::uint64_t bytes = 0;
  std::string source;  // "MemAvailable in /proc/meminfo", "the cgroup limit ...", ...
};

// MMSIM_MEMORY_LIMIT (bytes, 2^k accepted) when set; else the smaller of MemAvailable in
// /proc/meminfo and, where a cgroup (v2 or v1) limits this process, its limit minus its usage
// (page cache that can be dropped not counted), over the cgroup and its parents. Either way no
// more than the address-space limit (ulimit -v) leaves, less what the process maps already.
// Nothing when none of these can be read. Throws InputError for a malformed MMSIM_MEMORY_LIMIT.
std::optional<AvailableMemory> available_memory();

// An estimate of the memory a run or a plan will allocate, part by part.
struct MemoryEstimate {
  struct Part {
    std::string what;  // "memory: 2^32 words of 8 bytes"
    std::uint64_t bytes = 0;
    std::string key;  // the testbench key that sets its size ("machine.memory", ...), if any
  };
  std::vector<Part> parts;

  void add(std::string what, std::uint64_t bytes, std::string key = {});
  std::uint64_t total() const;
  // The largest part with a key (where a refusal is located), if any.
  const Part* largest() const;
  // "memory: 2^32 words of 8 bytes 32.0 GiB + warps 1.0 MiB + ..."
  std::string describe() const;
};

// Bytes shown as "33.1 GiB", "512.0 MiB", "64.0 KiB" or "100 bytes".
std::string format_bytes(std::uint64_t bytes);

// What a run allocates once its machine is resolved (`machine` with memory, local memory and
// threads set, `program` configured): the memory's cells, each memory's pipeline (l + 2
// dispatches in flight), the warps (registers, local memory, their units and coroutine frames),
// the race detector's state per address and per access, the program's host data
// (WarpProgram::host_bytes: its inputs, plans and references) and the simulation kernel.
MemoryEstimate run_memory(const MachineConfig& machine, const WarpProgram& program,
                          bool race_check);

// What `mmsim plan` allocates for n elements and width w on `machine` (dmm | umm) with
// `algorithm`: the permutation `spec`, the planner's arrays, the check of the plan.
MemoryEstimate plan_memory(std::uint64_t n, std::uint64_t w, const std::string& machine,
                           const planning::PermutationSpec& spec,
                           planning::ColoringAlgorithm algorithm);

// Throws InputError at `where` ("<key>: this <what> needs about 33.1 GiB (...), 22.8 GiB are
// available (...)") when the estimate exceeds the available memory. `key` may be empty.
void check_memory(const MemoryEstimate& estimate, const std::string& what,
                  const SourceLocation& where, const std::string& key);

// The run's check, located at the testbench key that sets the largest part: machine.memory
// (else program.params.n) for the memory and the program's data, machine.threads for the warps,
// machine.race_check for the race detector. `outputs`: what the run's outputs hold while it
// goes (a timeline's buffers), counted besides.
void check_run_memory(const Testbench& testbench, const MachineConfig& machine,
                      const WarpProgram& program,
                      const std::vector<MemoryEstimate::Part>& outputs = {});

// The check of what making the program allocates before its machine is known (a trace read from
// its file: ProgramInfo::made_bytes), located at program.params.file (or program).
void check_input_memory(const Testbench& tb, std::uint64_t bytes);

// The process's peak resident memory so far (getrusage's ru_maxrss) and its resident memory now.
std::uint64_t peak_resident_bytes();
std::uint64_t resident_bytes();

}  // namespace mmsim
