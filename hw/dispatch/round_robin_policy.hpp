// The synchronous machines (Nakano 2012; Nakano and Matsumae 2013): the units that reach a
// memory keep a fixed cyclic turn there. A unit that has finished, waits at a barrier, or is
// ready for another memory is passed over; a unit still waiting for its previous request holds
// the turn and the MMU idles until it can go. After a dispatch the turn passes on.
#pragma once

#include "hw/dispatch/dispatch_policy.hpp"

namespace mmsim {

class RoundRobinPolicy final : public DispatchPolicy {
 public:
  explicit RoundRobinPolicy(const PolicyContext& context);
  void ready(UnitId, Cycle) override {}
  UnitId choose(Cycle now) override;
  bool keeps_ready_set() const override { return false; }

 private:
  // The next present unit at or after u in the cyclic order of the units reaching this memory.
  std::size_t next_present(std::size_t u) const {
    const std::size_t next = present_.find_next(u);
    if (next < end_) return next;
    const std::size_t wrapped = present_.find_next(first_);
    return wrapped < end_ ? wrapped : DynamicBitset::npos;
  }

  const std::vector<WarpUnit*>& units_;
  const DynamicBitset& present_;
  MemoryId port_;
  std::size_t first_;
  std::size_t end_;
  std::size_t turn_;
};

}  // namespace mmsim
