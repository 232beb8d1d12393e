// A memory with its MMU: the address map (with the random shift unit where the model has one),
// the splitter (request packing unit, coalescer or bandwidth serializer), the l-stage pipeline
// and the w banks. Accesses take effect when a dispatch completes, in completion order. The
// hot path calls the map's and the splitter's logic directly; their modules only trace.
#pragma once

#include <memory>
#include <span>
#include <systemc>
#include <vector>

#include "hw/memory/address_map.hpp"
#include "hw/memory/memory_bank.hpp"
#include "hw/mmu/bank_port.hpp"
#include "hw/mmu/memory_counters.hpp"
#include "hw/mmu/mmu_pipeline.hpp"
#include "hw/mmu/random_shift_unit.hpp"
#include "hw/mmu/splitter_unit.hpp"
#include "hw/mmu/stage_splitter.hpp"
#include "hw/mmu/write_conflict.hpp"
#include "hw/support/huge_pages.hpp"
#include "hw/support/tracer.hpp"
#include "hw/support/types.hpp"
#include "hw/support/vector_isa.hpp"

namespace mmsim {

class Warp;
class WarpUnit;
enum class LaneLayout : std::uint8_t;

// One thread access as it takes effect (the lanes of one instruction to one address are one).
struct MemoryAccess {
  MemoryId memory;
  Address address;
  AccessKind kind;
  WarpId warp;
  unsigned block;            // the warp's block (streaming multiprocessor)
  std::uint64_t pc;          // the warp's instruction number
  std::uint64_t epoch;       // barriers (of either scope) the warp passed before it
  std::uint64_t grid_epoch;  // grid_syncs the warp passed before it
  Cycle completion;
};

// Sees every access when it takes effect (the race detector listens here), one warp instruction
// at a time: its accesses share all of `access` but the address, one per address of `addresses`
// other than kInactive (a lane that sends nothing).
class AccessObserver {
 public:
  virtual ~AccessObserver() = default;
  virtual void access(const MemoryAccess& access, std::span<const Address> addresses) = 0;
};

class Mmu : public sc_core::sc_module {
 public:
  struct Config {
    MemoryId id = 0;
    std::string label = "memory";  // for reports: "memory", "global", "SM 3 shared", ...
    unsigned width = 1;
    std::uint64_t words = 0;
    WriteConflict write_conflict = WriteConflict::highest_lane;
    bool keep_groups = false;  // record each dispatch's stage groups (for waveforms)
    // Whether it keeps the values written; else (a program that carries no data, such as a GPU
    // trace) it holds zeros and drops what is written, and takes no memory for its cells.
    bool values = true;
  };

  // `latency`: the l stages of its pipeline.
  Mmu(const sc_core::sc_module_name& name, const Config& config, unsigned latency,
      std::unique_ptr<AddressMap> map, std::unique_ptr<StageSplitter> splitter);

  MemoryId id() const { return config_.id; }
  const std::string& label() const { return config_.label; }
  unsigned width() const { return config_.width; }
  unsigned latency() const { return pipeline_.latency(); }
  std::uint64_t words() const { return config_.words; }
  const AddressMap& address_map() const { return *map_; }
  StageSplitter& splitter() { return *splitter_; }
  // The random shift unit, when the map is a random shift (else nullptr).
  const RandomShiftUnit* random_shift_unit() const { return rsu_.get(); }

  struct Accepted {
    unsigned stages;    // k: the stage groups the dispatch occupies
    unsigned requests;  // active lanes
    Cycle completion;   // when its last group completes (its accesses take effect)
  };
  // Accepts the unit's dispatch at time t.
  Accepted dispatch(WarpUnit& unit, Cycle t);
  // Performs the accesses of every dispatch completed at or before t, in completion order.
  void complete_until(Cycle t);
  bool idle() const { return pipeline_.empty(); }
  const MemoryCounters& counters() const { return counters_; }
  // Where its thread requests went (per bank, or per address group touched).
  RequestSpread request_spread() const { return splitter_->spread(); }

  // Backdoor access (initial contents and verification), outside simulated time.
  Word peek(Address a) const { return config_.values ? cells_[identity_ ? a : map_->cell(a)] : 0; }
  void poke(Address a, Word value) {
    if (config_.values) cells_[identity_ ? a : map_->cell(a)] = value;
  }
  // m[a] = value_of(a) for a = 0 .. count - 1: initial contents in one vectorisable pass where
  // the address map is the identity (a large memory's fill is a tenth of its run otherwise).
  template <class ValueOf>
  void fill(Address count, ValueOf value_of) {
    if (!config_.values) return;
    if (!identity_) {
      for (Address a = 0; a < count; ++a) poke(a, value_of(a));
      return;
    }
    for_each_lane(count,
                  [cells = cells_.data(), &value_of](Address a) { cells[a] = value_of(a); });
  }

  void set_observer(AccessObserver* observer) { observer_ = observer; }

  // Offers its modules' signals; a memory none of whose signals is traced skips update_trace.
  void trace(Tracer& tracer);
  void update_trace(Cycle t);

 private:
  // Puts a dispatch of k stage groups and `active` lanes, taken at t, into the pipeline, and
  // counts it.
  [[gnu::always_inline]] inline MmuPipeline::InFlight& accept(WarpUnit& unit, Cycle t, unsigned k,
                                                               unsigned active);
  // Records the stage group, port and bank of every request of `record` (for waveforms); out of
  // line, so that the dispatch's path keeps the registers it needs.
  [[gnu::noinline]] void keep_slots(MmuPipeline::InFlight& record, std::span<const Address> cells,
                                    std::span<const Address> addresses);
  void perform(const MmuPipeline::InFlight& dispatch);
  // One warp's part of a dispatch taking effect, its `width` lanes: `addresses` per lane (read
  // only where some lane is inactive), `lane_cells` their cell indices (LaneLayout::consecutive:
  // the first alone); `warp` for the observer.
  void read_lanes(const Warp& warp, Word* registers, const Address* addresses, unsigned width,
                  const Address* lane_cells, LaneLayout layout, Cycle completion);
  void write_lanes(const Warp& warp, const Word* values, const Address* addresses, unsigned width,
                   const Address* lane_cells, LaneLayout layout, Cycle completion);
  // write_lanes' stores, in the order that lets the winning lane write last.
  void store(const Word* values, const Address* addresses, unsigned width,
             const Address* lane_cells, LaneLayout layout);
  void notify(const Warp& warp, AccessKind kind, Cycle completion);
  [[noreturn]] void reject(WarpUnit& unit, std::size_t lane, Address a) const;

  Config config_;
  std::unique_ptr<AddressMap> map_;
  MmuPipeline pipeline_;
  std::unique_ptr<RandomShiftUnit> rsu_;
  std::unique_ptr<SplitterUnit> splitter_unit_;
  StageSplitter* splitter_;  // the splitter unit's logic
  std::vector<std::unique_ptr<MemoryBank>> banks_;
  // Where banks have k > 1 ports: ports 1 .. k-1 of bank b at b*(k-1) .. b*(k-1) + k-2 (for
  // waveforms; port 0 is the bank's own).
  std::vector<BankPort> ports_;
  HugePageArray<Word> cells_;  // row-major: row j, bank b at j*w + b (none without values)
  bool identity_;              // the address map is the identity: cell index = address
  std::vector<std::uint32_t> groups_;
  std::vector<std::uint32_t> slot_ports_;  // for waveforms: each lane's port in its group
  MemoryCounters counters_;
  AccessObserver* observer_ = nullptr;
  bool traced_ = false;
};

}  // namespace mmsim
