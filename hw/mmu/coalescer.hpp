// The coalescer of the UMM: one address line is broadcast to all banks, so a dispatch occupies
// one stage per distinct address group (row) it touches, rows in increasing order.
#pragma once

#include <vector>

#include "hw/mmu/stage_splitter.hpp"
#include "hw/support/stamped_set.hpp"

namespace mmsim {

class Coalescer final : public StageSplitter {
 public:
  Coalescer(unsigned width, std::size_t max_lanes);

  unsigned stages(std::span<const Address> cells) override;
  unsigned assign_groups(std::span<const Address> cells, std::span<std::uint32_t> groups) override;
  std::string name() const override { return "coalescer"; }

 private:
  StampedSet seen_;
  std::vector<std::uint32_t> distinct_;
};

}  // namespace mmsim
