// The stage groups of one dispatch (docs/semantics.md §3, rule 2): the group each active lane's
// request entered the pipeline in, and the bank of its cell, as the memory's splitter placed
// them. The dispatcher places them once per dispatch for every recorder that reads them; a
// recorder gets them read-only.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "hw/mmu/stage_splitter.hpp"
#include "hw/support/types.hpp"

namespace mmsim {

class StageGroups {
 public:
  // Places the lanes of a dispatch of k stage groups whose cells are `cells` (kInactive: a lane
  // that sends nothing) with the memory's `splitter`. A dispatch of one stage group (every
  // conflict-free one) has all its lanes in group 0: the splitter need not place them.
  void place(StageSplitter& splitter, std::span<const Address> cells, unsigned k) {
    splitter_ = &splitter;
    cells_ = cells;
    count_ = k;
    if (k == 1) return;
    lane_groups_.resize(cells.size());
    splitter.assign_groups(cells, lane_groups_);
  }

  unsigned count() const { return count_; }  // k
  std::span<const Address> cells() const { return cells_; }
  // The stage group of lane i (an active one).
  std::uint32_t group(std::size_t lane) const { return count_ == 1 ? 0 : lane_groups_[lane]; }
  // The bank of a cell, and the memory's width (its banks).
  std::uint32_t bank(Address cell) const { return splitter_->bank(cell); }
  unsigned width() const { return splitter_->width(); }

 private:
  const StageSplitter* splitter_ = nullptr;
  std::span<const Address> cells_;
  unsigned count_ = 0;
  std::vector<std::uint32_t> lane_groups_;
};

}  // namespace mmsim
