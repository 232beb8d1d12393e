// The part of an MMU that cuts a dispatch into stage groups, as a module: the request packing
// unit of the DMM family (Nakano and Matsumae 2013, Fig. 1 (B)), the coalescer of the UMM, the
// serializer of the BPRAM. Its logic is the plain StageSplitter that the MMU calls on its hot path
// (and mmsim congestion calls directly); the module gives it its place in the hierarchy and shows
// in waveforms what it packed: the dispatch accepted this cycle, its stage groups, its distinct
// requests, and per bank how many of them go to that bank (the busiest bank sets the stages). The
// coalescer also shows the address groups a dispatch touches: the row of each stage group as it
// enters the pipeline, one per cycle (k rows: k stages), and where banks have several ports
// (machine.ports) the row each port takes (port j's under `port_j`).
#pragma once

#include <memory>
#include <systemc>
#include <vector>

#include "hw/mmu/mmu_pipeline.hpp"
#include "hw/mmu/stage_splitter.hpp"
#include "hw/support/traced_value.hpp"
#include "hw/support/tracer.hpp"

namespace mmsim {

class SplitterUnit : public sc_core::sc_module {
 public:
  SplitterUnit(const sc_core::sc_module_name& name, std::unique_ptr<StageSplitter> logic);

  StageSplitter& logic() { return *logic_; }

  // Returns whether any of its signals is traced.
  bool trace(Tracer& tracer);
  // Shows `packed` (the dispatch whose first group enters at t), or nothing, and the stage group
  // of `entering` (the dispatch with a group entering at t) that enters.
  void update_trace(const MmuPipeline::InFlight* packed, const MmuPipeline::InFlight* entering,
                    Cycle t);

 private:
  std::unique_ptr<StageSplitter> logic_;
  bool valid_ = false;
  TracedValue stages_{32};
  TracedValue requests_{32};
  std::vector<TracedValue> load_;  // per bank
  std::vector<unsigned> counts_;   // per bank, for load_
  // Where its stage groups are address groups (the coalescer): per port, the row entering.
  struct EntryRow {
    bool valid = false;
    TracedValue row{32};
  };
  std::vector<EntryRow> entry_rows_;
};

}  // namespace mmsim
