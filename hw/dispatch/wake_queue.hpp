// The dispatcher's calendar of unit resumptions. Every wake lies less than `span` cycles after
// the current step, so a ring of buckets indexed by time mod span holds them all, and finding
// the next one skips idle cycles a machine word at a time. A unit waits for at most one wake,
// so each bucket is a list threaded through the units (no allocation, a few cache lines).
#pragma once

#include <bit>
#include <vector>

#include "hw/support/dynamic_bitset.hpp"
#include "hw/support/errors.hpp"
#include "hw/support/types.hpp"

namespace mmsim {

class WakeQueue {
 public:
  // `span`: one more than the longest delay between a step and a wake it schedules.
  WakeQueue(Cycle span, std::size_t units)
      : mask_(std::bit_ceil(std::max<Cycle>(span, 2)) - 1),
        head_(mask_ + 1, kNoUnit),
        tail_(mask_ + 1, kNoUnit),
        next_(units, kNoUnit),
        nonempty_(mask_ + 1) {}

  bool empty() const { return size_ == 0; }
  // Called at the start of every step: no wake is earlier than `now`.
  void advance(Cycle now) { now_ = now; }

  void push(Cycle time, UnitId unit) {
    if (time < now_ || time - now_ > mask_)
      throw SimulationError("internal: wake at " + std::to_string(time) + " outside the calendar");
    const std::size_t b = time & mask_;
    next_[unit] = kNoUnit;
    if (head_[b] == kNoUnit) {
      head_[b] = unit;
      nonempty_.set(b);
    } else {
      next_[tail_[b]] = unit;
    }
    tail_[b] = unit;
    ++size_;
  }
  // Time of the earliest wake (the queue must not be empty).
  Cycle next_time() const {
    const std::size_t from = now_ & mask_;
    const std::size_t b = nonempty_.find_cyclic(from);
    return now_ + ((b - from) & mask_);
  }
  // Whether a wake at the current step's time is waiting.
  bool due() const { return head_[now_ & mask_] != kNoUnit; }
  // Removes and returns a wake at the current step's time, in push order.
  UnitId pop_due() {
    const std::size_t b = now_ & mask_;
    const UnitId unit = head_[b];
    head_[b] = next_[unit];
    if (head_[b] == kNoUnit) nonempty_.reset(b);
    --size_;
    return unit;
  }

 private:
  Cycle mask_;
  std::vector<UnitId> head_;  // per bucket: first and last unit, kNoUnit when empty
  std::vector<UnitId> tail_;
  std::vector<UnitId> next_;  // per unit: the next unit in its bucket
  DynamicBitset nonempty_;
  std::size_t size_ = 0;
  Cycle now_ = 0;
};

}  // namespace mmsim
