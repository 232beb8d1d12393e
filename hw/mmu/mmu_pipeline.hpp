// The l-stage pipeline of an MMU. A dispatch accepted at time t occupies k stage groups that
// enter at t, t+1, ..., t+k-1; a group entering at e completes at e+l-1, so the dispatch
// completes at t+k+l-2: the one place this formula lives (completion()). Since every group takes the
// same time, completion order is entry order: the pipeline is a FIFO ring of the dispatches in
// flight, at most l+1 of them.
#pragma once

#include <systemc>
#include <vector>

#include "hw/support/traced_value.hpp"
#include "hw/support/tracer.hpp"
#include "hw/support/types.hpp"

namespace mmsim {

class WarpUnit;

class MmuPipeline : public sc_core::sc_module {
 public:
  // One request of a dispatch in flight, kept only when tracing (the waveforms show it).
  struct Slot {
    std::uint32_t group;
    std::uint32_t port;  // of its bank in its group (0 where banks have one port)
    std::uint32_t bank;
    Address address;
  };
  struct InFlight {
    WarpUnit* unit;
    Cycle entry;      // its first group enters
    unsigned stages;  // k
    std::vector<Slot> slots;
  };

  MmuPipeline(const sc_core::sc_module_name& name, unsigned latency);
  // The bytes the ring of a pipeline of `latency` stages takes (the memory estimate's).
  static std::uint64_t bytes(unsigned latency) {
    return (std::uint64_t{latency} + 2) * sizeof(InFlight);
  }

  unsigned latency() const { return latency_; }
  // When the first and the last group of `dispatch` complete.
  Cycle first_completion(const InFlight& dispatch) const { return dispatch.entry + latency_ - 1; }
  Cycle completion(const InFlight& dispatch) const {
    return first_completion(dispatch) + dispatch.stages - 1;
  }
  bool empty() const { return size_ == 0; }
  // Accepts a dispatch of `stages` groups whose first enters at `entry`.
  InFlight& push(WarpUnit* unit, Cycle entry, unsigned stages) {
    if (size_ == capacity_) grow();
    InFlight& slot = ring_[wrap(head_ + size_)];
    slot.unit = unit;
    slot.entry = entry;
    slot.stages = stages;
    slot.slots.clear();
    ++size_;
    return slot;
  }
  const InFlight& front() const { return ring_[head_]; }
  void pop() {
    head_ = wrap(head_ + 1);
    --size_;
  }
  // Calls f(in_flight) for every dispatch in flight, oldest first.
  template <class F>
  void for_each(F&& f) const {
    for (std::size_t i = 0; i < size_; ++i) f(ring_[wrap(head_ + i)]);
  }
  // Groups in the pipeline stages at time t (entered at or before t, not yet completed).
  unsigned occupancy(Cycle t) const;

  // Returns whether any of its signals is traced.
  bool trace(Tracer& tracer);
  // Sets the traced values for time t (group entering and completing, occupancy).
  void update_trace(Cycle t);

 private:
  // Doubles the ring (cannot happen with one dispatch per k cycles; kept safe).
  void grow();
  // A position of the ring, i < 2 * its size (no division on the hot path).
  std::size_t wrap(std::size_t i) const { return i < capacity_ ? i : i - capacity_; }

  unsigned latency_;
  std::vector<InFlight> ring_;
  std::size_t capacity_;  // ring_.size(), kept (the vector's size is a division)
  std::size_t head_ = 0;
  std::size_t size_ = 0;

  // A stage group as traced: its unit and its number in the dispatch (z while no group).
  struct GroupTrace {
    bool valid = false;
    TracedValue unit{32};
    TracedValue group{32};
    void set(bool is_valid, unsigned unit_id, unsigned index) {
      valid = is_valid;
      unit.set(is_valid, unit_id);
      group.set(is_valid, index);
    }
  };
  GroupTrace entering_;
  GroupTrace completing_;
  unsigned occupancy_ = 0;
};

}  // namespace mmsim
