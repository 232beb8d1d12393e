// The Request Packing Unit of the DMM family (Nakano and Matsumae 2013): requests to the same bank
// go through the pipeline back to back, so a dispatch occupies as many stages as the largest number
// of distinct addresses sent to one bank. Stage group i holds the i-th request of every bank, lanes
// in increasing order. With one warp per dispatch this is the plain DMM; with a super warp of s
// warps it packs all s*w requests (the SDMM). mmsim congestion calls stages() directly, millions of
// times per second, so the count has fast paths chosen by the memory size.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "hw/mmu/stage_splitter.hpp"
#include "hw/support/stamped_set.hpp"

namespace mmsim {

// Aligned to a cache line, so that the state every dispatch reads shares the first line with the
// base (which the MMU's call reads anyway): a memory's unit is touched once in many dispatches
// of the other memories, and its lines have left the first-level cache by then.
class alignas(64) RequestPackingUnit final : public StageSplitter {
 public:
  // `cells`: the memory's cell count (rows * w), or 0 if unknown. A dispatch has at most
  // `max_lanes` lanes.
  RequestPackingUnit(unsigned width, std::size_t max_lanes, std::uint64_t cells = 0);
  // Its state points into its own arrays.
  RequestPackingUnit(const RequestPackingUnit&) = delete;
  RequestPackingUnit& operator=(const RequestPackingUnit&) = delete;

  unsigned stages(std::span<const Address> cells) override;
  // Counts the thread requests per bank besides.
  unsigned count_stages(std::span<const Address> cells, unsigned active) override;
  // Consecutive cells of at most w lanes lie in as many banks: one stage.
  unsigned count_consecutive_stages(Address first_cell, unsigned lanes) override;
  RequestSpread spread() const override;
  unsigned assign_groups(std::span<const Address> cells, std::span<std::uint32_t> groups) override;
  std::string name() const override { return "request_packing_unit"; }

 private:
  // How split() counts the distinct addresses per bank, chosen by the memory size.
  enum class Counting : std::uint8_t { columns, stamped, busiest };

  // stages(), and with Count the thread requests per bank into banks_. `active`: whether every
  // lane is, where the caller knows.
  template <bool Count>
  unsigned split(std::span<const Address> cells, std::optional<bool> active);
  // The definition, with a hash set to merge requests; optionally records each lane's rank in
  // its bank (its stage group).
  unsigned pack(std::span<const Address> cells, std::span<std::uint32_t> groups);
  // Small memories (at most 255 rows): mark every cell sent, then count the marks column by
  // column (bank b is column b of the row-major cell array).
  template <bool Count, class Bank>
  unsigned count_columns(std::span<const Address> cells, Bank bank, bool active);
  // Memories of up to kStampCells cells (the shared memories): a stamp per cell marks the
  // addresses already sent in this dispatch, so each lane adds to its bank's count of distinct
  // addresses at once, duplicates (broadcasts, the searches of sorting) costing nothing more.
  template <bool Count, class Bank>
  unsigned count_stamped(std::span<const Address> cells, Bank bank, bool active);
  // Larger memories: count requests per bank, then the distinct addresses of the busiest banks
  // only (duplicates among a bank's few requests are rare).
  template <bool Count, class Bank>
  unsigned count_busiest(std::span<const Address> cells, Bank bank, bool active);
  // The banks the active lanes use (bit b: bank b) when each uses a bank of its own, else 0.
  template <class Bank>
  std::uint64_t conflict_free_banks(std::span<const Address> cells, Bank bank) const;
  // Counts one dispatch whose active lanes used the banks of `banks` (bit b: bank b) once each.
  // Successive dispatches with the same banks (conflict-free warps) are counted as one run,
  // added bank by bank only when the banks change.
  void count_banks(std::uint64_t banks) {
    if (banks == run_banks_) {
      ++run_length_;
      return;
    }
    add_run(banks_, run_banks_, run_length_);
    run_banks_ = banks;
    run_length_ = 1;
  }
  static void add_run(std::vector<std::uint64_t>& to, std::uint64_t banks, std::uint64_t length);
  // Adds count_stamped's pending requests per bank to banks_.
  void add_pending();

  // First, after the base: what every dispatch of the shared memories reads (see above).
  Counting counting_;
  // split: failures of the conflict-free test in a row (at most kMostMisses), and the
  // dispatches left before it is tried again.
  static constexpr std::uint8_t kMostMisses = 4;
  std::uint8_t conflict_free_misses_ = 0;
  std::uint8_t conflict_free_skips_ = 0;
  std::uint16_t cell_generation_ = 0;  // count_stamped: this dispatch's stamp
  // count_stamped: the lanes counted into pending_ since it was last added to banks_ (each adds
  // at most one request to one bank's 16-bit count).
  std::uint32_t pending_lanes_ = 0;
  std::uint16_t* cell_stamps_ = nullptr;  // count_stamped: per cell, the dispatch that sent it
  // count_stamped: thread requests per bank not yet in banks_ (one cache line at w = 32, where
  // banks_ takes four).
  std::uint16_t* pending_ = nullptr;

  StampedSet seen_;
  std::vector<std::uint32_t> bank_count_;
  std::vector<std::uint32_t> bank_stamp_;
  std::uint32_t stamp_ = 0;
  std::vector<std::uint8_t> marked_;        // count_columns: one byte per cell, zero between calls
  std::vector<std::uint8_t> column_count_;  // count_columns: per bank
  std::vector<std::uint16_t> stamps_;       // count_stamped: the storage of cell_stamps_
  std::vector<std::uint16_t> pending_requests_;  // count_stamped: the storage of pending_
  std::vector<std::uint32_t> tally_;  // count_stamped beyond kStackBanks banks: zero between calls
  std::vector<std::uint8_t> in_bank_;       // count_busiest: 1 for the lanes of one bank
  std::vector<Address> busiest_;            // count_busiest: the addresses sent to one bank
  std::vector<std::uint64_t> banks_;        // count_stages: thread requests per bank
  std::uint64_t run_banks_ = 0;             // count_banks: the banks of the current run
  std::uint64_t run_length_ = 0;            // its dispatches, not yet added to banks_
};

}  // namespace mmsim
