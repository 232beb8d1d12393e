// The run as Chrome Trace Event JSON (--timeline), which Perfetto (ui.perfetto.dev) and
// chrome://tracing open: a track per warp (grouped per streaming multiprocessor), a slice per
// instruction from its dispatch to its completion named by its site and operation, a slice per
// barrier wait, and counter tracks per memory. One time unit is one microsecond of trace time
// (docs/statistics.md, "Timeline").
#pragma once

#include <string>
#include <vector>

#include "hw/dispatch/instruction_recorder.hpp"
#include "hw/machine/simulation.hpp"
#include "hw/pe/site_table.hpp"

namespace mmsim {

// Refused beyond this many bytes unless outputs.timeline_limit or --timeline-limit says more.
inline constexpr std::uint64_t kDefaultTimelineLimit = std::uint64_t{1} << 30;
// Bytes of JSON per slice (an instruction or a barrier wait) and per dispatch (its counters,
// with a busy banks event in each time unit one of its groups enters), about, as written.
inline constexpr std::uint64_t kTimelineBytesPerSlice = 200;
inline constexpr std::uint64_t kTimelineBytesPerDispatch = 350;

class Timeline final : public InstructionRecorder {
 public:
  // Keeps what overlaps the window of time units [from, to].
  Timeline(Cycle from, Cycle to) : from_(from), to_(to) {}

  void dispatched(const WarpUnit& unit, MemoryId memory, StageSplitter& splitter, unsigned stages,
                  unsigned requests, Cycle t, Cycle completion) override;
  void released(const WarpUnit& unit, std::size_t j, Cycle arrived, Cycle release) override;

  // The JSON: `blocks` streaming multiprocessors (1 for a flat machine), the memories' labels
  // from the result.
  std::string json(const RunResult& result, unsigned blocks) const;

  // What it kept: instruction slices and barrier slices.
  std::uint64_t instructions() const { return instructions_; }
  std::uint64_t barriers() const { return barriers_; }

 private:
  enum class Kind : std::uint8_t { read, write, sync, grid_sync };
  struct Slice {
    Cycle begin;
    Cycle end;  // exclusive
    WarpId warp;
    SiteId site;
    unsigned block;
    MemoryId memory;  // kNoMemory: a barrier
    Kind kind;
  };
  struct Dispatch {
    Cycle t;
    Cycle completion;
    unsigned stages;
    unsigned requests;
    MemoryId memory;
    std::size_t busy;  // its stage groups' busy banks: busy_[busy, busy + stages)
  };
  bool in_window(Cycle begin, Cycle end) const { return end >= from_ && begin <= to_; }
  SiteId site_of(SiteRef site);
  // Appends to busy_ the busy banks of each of the dispatch's k stage groups.
  void count_busy_banks(std::span<const Address> cells, StageSplitter& splitter, unsigned k);

  Cycle from_;
  Cycle to_;
  SiteTable sites_;
  SiteKey last_key_;  // consecutive instructions mostly come from one site
  SiteId last_id_ = 0;
  bool any_ = false;
  std::vector<Slice> slices_;
  std::vector<Dispatch> dispatches_;
  std::vector<std::uint32_t> busy_;         // per stage group kept, its busy banks
  std::vector<std::uint32_t> groups_;       // per lane of a dispatch, its stage group
  std::vector<std::uint64_t> group_banks_;  // per (group, bank), the dispatch that marked it
  std::uint64_t counted_ = 0;               // dispatches counted, marking group_banks_
  std::uint64_t instructions_ = 0;
  std::uint64_t barriers_ = 0;
};

}  // namespace mmsim
