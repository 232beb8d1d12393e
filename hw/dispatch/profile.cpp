#include "hw/dispatch/profile.hpp"

#include <algorithm>

namespace mmsim {

SiteCounts& SiteCounts::operator+=(const SiteCounts& other) {
  instructions += other.instructions;
  dispatches += other.dispatches;
  requests += other.requests;
  stages += other.stages;
  max_stages = std::max(max_stages, other.max_stages);
  turn_wait += other.turn_wait;
  memory_wait += other.memory_wait;
  barriers += other.barriers;
  barrier_wait += other.barrier_wait;
  return *this;
}

SiteCounts& Profile::at(SiteRef site, MemoryId memory) {
  if (!any_ || site.key() != last_key_) {
    last_id_ = sites_.intern(site);
    last_key_ = site.key();
    any_ = true;
  }
  if (last_id_ >= counts_.size()) counts_.resize(last_id_ + 1);
  std::vector<SiteCounts>& slots = counts_[last_id_];
  const std::size_t slot = memory == kNoMemory ? 0 : std::size_t{memory} + 1;
  if (slot >= slots.size()) slots.resize(slot + 1);
  return slots[slot];
}

void Profile::dispatched(const WarpUnit& unit, MemoryId memory, unsigned stages, unsigned requests,
                         Cycle t, Cycle completion) {
  const Cycle waited = t - unit.ready_since();
  const Cycle in_memory = completion + 1 - t;
  const std::span<const Warp> warps = unit.warps();
  bool led = false;
  for (std::size_t j = 0; j < warps.size(); ++j) {
    if (!unit.in_flight(j)) continue;
    const Warp::Instruction& in = warps[j].instruction();
    SiteCounts& counts = at(in.site, memory);
    ++counts.instructions;
    if (warps.size() == 1) {
      counts.requests += requests;
    } else {
      counts.requests += static_cast<std::uint64_t>(std::count_if(
          in.addresses.begin(), in.addresses.end(), [](Address a) { return a != kInactive; }));
    }
    counts.turn_wait += waited;
    counts.memory_wait += in_memory;
    if (!led) {
      led = true;
      ++counts.dispatches;
      counts.stages += stages;
      counts.max_stages = std::max<std::uint64_t>(counts.max_stages, stages);
    }
  }
}

void Profile::released(const WarpUnit& unit, std::size_t j, Cycle arrived, Cycle release) {
  const Warp& warp = unit.warps()[j];
  SiteCounts& counts = at(warp.instruction().site, kNoMemory);
  ++counts.barriers;
  counts.barrier_wait += release - arrived;
}

ProfileTable Profile::table() const {
  ProfileTable table{sites_.sites(), {}};
  std::vector<ProfileRow>& rows = table.rows;
  for (SiteId site = 0; site < counts_.size(); ++site) {
    const std::vector<SiteCounts>& slots = counts_[site];
    for (std::size_t slot = 1; slot < slots.size(); ++slot)
      if (slots[slot].instructions > 0)
        rows.push_back({site, static_cast<MemoryId>(slot - 1), slots[slot]});
    if (!slots.empty() && slots[0].barriers > 0) rows.push_back({site, kNoMemory, slots[0]});
  }
  return table;
}

SiteCounts ProfileTable::total() const {
  SiteCounts sum;
  for (const ProfileRow& row : rows) sum += row.counts;
  return sum;
}

}  // namespace mmsim
