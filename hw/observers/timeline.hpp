// The run as Chrome Trace Event JSON (--timeline), which Perfetto (ui.perfetto.dev) and
// chrome://tracing open: a track per warp (grouped per streaming multiprocessor), a slice per
// instruction from its dispatch to its completion named by its site and operation, a slice per
// barrier wait, and counter tracks per memory. One time unit is one microsecond of trace time
// (docs/statistics.md, "Timeline").
//
// It is written while the run goes, a piece at a time to a sink (the output's file, which counts
// it against its limit): what it holds is a buffer, its sites, and per memory the counter changes
// of the dispatches still in flight, whatever the run's length.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hw/observers/instruction_recorder.hpp"
#include "hw/observers/json_writer.hpp"
#include "hw/pe/site_table.hpp"

namespace mmsim {

// Bytes of JSON per slice (an instruction or a barrier wait) and per dispatch (its counters,
// with a busy banks event in each time unit one of its groups enters), about, as written.
inline constexpr std::uint64_t kTimelineBytesPerSlice = 200;
inline constexpr std::uint64_t kTimelineBytesPerDispatch = 350;

class Timeline final : public InstructionRecorder {
 public:
  // Takes the JSON a piece at a time; throws to end the run (a limit passed, a write failed).
  using Sink = std::function<void(std::string_view)>;

  // Keeps what overlaps the window of time units [from, to].
  Timeline(Cycle from, Cycle to, Sink sink);

  // Before the run: `blocks` streaming multiprocessors (1 for a flat machine) and the memories'
  // labels ("memory", "global", "SM 3 shared"); writes the JSON's head.
  void start(unsigned blocks, std::vector<std::string> memory_labels);
  bool needs_stage_groups() const override { return true; }  // its busy banks
  void dispatched(const DispatchRecord& dispatch) override;
  void released(const WarpUnit& unit, std::size_t j, Cycle arrived, Cycle release) override;
  // After the run: the counters' last changes and the JSON's end, handed to the sink.
  void finish();

  // What it kept: instruction slices and barrier slices.
  std::uint64_t instructions() const { return instructions_; }
  std::uint64_t barriers() const { return barriers_; }

  // Bytes of memory it holds at most on a machine of `warps` warps, `memories` memories and
  // dispatches of at most `lanes` lanes (a super warp's) over `width` banks: its buffer, its
  // tables per warp and per memory (its sites besides, as many as the program has lines).
  static std::uint64_t memory_bytes(std::uint64_t warps, std::uint64_t memories,
                                    std::uint64_t lanes, std::uint64_t width);

 private:
  enum class Kind : std::uint8_t { read, write, sync, grid_sync };
  // A counter's change at a time unit.
  struct Change {
    std::int64_t stages = 0;    // stage groups in flight
    std::int64_t requests = 0;  // thread requests per time unit, times kRateScale
    std::int64_t banks = 0;     // busy banks
  };
  // One memory's three counter tracks: what was written, and the changes not yet final (those
  // of the dispatches in flight: a later dispatch starts no earlier than the last one).
  struct Counters {
    std::string pipeline;  // the tracks' names, quoted
    std::string requests;
    std::string banks;
    std::map<Cycle, Change> pending;
    Change value;
    Change shown{-1, -1, -1};
  };

  bool in_window(Cycle begin, Cycle end) const { return end >= from_ && begin <= to_; }
  SiteId site_of(SiteRef site);
  // Appends a slice: its event, and its warp's names on its first.
  void slice(Cycle begin, Cycle end, const Warp& warp, SiteId site, MemoryId memory, Kind kind);
  // The busy banks of each of the dispatch's k stage groups, into busy_.
  void count_busy_banks(const StageGroups& groups);
  // A metadata event ("ph":"M") naming a process (no `tid`) or a thread, up to its argument's
  // value: the caller writes the value and ends the event (end().end()).
  JsonWriter& metadata(const char* name, unsigned pid, std::optional<WarpId> tid, const char* arg);
  // Writes memory m's counter changes before time `before` (all: kNever).
  void write_counters(MemoryId m, Cycle before);
  // Hands the buffer to the sink once it has grown.
  void drain(bool all = false);

  Cycle from_;
  Cycle to_;
  Sink sink_;
  std::string buffer_;
  JsonWriter json_{buffer_};
  unsigned memories_pid_ = 0;  // the process of the counters, after the blocks
  std::vector<std::string> memory_labels_;
  std::vector<Counters> counters_;  // per memory
  SiteTable sites_;
  SiteKey last_key_;  // consecutive instructions mostly come from one site
  SiteId last_id_ = 0;
  bool any_ = false;
  // Made once: per site and kind the slice's quoted name, per site and memory its arguments.
  std::vector<std::string> names_;          // site * 4 + kind
  std::vector<std::string> details_;        // site * (memories + 1) + (barrier ? 0 : memory + 1)
  std::vector<bool> named_warps_;           // the warps whose track has its names
  std::vector<std::uint32_t> busy_;         // per stage group of the dispatch, its busy banks
  std::vector<std::uint64_t> group_banks_;  // per (group, bank), the dispatch that marked it
  std::uint64_t counted_ = 0;               // dispatches counted, marking group_banks_
  std::uint64_t instructions_ = 0;
  std::uint64_t barriers_ = 0;
};

}  // namespace mmsim
