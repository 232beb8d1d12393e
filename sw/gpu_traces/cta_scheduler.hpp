// Which CTA of a recorded kernel each warp of the machine runs, and when (docs/gpu_traces.md,
// "CTAs on the machine"). A machine of d blocks (the hierarchical machine's SMs; a flat machine
// is one block) of W_b warps each holds G = floor(W_b / K) CTAs of K warps per block at a time:
// slot s of block b is its warps b*W_b + s*K .. b*W_b + s*K + K - 1, warp q of a CTA on warp q
// of its slot. The CTAs go to the blocks by the placement (round robin in recorded order, or by
// their CTA id), and block b's j-th CTA to slot j mod G in round j div G: each warp runs, one
// after another, the warps of the CTAs of its slot. (How the rounds meet: gpu_trace.cpp.)
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace mmsim {

enum class CtaPlacement {
  round_robin,  // the i-th CTA recorded to block i mod d
  cta_id,       // the CTA of linear id c = x + X*(y + Y*z) (grid X x Y x Z) to block c mod d
};

std::optional<CtaPlacement> cta_placement(std::string_view name);

class CtaSchedule {
 public:
  struct Slot {
    unsigned block = 0;
    std::uint64_t slot = 0;
    std::uint32_t warp = 0;  // q: the CTA's warp it runs
  };

  // `linear_ids`: per recorded CTA its linear id (cta_id placement only).
  CtaSchedule(std::uint64_t ctas, std::uint32_t warps_per_cta, unsigned blocks,
              std::uint64_t warps_per_block, CtaPlacement placement,
              const std::vector<std::uint64_t>& linear_ids = {});

  // The slot of machine warp `warp`; none for the warps of a block beyond its G slots.
  std::optional<Slot> slot_of(std::uint64_t warp) const;
  // The recorded CTA (its index in recorded order) slot `s` runs in round `round`, if any.
  std::optional<std::uint64_t> cta(const Slot& s, std::uint64_t round) const;
  // The CTAs block b runs, and the rounds that takes.
  std::uint64_t block_ctas(unsigned block) const;
  std::uint64_t rounds(unsigned block) const { return (block_ctas(block) + slots_ - 1) / slots_; }
  std::uint64_t slots() const { return slots_; }  // G

 private:
  std::uint64_t ctas_;
  std::uint32_t warps_per_cta_;
  unsigned blocks_;
  std::uint64_t warps_per_block_;
  std::uint64_t slots_;
  CtaPlacement placement_;
  std::vector<std::vector<std::uint64_t>> by_block_;  // cta_id: each block's CTAs in order
};

}  // namespace mmsim
