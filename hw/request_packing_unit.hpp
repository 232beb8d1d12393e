// The Request Packing Unit of the DMM family (seed 002): requests to the same bank go through
// the pipeline back to back, so a dispatch occupies as many stages as the largest number of
// distinct addresses sent to one bank. Stage group i holds the i-th request of every bank, lanes
// in increasing order. With one warp per dispatch this is the plain DMM.
#pragma once

#include <vector>

#include "hw/stage_splitter.hpp"
#include "hw/stamped_set.hpp"

namespace mmsim {

class RequestPackingUnit final : public StageSplitter {
 public:
  RequestPackingUnit(unsigned width, std::size_t max_lanes);

  unsigned stages(std::span<const Address> cells) override;
  unsigned assign_groups(std::span<const Address> cells, std::span<std::uint32_t> groups) override;
  std::string name() const override { return "request_packing_unit"; }

 private:
  // Counts distinct addresses per bank; optionally records each lane's rank in its bank.
  unsigned pack(std::span<const Address> cells, std::span<std::uint32_t> groups);
  template <class Bank>
  bool conflict_free(std::span<const Address> cells, Bank bank) const;

  StampedSet seen_;
  std::vector<std::uint32_t> bank_count_;
  std::vector<std::uint32_t> bank_stamp_;
  std::uint32_t stamp_ = 0;
};

}  // namespace mmsim
