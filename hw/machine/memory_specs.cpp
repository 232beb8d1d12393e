#include "hw/machine/memory_specs.hpp"

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/memory/address_maps.hpp"
#include "hw/mmu/bandwidth_serializer.hpp"
#include "hw/mmu/coalescer.hpp"
#include "hw/mmu/crossbar.hpp"
#include "hw/mmu/ported_banks.hpp"
#include "hw/mmu/request_packing_unit.hpp"
#include "hw/support/errors.hpp"

namespace mmsim {
namespace {


std::unique_ptr<StageSplitter> one_port_splitter(Splitting splitting, unsigned width,
                                                 std::size_t lanes, std::uint64_t cells) {
  switch (splitting) {
    case Splitting::banked:
      return std::make_unique<RequestPackingUnit>(width, lanes, cells);
    case Splitting::coalesced:
      return std::make_unique<Coalescer>(width, lanes);
    case Splitting::bandwidth:
      return std::make_unique<BandwidthSerializer>(width, lanes);
    case Splitting::crossbar:
      return std::make_unique<Crossbar>(width);
  }
  throw ConfigError("model", "internal: unknown splitting");
}

// The splitter of a memory whose banks have `ports` ports (the crossbar has no banks: one stage
// group for any dispatch, whatever the ports).
std::unique_ptr<StageSplitter> make_splitter(Splitting splitting, unsigned width, std::size_t lanes,
                                             std::uint64_t cells, unsigned ports) {
  std::unique_ptr<StageSplitter> one_port = one_port_splitter(splitting, width, lanes, cells);
  if (ports == 1 || splitting == Splitting::crossbar) return one_port;
  return std::make_unique<PortedBanks>(std::move(one_port), ports);
}

// `copy`: which of the machine's memories with this mapping it is.
AddressMapParams map_params(const BankMapping& mapping, unsigned width, std::uint64_t words,
                            std::uint64_t seed, std::uint64_t copy = 0) {
  return {.width = width,
          .rows = (words + width - 1) / width,
          .shifts = mapping.rsu_shifts,
          .seed = mapping.rsu_seed.value_or(seed),
          .copy = copy};
}

}  // namespace

std::vector<MemorySpec> memory_specs(const ResolvedMachine& machine) {
  const MachineConfig& c = machine.config();
  const MachineModel& model = machine_model(c);
  const std::size_t lanes = std::size_t{c.width} * c.super_warp;
  std::vector<MemorySpec> memories;
  const unsigned width = model.hierarchical ? c.global_words_per_group() : c.width;
  const std::uint64_t cells = (c.memory_words + width - 1) / width * width;
  memories.push_back(MemorySpec{
      .name = model.hierarchical ? "global_memory" : "memory",
      .label = model.hierarchical ? "global" : "memory",
      .block = kNoBlock,
      .width = width,
      .latency = c.latency,
      .words = c.memory_words,
      .map = address_map_of(c).make(map_params(c.mapping, width, c.memory_words, c.seed)),
      .splitter = make_splitter(model.memory.splitting, width, lanes, cells, c.ports)});
  if (!model.hierarchical) return memories;
  const MachineModel& shared = shared_memory_model(c);
  const std::uint64_t shared_cells = (c.shared.words + c.width - 1) / c.width * c.width;
  for (unsigned j = 0; j < c.multiprocessors; ++j)
    memories.push_back(MemorySpec{
        .name = "shared_memory",
        .label = "SM " + std::to_string(j) + " shared",
        .block = j,
        .width = c.width,
        .latency = c.shared.latency,
        .words = c.shared.words,
        // Drawn shift tables differ from one streaming multiprocessor to the next.
        .map = shared_address_map(c).make(
            map_params(c.shared.mapping, c.width, c.shared.words, c.seed, j)),
        .splitter =
            make_splitter(shared.memory.splitting, c.width, lanes, shared_cells, c.shared.ports)});
  return memories;
}

}  // namespace mmsim
