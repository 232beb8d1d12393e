// The profile of a run (--profile): every warp instruction counted at its site
// (hw/pe/site.hpp), per memory: instructions, thread requests, stages, the worst and mean
// congestion, and the time its warps waited for their turn, in memory, and at barriers
// (docs/statistics.md, "Profile"). Its totals are the run's statistics, exactly.
#pragma once

#include <string>
#include <vector>

#include "hw/observers/instruction_recorder.hpp"
#include "hw/pe/site_table.hpp"

namespace mmsim {

// What one site did to one memory (or, memory kNoMemory, at barriers).
struct SiteCounts {
  std::uint64_t instructions = 0;  // warp instructions (each warp of a super warp counts)
  // Dispatches it led: a super warp's dispatch counts at the site of its lowest warp taking part,
  // with its stages.
  std::uint64_t dispatches = 0;
  std::uint64_t requests = 0;    // thread requests: active lanes
  std::uint64_t stages = 0;      // stage groups of the dispatches it led (congestion summed)
  std::uint64_t max_stages = 0;  // the worst congestion of one of them
  Cycle turn_wait = 0;           // summed over its warps: ready until dispatched
  Cycle memory_wait = 0;         // summed over its warps: dispatched until completed, inclusive
  std::uint64_t barriers = 0;    // warps let through a barrier here
  Cycle barrier_wait = 0;        // summed over them: arrival until release

  SiteCounts& operator+=(const SiteCounts& other);
  // All the time its warps spent here.
  Cycle time() const { return turn_wait + memory_wait + barrier_wait; }
};

struct ProfileRow {
  SiteId site = 0;
  MemoryId memory = kNoMemory;  // kNoMemory: barriers
  SiteCounts counts;
};

// "sw/programs/transpose.cpp:48 (Transpose::run)", "trace.csv:7", "line 3", a label alone.
std::string site_text(const SiteInfo& site);

// A run's profile: its sites, and every (site, memory) that counted something, by site id and
// then memory (barriers last).
struct ProfileTable {
  std::vector<SiteInfo> sites;
  std::vector<ProfileRow> rows;
  // The sum of every row: the run's totals.
  SiteCounts total() const;
};

class Profile final : public InstructionRecorder {
 public:
  void dispatched(const DispatchRecord& dispatch) override;
  void released(const WarpUnit& unit, std::size_t j, Cycle arrived, Cycle release) override;

  ProfileTable table() const;

 private:
  SiteCounts& at(SiteRef site, MemoryId memory);
  SiteCounts& find(SiteRef site, MemoryId memory);
  // One warp's instruction of a dispatch; the first one leads it.
  static void count(SiteCounts& counts, std::uint64_t requests, Cycle waited, Cycle in_memory);
  static void lead(SiteCounts& counts, unsigned stages);

  SiteTable sites_;
  // counts_[site][slot]: slot 0 for barriers, m + 1 for memory m (grown as seen).
  std::vector<std::vector<SiteCounts>> counts_;
  // Consecutive instructions mostly come from one site to one memory: the last one's counts
  // save the lookup (valid until counts_ grows).
  SiteKey last_key_;
  MemoryId last_memory_ = 0;
  SiteCounts* last_ = nullptr;
};

}  // namespace mmsim
