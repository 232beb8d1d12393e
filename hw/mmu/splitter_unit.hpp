// The part of an MMU that cuts a dispatch into stage groups, as a module: the request packing
// unit of the DMM family (seed 002, Fig. 1 (B)), the coalescer of the UMM, the serializer of
// the BPRAM. Its logic is the plain StageSplitter that the MMU calls on its hot path (and mmsim
// congestion calls directly); the module gives it its place in the hierarchy and shows in
// waveforms what it packed: the dispatch accepted this cycle, its stage groups, its distinct
// requests, and per bank how many of them go to that bank (the busiest bank sets the stages).
#pragma once

#include <memory>
#include <systemc>
#include <vector>

#include "hw/mmu/mmu_pipeline.hpp"
#include "hw/mmu/stage_splitter.hpp"

namespace mmsim {

class SplitterUnit : public sc_core::sc_module {
 public:
  SplitterUnit(const sc_core::sc_module_name& name, std::unique_ptr<StageSplitter> logic);

  StageSplitter& logic() { return *logic_; }

  void trace(sc_core::sc_trace_file* file);
  // Shows `packed` (the dispatch whose first group enters this cycle), or nothing.
  void update_trace(const MmuPipeline::InFlight* packed);

 private:
  std::unique_ptr<StageSplitter> logic_;
  bool valid_ = false;
  unsigned stages_ = 0;
  unsigned requests_ = 0;
  std::vector<unsigned> load_;  // per bank
};

}  // namespace mmsim
