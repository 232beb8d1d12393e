#include "hw/dispatch/round_robin_policy.hpp"

#include "hw/pe/warp_unit.hpp"

namespace mmsim {

RoundRobinPolicy::RoundRobinPolicy(const PolicyContext& context)
    : units_(context.units), present_(context.present), port_(context.port) {}

void RoundRobinPolicy::ready(UnitId, Cycle) { ++ready_; }

UnitId RoundRobinPolicy::choose(Cycle) {
  std::size_t u = present_.find_cyclic(turn_);
  for (std::size_t seen = 0; u != DynamicBitset::npos && seen < present_.count(); ++seen) {
    const WarpUnit& unit = *units_[u];
    if (unit.state() != UnitState::ready) return kNoUnit;  // it holds the turn
    if (unit.target() == port_) {
      turn_ = (u + 1) % units_.size();
      --ready_;
      return static_cast<UnitId>(u);
    }
    u = present_.find_cyclic((u + 1) % units_.size());  // its turn is at another memory
  }
  return kNoUnit;
}

}  // namespace mmsim
