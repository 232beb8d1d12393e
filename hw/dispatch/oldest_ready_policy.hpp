// Asynchronous: the unit that has been ready longest goes (ties: the lowest number).
#pragma once

#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "hw/dispatch/dispatch_policy.hpp"

namespace mmsim {

class OldestReadyPolicy final : public DispatchPolicy {
 public:
  explicit OldestReadyPolicy(const PolicyContext&) {}
  void ready(UnitId unit, Cycle since) override { queue_.emplace(since, unit); }
  UnitId choose(Cycle) override {
    if (queue_.empty()) return kNoUnit;
    const UnitId u = queue_.top().second;
    queue_.pop();
    return u;
  }

 private:
  using Entry = std::pair<Cycle, UnitId>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue_;
};

}  // namespace mmsim
