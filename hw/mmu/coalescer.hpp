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
  // Counts the address groups touched by the thread requests they carry besides.
  unsigned count_stages(std::span<const Address> cells, unsigned active) override;
  // Consecutive cells fill the rows between the first lane's and the last lane's.
  unsigned count_consecutive_stages(Address first_cell, unsigned lanes) override;
  RequestSpread spread() const override { return {.groups = groups_}; }
  unsigned assign_groups(std::span<const Address> cells, std::span<std::uint32_t> groups) override;
  bool rows() const override { return true; }
  std::string name() const override { return "coalescer"; }

 private:
  // Whether the active lanes (at least one) all lie in one row.
  bool one_row(std::span<const Address> cells) const;

  StampedSet seen_;
  std::vector<std::uint32_t> distinct_;
  std::vector<std::uint32_t> row_of_lane_;    // count_stages: the row number of each active lane
  std::vector<std::uint32_t> lanes_per_row_;  // count_stages: active lanes per row
  std::vector<std::uint64_t> groups_;         // count_stages: touches by thread requests carried
};

}  // namespace mmsim
