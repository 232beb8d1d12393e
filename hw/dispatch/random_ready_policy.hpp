// Asynchronous: a ready unit drawn uniformly at random (seeded: machine.seed).
#pragma once

#include <vector>

#include "hw/dispatch/dispatch_policy.hpp"
#include "hw/support/random.hpp"

namespace mmsim {

class RandomReadyPolicy final : public DispatchPolicy {
 public:
  // Each memory draws from its own stream.
  explicit RandomReadyPolicy(const PolicyContext& context) : random_(context.seed + context.port) {}
  void ready(UnitId unit, Cycle) override { ready_.push_back(unit); }
  UnitId choose(Cycle) override {
    if (ready_.empty()) return kNoUnit;
    const std::size_t i = uniform_below(random_, ready_.size());
    const UnitId u = ready_[i];
    ready_[i] = ready_.back();
    ready_.pop_back();
    return u;
  }

 private:
  Random random_;
  std::vector<UnitId> ready_;
};

}  // namespace mmsim
