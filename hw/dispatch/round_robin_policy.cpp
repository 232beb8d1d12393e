#include "hw/dispatch/round_robin_policy.hpp"

#include "hw/pe/warp_unit.hpp"

namespace mmsim {

RoundRobinPolicy::RoundRobinPolicy(const PolicyContext& context)
    : units_(context.units),
      present_(context.present),
      port_(context.port),
      first_(context.first),
      end_(std::size_t{context.first} + context.count),
      turn_(context.first) {}

UnitId RoundRobinPolicy::choose(Cycle) {
  const std::size_t start = next_present(turn_);
  if (start == DynamicBitset::npos) return kNoUnit;
  std::size_t u = start;
  do {
    const WarpUnit& unit = *units_[u];
    if (unit.state() != UnitState::ready) return kNoUnit;  // it holds the turn
    if (unit.target() == port_) {
      turn_ = u + 1 == end_ ? first_ : u + 1;
      return static_cast<UnitId>(u);
    }
    u = next_present(u + 1 == end_ ? first_ : u + 1);  // its turn is at another memory
  } while (u != start);
  return kNoUnit;
}

}  // namespace mmsim
