#include "sw/planning/dmm_plan.hpp"

#include <limits>

#include <fmt/format.h>

#include "sw/planning/errors.hpp"
#include "sw/planning/permutation.hpp"

namespace mmsim::planning {

BipartiteMultigraph dmm_graph(std::span<const std::uint64_t> p, std::uint64_t w) {
  const std::uint64_t n = p.size();
  if (w == 0) throw PlanError("DMM plan: the width w must be at least 1");
  if (w > std::numeric_limits<std::uint32_t>::max())
    throw PlanError(fmt::format("DMM plan: width w = {} is too large (at most 2^32-1)", w));
  if (n % w != 0) {
    const std::uint64_t below = n / w * w;
    throw PlanError(fmt::format(
        "DMM plan: n = {} is not a multiple of w = {} (the plan moves n/w full warps); the "
        "nearest valid sizes are {} and {}",
        n, w, below, below + w));
  }
  if (n >= std::numeric_limits<std::uint32_t>::max())
    throw PlanError(fmt::format("DMM plan: n = {} is too large (at most 2^32-2)", n));
  BipartiteMultigraph g(static_cast<std::uint32_t>(w));
  g.u.resize(n);
  g.v.resize(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    g.u[i] = static_cast<std::uint32_t>(i % w);
    g.v[i] = static_cast<std::uint32_t>(p[i] % w);
  }
  return g;
}

DmmPlan plan_dmm(std::span<const std::uint64_t> p, std::uint64_t w,
                 const ColoringOptions& options) {
  const BipartiteMultigraph g = dmm_graph(p, w);
  validate_permutation(p);
  const EdgeColoring coloring = color_edges(g, options);
  DmmPlan plan;
  plan.n = p.size();
  plan.w = w;
  plan.algorithm = coloring.algorithm;
  plan.source.resize(plan.n);
  plan.destination.resize(plan.n);
  for (std::uint64_t i = 0; i < plan.n; ++i) {
    const std::uint64_t k = std::uint64_t{coloring.color[i]} * w + i % w;
    plan.source[k] = i;
    plan.destination[k] = p[i];
  }
  return plan;
}

ColoringCheck check_dmm_plan(const DmmPlan& plan, std::span<const std::uint64_t> p) {
  auto fail = [](std::string message) { return ColoringCheck{false, std::move(message)}; };
  const std::uint64_t n = plan.n, w = plan.w;
  if (n != p.size())
    return fail(fmt::format("plan is for n = {}, the permutation has {} elements", n, p.size()));
  if (w == 0 || n % w != 0) return fail(fmt::format("plan has width {} not dividing n = {}", w, n));
  if (plan.source.size() != n || plan.destination.size() != n)
    return fail(fmt::format("plan holds {} sources and {} destinations, expected {}",
                            plan.source.size(), plan.destination.size(), n));
  constexpr std::uint64_t kUnset = std::numeric_limits<std::uint64_t>::max();
  std::vector<std::uint64_t> step_of(n, kUnset);
  std::vector<std::uint64_t> read_bank(w, kUnset), write_bank(w, kUnset);
  for (std::uint64_t c = 0; c < n / w; ++c) {
    for (std::uint64_t j = 0; j < w; ++j) {
      const std::uint64_t s = plan.source[c * w + j];
      const std::uint64_t d = plan.destination[c * w + j];
      if (s >= n) return fail(fmt::format("colour {} lane {}: source {} out of range", c, j, s));
      if (step_of[s] != kUnset)
        return fail(fmt::format("source {} appears twice (colours {} and {})", s, step_of[s], c));
      step_of[s] = c;
      if (d != p[s])
        return fail(fmt::format("colour {} lane {}: source {} goes to {} but P({}) = {}", c, j, s,
                                d, s, p[s]));
      if (read_bank[s % w] == c)
        return fail(fmt::format("colour {}: read bank conflict, two sources in bank {}", c, s % w));
      read_bank[s % w] = c;
      if (write_bank[d % w] == c)
        return fail(
            fmt::format("colour {}: write bank conflict, two destinations in bank {}", c, d % w));
      write_bank[d % w] = c;
    }
  }
  return {};  // n distinct sources in range: every source exactly once
}

}  // namespace mmsim::planning
