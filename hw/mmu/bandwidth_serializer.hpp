// The reference bandwidth-limited PRAM (Nakano 2012): any w distinct requests per time unit,
// whatever their banks, so a dispatch occupies ceil(distinct requests / w) stages.
#pragma once

#include "hw/mmu/stage_splitter.hpp"
#include "hw/support/stamped_set.hpp"

namespace mmsim {

class BandwidthSerializer final : public StageSplitter {
 public:
  BandwidthSerializer(unsigned width, std::size_t max_lanes);

  unsigned stages(std::span<const Address> cells) override;
  unsigned assign_groups(std::span<const Address> cells, std::span<std::uint32_t> groups) override;
  std::string name() const override { return "bandwidth_serializer"; }

 private:
  StampedSet seen_;
};

}  // namespace mmsim
