// Banks of k ports (machine.ports, docs/semantics.md §10): each bank serves up to k requests per
// time unit, so the stage groups of a splitter with one port per bank go through the pipeline
// k at a time. Group g of the splitter it wraps (the g-th request of every bank on the DMM
// family, the g-th address group touched on the UMM, requests g*w .. g*w + w - 1 on the BPRAM)
// becomes port g mod k of stage group g div k: a dispatch of c groups takes ceil(c / k) stages.
// Machines with one port per bank never see this class: their splitter is the plain one.
#pragma once

#include <memory>

#include "hw/mmu/stage_splitter.hpp"

namespace mmsim {

class PortedBanks final : public StageSplitter {
 public:
  // `one_port`: the splitter of the same memory with one port per bank; `ports` >= 2.
  PortedBanks(std::unique_ptr<StageSplitter> one_port, unsigned ports);

  unsigned stages(std::span<const Address> cells) override {
    return stage_groups(one_port_->stages(cells));
  }
  unsigned count_stages(std::span<const Address> cells, unsigned active) override {
    return stage_groups(one_port_->count_stages(cells, active));
  }
  unsigned count_consecutive_stages(Address first_cell, unsigned lanes) override {
    return stage_groups(one_port_->count_consecutive_stages(first_cell, lanes));
  }
  RequestSpread spread() const override { return one_port_->spread(); }
  unsigned assign_groups(std::span<const Address> cells, std::span<std::uint32_t> groups) override;
  unsigned assign_slots(std::span<const Address> cells, std::span<std::uint32_t> groups,
                        std::span<std::uint32_t> ports) override;
  unsigned ports() const override { return ports_; }
  bool rows() const override { return one_port_->rows(); }
  std::string name() const override { return one_port_->name(); }

 private:
  // The stage groups that `groups` groups of one port take, k at a time.
  unsigned stage_groups(unsigned groups) const { return (groups + ports_ - 1) / ports_; }

  std::unique_ptr<StageSplitter> one_port_;
  unsigned ports_;
};

}  // namespace mmsim
