// Asynchronous: the ready unit with the lowest number goes.
#pragma once

#include "hw/dispatch/dispatch_policy.hpp"

namespace mmsim {

class LowestReadyPolicy final : public DispatchPolicy {
 public:
  explicit LowestReadyPolicy(const PolicyContext& context) : ready_(context.units.size()) {}
  void ready(UnitId unit, Cycle) override { ready_.set(unit); }
  UnitId choose(Cycle) override {
    const std::size_t u = ready_.find_next(0);
    if (u == DynamicBitset::npos) return kNoUnit;
    ready_.reset(u);
    return static_cast<UnitId>(u);
  }

 private:
  DynamicBitset ready_;
};

}  // namespace mmsim
