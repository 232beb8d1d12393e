// The dispatcher's calendar of unit resumptions. Every wake lies less than `span` cycles after
// the current step, so a ring of buckets indexed by time mod span holds them all, and finding
// the next one skips idle cycles a machine word at a time.
#pragma once

#include <bit>
#include <vector>

#include "hw/dynamic_bitset.hpp"
#include "hw/errors.hpp"
#include "hw/types.hpp"

namespace mmsim {

class WakeQueue {
 public:
  // `span`: one more than the longest delay between a step and a wake it schedules.
  explicit WakeQueue(Cycle span)
      : mask_(std::bit_ceil(std::max<Cycle>(span, 2)) - 1),
        buckets_(mask_ + 1),
        heads_(mask_ + 1, 0),
        nonempty_(mask_ + 1) {}

  bool empty() const { return size_ == 0; }
  // Called at the start of every step: no wake is earlier than `now`.
  void advance(Cycle now) { now_ = now; }

  void push(Cycle time, UnitId unit) {
    if (time < now_ || time - now_ > mask_)
      throw SimulationError("internal: wake at " + std::to_string(time) + " outside the calendar");
    const std::size_t b = time & mask_;
    buckets_[b].push_back(unit);
    nonempty_.set(b);
    ++size_;
  }
  // Time of the earliest wake (the queue must not be empty).
  Cycle next_time() const {
    const std::size_t from = now_ & mask_;
    const std::size_t b = nonempty_.find_cyclic(from);
    return now_ + ((b - from) & mask_);
  }
  // Removes and returns the earliest wake, in push order among equal times.
  UnitId pop() {
    const std::size_t b = next_time() & mask_;
    std::vector<UnitId>& bucket = buckets_[b];
    const UnitId unit = bucket[heads_[b]++];
    if (heads_[b] == bucket.size()) {
      bucket.clear();
      heads_[b] = 0;
      nonempty_.reset(b);
    }
    --size_;
    return unit;
  }

 private:
  Cycle mask_;
  std::vector<std::vector<UnitId>> buckets_;
  std::vector<std::size_t> heads_;
  DynamicBitset nonempty_;
  std::size_t size_ = 0;
  Cycle now_ = 0;
};

}  // namespace mmsim
