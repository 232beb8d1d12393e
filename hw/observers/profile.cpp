#include "hw/observers/profile.hpp"

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
  if (last_ != nullptr && site.key() == last_key_ && memory == last_memory_) return *last_;
  return find(site, memory);
}

SiteCounts& Profile::find(SiteRef site, MemoryId memory) {
  const SiteId id = sites_.intern(site);
  if (id >= counts_.size()) counts_.resize(id + 1);
  std::vector<SiteCounts>& slots = counts_[id];
  const std::size_t slot = memory == kNoMemory ? 0 : std::size_t{memory} + 1;
  if (slot >= slots.size()) slots.resize(slot + 1);
  last_key_ = site.key();
  last_memory_ = memory;
  last_ = &slots[slot];
  return *last_;
}

void Profile::count(SiteCounts& counts, std::uint64_t requests, Cycle waited, Cycle in_memory) {
  ++counts.instructions;
  counts.requests += requests;
  counts.turn_wait += waited;
  counts.memory_wait += in_memory;
}

void Profile::lead(SiteCounts& counts, unsigned stages) {
  ++counts.dispatches;
  counts.stages += stages;
  counts.max_stages = std::max<std::uint64_t>(counts.max_stages, stages);
}

void Profile::dispatched(const DispatchRecord& d) {
  const WarpUnit& unit = d.unit;
  const Cycle waited = d.t - unit.ready_since();
  const Cycle in_memory = d.completion + 1 - d.t;
  const std::span<const Warp> warps = unit.warps();
  if (warps.size() == 1) {  // a single warp: it is the dispatch
    SiteCounts& counts = at(warps.front().instruction().site, d.memory);
    count(counts, d.requests, waited, in_memory);
    lead(counts, d.stages);
    return;
  }
  bool led = false;
  for (std::size_t j = 0; j < warps.size(); ++j) {
    if (!unit.in_flight(j)) continue;
    const Warp::Instruction& in = warps[j].instruction();
    const std::span<const Address> addresses = warps[j].addresses();
    SiteCounts& counts = at(in.site, d.memory);
    count(counts,
          static_cast<std::uint64_t>(std::count_if(addresses.begin(), addresses.end(),
                                                   [](Address a) { return a != kInactive; })),
          waited, in_memory);
    if (!led) lead(counts, d.stages);
    led = true;
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

std::string site_text(const SiteInfo& site) {
  std::string text = site.file;
  if (site.line > 0) text += (text.empty() ? "line " : ":") + std::to_string(site.line);
  if (!site.label.empty()) text += text.empty() ? site.label : " (" + site.label + ")";
  return text;
}

SiteCounts ProfileTable::total() const {
  SiteCounts sum;
  for (const ProfileRow& row : rows) sum += row.counts;
  return sum;
}

}  // namespace mmsim
