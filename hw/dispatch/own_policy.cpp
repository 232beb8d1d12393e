#include "hw/dispatch/own_policy.hpp"

#include <algorithm>
#include <string>

#include "hw/support/errors.hpp"

namespace mmsim {
namespace {

std::string listed(std::span<const UnitId> units) {
  std::string text = "[";
  for (std::size_t i = 0; i < units.size() && i < 16; ++i)
    text += (i ? ", " : "") + std::to_string(units[i]);
  return text + (units.size() > 16 ? ", ...]" : "]");
}

}  // namespace

void OwnPolicyPort::refuse(const std::string& problem) const {
  refuse_(problem);
  throw SimulationError("the dispatch policy: " + problem);  // where refuse_ names no place
}

OwnPolicyPort::OwnPolicyPort(std::unique_ptr<OwnPolicy> policy, std::size_t units,
                             PolicyRefusal refuse)
    : policy_(std::move(policy)), since_(units, 0), refuse_(std::move(refuse)) {
  ready_.reserve(units);
  policy_->since_ = since_;
}

void OwnPolicyPort::ready(UnitId unit, Cycle since) {
  since_[unit] = since;
  ready_.insert(std::upper_bound(ready_.begin(), ready_.end(), unit), unit);
}

UnitId OwnPolicyPort::choose(Cycle now) {
  const UnitId u = policy_->choose(now, ready_);
  if (u == kNoUnit) {
    if (idle_from_ == kNever) idle_from_ = now;
    if (now - idle_from_ >= kLongestIdle)
      refuse("it idled (None) at every time unit from " + std::to_string(idle_from_) + " to " +
              std::to_string(now) + " with units " + listed(ready_) +
              " ready: the run would never end");
    return kNoUnit;
  }
  idle_from_ = kNever;
  const auto it = std::lower_bound(ready_.begin(), ready_.end(), u);
  if (it == ready_.end() || *it != u)
    refuse("it chose unit " + std::to_string(u) + " at time " + std::to_string(now) +
            ", which is not ready (ready: " + listed(ready_) + ")");
  ready_.erase(it);
  return u;
}

}  // namespace mmsim
