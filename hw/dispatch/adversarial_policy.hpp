// Asynchronous and adversarial ("laggard last"). The laggard, the ready unit that has issued
// the fewest instructions (ties: the lowest number), is dispatched only when no other unit is
// ready; the others go oldest-ready first.
//
// Why it delays a run: in SIMT code every warp runs the same program, so the unit that has
// issued the fewest instructions has the most work left, and in the papers' reduction trees warp
// 0 has the most of all. Serving the others fairly makes them finish together, leaving the
// laggard's whole chain of dependent requests to run alone on an empty pipeline at the end of
// each phase (between barriers). The rule is cheap: two ordered sets of the ready units, by
// instructions issued (which does not change while a unit waits) and by the time it got ready.
#pragma once

#include <set>
#include <utility>
#include <vector>

#include "hw/dispatch/dispatch_policy.hpp"
#include "hw/pe/warp_unit.hpp"

namespace mmsim {

class AdversarialPolicy final : public DispatchPolicy {
 public:
  explicit AdversarialPolicy(const PolicyContext& context)
      : units_(context.units), issued_(context.units.size()) {}

  void ready(UnitId unit, Cycle since) override {
    std::uint64_t issued = 0;
    for (const Warp& warp : units_[unit]->warps()) issued += warp.pc();
    issued_[unit] = issued;
    by_progress_.emplace(issued, unit);
    by_age_.emplace(since, unit);
  }

  UnitId choose(Cycle) override {
    if (by_age_.empty()) return kNoUnit;
    const UnitId laggard = by_progress_.begin()->second;
    auto it = by_age_.begin();
    if (it->second == laggard && by_age_.size() > 1) ++it;
    const UnitId u = it->second;
    by_age_.erase(it);
    by_progress_.erase({issued_[u], u});
    return u;
  }

 private:
  const std::vector<WarpUnit*>& units_;
  std::vector<std::uint64_t> issued_;  // of each ready unit, when it got ready
  std::set<std::pair<std::uint64_t, UnitId>> by_progress_;
  std::set<std::pair<Cycle, UnitId>> by_age_;
};

}  // namespace mmsim
