#include "sw/gpu_traces/cta_scheduler.hpp"

namespace mmsim {

std::optional<CtaPlacement> cta_placement(std::string_view name) {
  if (name == "round_robin") return CtaPlacement::round_robin;
  if (name == "cta_id") return CtaPlacement::cta_id;
  return std::nullopt;
}

CtaSchedule::CtaSchedule(std::uint64_t ctas, std::uint32_t warps_per_cta, unsigned blocks,
                         std::uint64_t warps_per_block, CtaPlacement placement,
                         const std::vector<std::uint64_t>& linear_ids)
    : ctas_(ctas),
      warps_per_cta_(warps_per_cta),
      blocks_(blocks),
      warps_per_block_(warps_per_block),
      slots_(warps_per_cta == 0 ? 0 : warps_per_block / warps_per_cta),
      placement_(placement) {
  if (placement_ == CtaPlacement::cta_id) {
    by_block_.resize(blocks_);
    for (std::uint64_t i = 0; i < linear_ids.size(); ++i)
      by_block_[linear_ids[i] % blocks_].push_back(i);
  }
}

std::optional<CtaSchedule::Slot> CtaSchedule::slot_of(std::uint64_t warp) const {
  if (slots_ == 0) return std::nullopt;
  const std::uint64_t in_block = warp % warps_per_block_;
  const std::uint64_t slot = in_block / warps_per_cta_;
  if (slot >= slots_) return std::nullopt;
  return Slot{static_cast<unsigned>(warp / warps_per_block_), slot,
              static_cast<std::uint32_t>(in_block % warps_per_cta_)};
}

std::uint64_t CtaSchedule::block_ctas(unsigned block) const {
  if (placement_ == CtaPlacement::cta_id) return by_block_[block].size();
  return ctas_ / blocks_ + (block < ctas_ % blocks_ ? 1 : 0);
}

std::optional<std::uint64_t> CtaSchedule::cta(const Slot& s, std::uint64_t round) const {
  const std::uint64_t j = round * slots_ + s.slot;  // the block's j-th CTA
  if (j >= block_ctas(s.block)) return std::nullopt;
  if (placement_ == CtaPlacement::cta_id) return by_block_[s.block][j];
  return j * blocks_ + s.block;
}

}  // namespace mmsim
