#include "hw/mmu/ported_banks.hpp"

namespace mmsim {

PortedBanks::PortedBanks(std::unique_ptr<StageSplitter> one_port, unsigned ports)
    : StageSplitter(one_port->width()), one_port_(std::move(one_port)), ports_(ports) {}

unsigned PortedBanks::assign_groups(std::span<const Address> cells,
                                    std::span<std::uint32_t> groups) {
  const unsigned k = one_port_->assign_groups(cells, groups);
  for (std::size_t i = 0; i < cells.size(); ++i)
    if (cells[i] != kInactive) groups[i] /= ports_;
  return stage_groups(k);
}

unsigned PortedBanks::assign_slots(std::span<const Address> cells, std::span<std::uint32_t> groups,
                                   std::span<std::uint32_t> ports) {
  const unsigned k = one_port_->assign_groups(cells, groups);
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (cells[i] == kInactive) continue;
    ports[i] = groups[i] % ports_;
    groups[i] /= ports_;
  }
  return stage_groups(k);
}

}  // namespace mmsim
