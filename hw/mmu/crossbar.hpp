// The crossbar of the PRAM: every PE reaches every cell in the same time unit, with no bank
// conflicts, so a dispatch of any size occupies one stage group. The flat `pram` model and the
// conflict-free shared memory of the HMM (shared.model: pram, the thesis' "MP as PRAM") use it.
#pragma once

#include "hw/mmu/stage_splitter.hpp"

namespace mmsim {

class Crossbar final : public StageSplitter {
 public:
  using StageSplitter::StageSplitter;

  unsigned stages(std::span<const Address>) override { return 1; }
  unsigned assign_groups(std::span<const Address> cells, std::span<std::uint32_t> groups) override {
    for (std::size_t i = 0; i < cells.size(); ++i) groups[i] = 0;
    return 1;
  }
  std::string name() const override { return "crossbar"; }
};

}  // namespace mmsim
