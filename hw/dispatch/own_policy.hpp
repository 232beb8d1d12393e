// Dispatch policies of one's own (docs/own_policies.md): a Python class deriving mmsim.Policy
// or a C++ plugin's policy. Either is an OwnPolicy: one object per memory, asked whenever the
// memory can accept a dispatch and units are ready for it, with the ready units' numbers in
// increasing order; it answers one of them, or kNoUnit to leave the memory idle for this time
// unit (it is asked again at the next). OwnPolicyPort keeps the ready set and the times the
// units became ready in C++, so that a choice costs one call and no bookkeeping of the user's.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "hw/dispatch/dispatch_policy.hpp"

namespace mmsim {

class OwnPolicy {
 public:
  virtual ~OwnPolicy() = default;
  // The unit to dispatch at `time`: one of `ready` (increasing, never empty), or kNoUnit.
  virtual UnitId choose(Cycle time, std::span<const UnitId> ready) = 0;
  // The time `unit` became ready (for a unit now ready; a unit's last time otherwise).
  Cycle since(UnitId unit) const { return since_[unit]; }

 protected:
  // Every unit's time of becoming ready, by unit number (a Python policy's view of it).
  std::span<const Cycle> since_times() const { return since_; }
  // Gives `inner`, a policy this one wraps, the same times.
  void lend_since(OwnPolicy& inner) const { inner.since_ = since_; }

 private:
  friend class OwnPolicyPort;
  std::span<const Cycle> since_;
};

// What a policy of one's own is made for: one memory, the units that reach it, the machine's
// seed (machine.seed).
struct OwnPolicyArgs {
  MemoryId memory = 0;
  UnitId first = 0;  // the units first .. first + count - 1 reach it
  UnitId count = 0;
  UnitId units = 0;  // of the whole machine: unit numbers lie in 0 .. units - 1
  std::uint64_t seed = 1;
};

// Why a choice is refused: `problem` says what is wrong with the answer. It throws the error
// located at the user's code and the testbench key.
using PolicyRefusal = std::function<void(const std::string& problem)>;

class OwnPolicyPort final : public DispatchPolicy {
 public:
  // After this many time units in a row of idling with units ready, the policy is refused: the
  // run would otherwise never end.
  static constexpr Cycle kLongestIdle = Cycle{1} << 20;

  OwnPolicyPort(std::unique_ptr<OwnPolicy> policy, std::size_t units, PolicyRefusal refuse);
  void ready(UnitId unit, Cycle since) override;
  UnitId choose(Cycle now) override;
  bool asked_every_time_unit() const override { return true; }

 private:
  [[noreturn]] void refuse(const std::string& problem) const;

  std::unique_ptr<OwnPolicy> policy_;
  std::vector<UnitId> ready_;  // increasing
  std::vector<Cycle> since_;   // by unit
  PolicyRefusal refuse_;
  Cycle idle_from_ = kNever;  // the first of the time units it has idled in a row
};

}  // namespace mmsim
