#include "sw/programs/hmm_program.hpp"

#include <numeric>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/memory/address_maps.hpp"
#include "hw/support/errors.hpp"
#include "sw/programs/hierarchical_only.hpp"

namespace mmsim {

std::uint64_t HmmProgram::default_threads(const MachineConfig& machine) const {
  return machine_model(machine).hierarchical ? 0 : machine.width;
}

void HmmProgram::configure(const MachineConfig& machine) {
  require_hierarchical(machine, name_,
                       "streaming multiprocessors with shared memories over a global memory");
  if (machine.super_warp != 1)
    throw ConfigError("super_warp", name_ +
                                        " dispatches single warps (the warps of a super warp "
                                        "would send one step to different memories); leave "
                                        "super_warp out");
  d_ = machine.multiprocessors;
  w_ = machine.width;
  w_g_ = machine.global_words_per_group();
  l_ = machine.latency;
  l_s_ = machine.shared.latency;
  p_ = machine.threads;
}

std::uint64_t HmmProgram::coalesced_groups(Address start, std::uint64_t count) const {
  std::uint64_t groups = 0;
  for (Address first = start; first < start + count; first += w_) {
    const Address last = std::min(first + w_, start + count) - 1;
    groups += last / w_g_ - first / w_g_ + 1;
  }
  return groups;
}

bool HmmProgram::contiguous_shared_is_conflict_free(const MachineConfig& machine) const {
  const Splitting splitting = shared_memory_model(machine).memory.splitting;
  return splitting == Splitting::crossbar ||
         (splitting == Splitting::banked && shared_address_map(machine).identity);
}

std::uint64_t HmmProgram::align(std::uint64_t words) const {
  const std::uint64_t unit = std::lcm(std::uint64_t{w_}, std::uint64_t{w_g_});
  return (words + unit - 1) / unit * unit;
}

std::uint64_t HmmProgram::align_to_banks(std::uint64_t words) const {
  return (words + w_ - 1) / w_ * w_;
}

}  // namespace mmsim
