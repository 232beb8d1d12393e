// The barrier unit (syncthreads, seed 001): a warp reaches the barrier once its previous request
// has completed; when every warp that has not finished its program waits there, all are
// released at the time the last one came (or the last other one finished) + barrier_latency.
#pragma once

#include <optional>
#include <systemc>
#include <vector>

#include "hw/support/types.hpp"

namespace mmsim {

class BarrierUnit : public sc_core::sc_module {
 public:
  BarrierUnit(const sc_core::sc_module_name& name, std::uint64_t warps, Cycle latency);

  void arrive(WarpId warp, Cycle t);
  // The warp's program has ended: the barrier no longer waits for it.
  void leave(WarpId warp, Cycle t);
  // If every unfinished warp waits, opens the barrier: returns the release time; released()
  // then lists the warps let through.
  std::optional<Cycle> open() {
    if (waiting_.empty() || waiting_.size() != running_) return std::nullopt;
    return release();
  }
  const std::vector<WarpId>& released() const { return released_; }

  std::uint64_t steps() const { return steps_; }
  std::uint64_t waiting() const { return waiting_.size(); }
  std::uint64_t running() const { return running_; }

  void trace(sc_core::sc_trace_file* file);
  void update_trace();

 private:
  Cycle release();

  std::uint64_t running_;  // warps that have not finished
  Cycle latency_;
  Cycle last_event_ = 0;
  std::vector<WarpId> waiting_;
  std::vector<WarpId> released_;
  std::uint64_t steps_ = 0;
  std::uint64_t trace_waiting_ = 0;
  std::uint64_t trace_steps_ = 0;
};

}  // namespace mmsim
