// The Request Packing Unit of the DMM family (seed 002): requests to the same bank go through
// the pipeline back to back, so a dispatch occupies as many stages as the largest number of
// distinct addresses sent to one bank. Stage group i holds the i-th request of every bank, lanes
// in increasing order. With one warp per dispatch this is the plain DMM; with a super warp of s
// warps it packs all s*w requests (the SDMM). mmsim congestion calls stages() directly, millions
// of times per second, so the count has fast paths chosen by the memory size.
#pragma once

#include <cstdint>
#include <vector>

#include "hw/mmu/stage_splitter.hpp"
#include "hw/support/stamped_set.hpp"

namespace mmsim {

class RequestPackingUnit final : public StageSplitter {
 public:
  // `cells`: the memory's cell count (rows * w), or 0 if unknown.
  RequestPackingUnit(unsigned width, std::size_t max_lanes, std::uint64_t cells = 0);

  unsigned stages(std::span<const Address> cells) override;
  unsigned assign_groups(std::span<const Address> cells, std::span<std::uint32_t> groups) override;
  std::string name() const override { return "request_packing_unit"; }

 private:
  // The definition, with a hash set to merge requests; optionally records each lane's rank in
  // its bank (its stage group).
  unsigned pack(std::span<const Address> cells, std::span<std::uint32_t> groups);
  // Small memories (at most 255 rows): mark every cell sent, then count the marks column by
  // column (bank b is column b of the row-major cell array).
  unsigned count_columns(std::span<const Address> cells);
  // Other memories: count requests per bank, then the distinct addresses of the busiest banks
  // only (duplicates among a bank's few requests are rare).
  template <class Bank>
  unsigned count_busiest(std::span<const Address> cells, Bank bank);
  template <class Bank>
  bool conflict_free(std::span<const Address> cells, Bank bank) const;

  StampedSet seen_;
  std::vector<std::uint32_t> bank_count_;
  std::vector<std::uint32_t> bank_stamp_;
  std::uint32_t stamp_ = 0;
  std::vector<std::uint8_t> marked_;        // count_columns: one byte per cell, zero between calls
  std::vector<std::uint8_t> column_count_;  // count_columns: per bank
  std::vector<std::uint8_t> in_bank_;       // count_busiest: 1 for the lanes of one bank
  std::vector<Address> busiest_;            // count_busiest: the addresses sent to one bank
};

}  // namespace mmsim
