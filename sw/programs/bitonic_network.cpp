#include "sw/programs/bitonic_network.hpp"

#include <algorithm>

namespace mmsim {
namespace {

// Comparator q of a step with distance j = 2^b: its lower key has q's bits, with a 0 inserted at
// bit b.
inline std::uint64_t lower_key(std::uint64_t q, unsigned b) {
  const std::uint64_t low = q & ((std::uint64_t{1} << b) - 1);
  return ((q >> b) << (b + 1)) | low;
}

// The lanes' comparators of one round: addresses (kInactive past the last comparator) and
// directions.
void comparator_lanes(const BitonicRun& run, const BitonicStep& step, std::uint64_t first,
                      KeyLayout layout, unsigned log_w, BitonicLanes& lanes) {
  const unsigned b = static_cast<unsigned>(std::countr_zero(step.j));
  const std::uint64_t comparators = run.keys / 2;
  for (std::size_t lane = 0; lane < lanes.lo.size(); ++lane) {
    const std::uint64_t q = first + lane;
    if (q >= comparators) {
      lanes.lo[lane] = lanes.hi[lane] = kInactive;
      continue;
    }
    const std::uint64_t lo = lower_key(q, b);
    lanes.lo[lane] = key_address(run.base, lo, layout, log_w);
    lanes.hi[lane] = key_address(run.base, lo + step.j, layout, log_w);
    lanes.ascending[lane] = ((run.offset + lo) >> step.k & 1) == 0;
  }
}

void compare_exchange(BitonicLanes& lanes) {
  for (std::size_t lane = 0; lane < lanes.lo.size(); ++lane) {
    const Word a = lanes.lo_value[lane];
    const Word b = lanes.hi_value[lane];
    const bool swap = lanes.ascending[lane] ? a > b : a < b;
    lanes.lo_value[lane] = swap ? b : a;
    lanes.hi_value[lane] = swap ? a : b;
  }
}

}  // namespace

std::vector<BitonicStep> bitonic_steps(unsigned first_phase, unsigned last_phase,
                                       std::uint64_t min_j, std::uint64_t max_j) {
  std::vector<BitonicStep> steps;
  for (unsigned k = first_phase; k <= last_phase; ++k)
    for (std::uint64_t j = std::uint64_t{1} << (k - 1); j >= 1; j /= 2)
      if (j >= min_j && j <= max_j) steps.push_back({k, j});
  return steps;
}

std::uint64_t bitonic_run_barriers(const std::vector<BitonicStep>& steps, unsigned w) {
  std::uint64_t barriers = 0;
  for (std::size_t s = 1; s < steps.size(); ++s)
    barriers += bitonic_barrier_between(steps[s - 1], steps[s], w);
  return barriers;
}

Task bitonic_run(Warp& warp, BitonicLanes& lanes, const BitonicRun& run, BarrierCount& barriers) {
  const unsigned w = warp.width();
  const unsigned log_w = static_cast<unsigned>(std::countr_zero(w));
  const std::uint64_t comparators = run.keys / 2;
  for (std::size_t s = 0; s < run.steps.size(); ++s) {
    const BitonicStep& step = run.steps[s];
    if (s > 0 && bitonic_barrier_between(run.steps[s - 1], step, w) && barriers.keep()) {
      if (run.scope == BarrierScope::grid)
        co_await warp.grid_sync();
      else
        co_await warp.sync();
    }
    const bool last = s + 1 == run.steps.size();
    for (std::uint64_t first = run.thread; first < comparators; first += run.threads) {
      comparator_lanes(run, step, first, run.layout, log_w, lanes);
      const auto lo = co_await warp.read(lanes.lo, run.space);
      std::copy(lo.begin(), lo.end(), lanes.lo_value.begin());
      const auto hi = co_await warp.read(lanes.hi, run.space);
      std::copy(hi.begin(), hi.end(), lanes.hi_value.begin());
      compare_exchange(lanes);
      if (last && run.output_layout != run.layout)
        comparator_lanes(run, step, first, run.output_layout, log_w, lanes);
      co_await warp.write(lanes.lo, lanes.lo_value, run.space);
      co_await warp.write(lanes.hi, lanes.hi_value, run.space);
    }
  }
}

}  // namespace mmsim
