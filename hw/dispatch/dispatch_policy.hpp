// How the dispatcher picks the next unit for an MMU (docs/semantics.md §4).
// One policy object serves one memory port; it is told which units became ready and asked,
// whenever the MMU can accept a dispatch, which unit goes (or that the MMU idles).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hw/support/dynamic_bitset.hpp"
#include "hw/support/types.hpp"

namespace mmsim {

class WarpUnit;

class DispatchPolicy {
 public:
  virtual ~DispatchPolicy() = default;
  // `unit` holds a memory instruction for this port since time `since` (<= now).
  virtual void ready(UnitId unit, Cycle since) = 0;
  // The unit to dispatch at `now` (it leaves the ready set), or kNoUnit to leave the MMU idle.
  // The dispatcher counts the ready units itself (told, not yet chosen), and asks only while
  // there are some.
  virtual UnitId choose(Cycle now) = 0;
  // Whether it keeps a set of the ready units (and so is told of each by ready()); round robin
  // walks the units present instead, and is not told.
  virtual bool keeps_ready_set() const { return true; }
  // Whether kNoUnit means "idle this time unit, ask again at the next" (a policy of one's own)
  // rather than "idle until something happens" (round robin, whose turn waits for an event).
  virtual bool asked_every_time_unit() const { return false; }
};

// What a policy may look at.
struct PolicyContext {
  const std::vector<WarpUnit*>& units;
  const DynamicBitset& present;  // units neither at a barrier nor finished
  MemoryId port;
  std::uint64_t seed;
  // The units that reach this memory: first, first + 1, ..., first + count - 1.
  UnitId first = 0;
  UnitId count = 0;
};

// One dispatch policy: its name (machine.dispatch), what it does, and how it is made (the
// built-ins: dispatch_policies.hpp; one's own: own_policy.hpp).
struct PolicyInfo {
  std::string name;
  std::string description;
  std::function<std::unique_ptr<DispatchPolicy>(const PolicyContext& context)> make;  // a port's
  std::string source{};  // a policy of one's own: its file or library ("" for the built-ins)
};

}  // namespace mmsim
