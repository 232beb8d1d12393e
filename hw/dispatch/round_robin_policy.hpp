// The synchronous machines of seeds 000/001/002: units keep a fixed cyclic turn. A unit that
// has finished or waits at the barrier is skipped; a unit still waiting for its previous request
// holds the turn and the MMU idles until it can go. After a dispatch the turn passes on.
#pragma once

#include "hw/dispatch/dispatch_policy.hpp"

namespace mmsim {

class RoundRobinPolicy final : public DispatchPolicy {
 public:
  explicit RoundRobinPolicy(const PolicyContext& context);
  void ready(UnitId unit, Cycle since) override;
  UnitId choose(Cycle now) override;
  bool any_ready() const override { return ready_ > 0; }

 private:
  const std::vector<WarpUnit*>& units_;
  const DynamicBitset& present_;
  MemoryId port_;
  std::size_t turn_ = 0;
  std::size_t ready_ = 0;
};

}  // namespace mmsim
