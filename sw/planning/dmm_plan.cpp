#include "sw/planning/dmm_plan.hpp"

#include <algorithm>
#include <bit>
#include <limits>

#include <fmt/format.h>

#include "hw/support/divider.hpp"
#include "sw/planning/errors.hpp"
#include "hw/support/huge_pages.hpp"
#include "sw/planning/matching_decomposition.hpp"
#include "sw/planning/permutation.hpp"

namespace mmsim::planning {

namespace {

// The bank of an address, x mod w: a mask for w a power of two (the usual widths), else an
// exact division by multiplication. Separate types, so that the hot loops carry no test.
struct MaskBanks {
  std::uint64_t mask;
  std::uint32_t operator()(std::uint64_t x) const { return static_cast<std::uint32_t>(x & mask); }
};
struct DividedBanks {
  Divider w;
  std::uint32_t operator()(std::uint64_t x) const { return w.remainder(x); }
};

// Calls f with the bank function for w.
template <class F>
decltype(auto) with_banks(std::uint32_t w, F&& f) {
  if (std::has_single_bit(w)) return f(MaskBanks{w - 1u});
  return f(DividedBanks{Divider(w)});
}

// The DMM graph of P without its arrays: edge i joins i mod w and P(i) mod w.
template <class Banks>
struct DmmEdges {
  std::span<const std::uint64_t> p;
  Banks bank;
  std::size_t size() const noexcept { return p.size(); }
  std::uint32_t a(std::size_t i) const noexcept { return bank(i); }
  std::uint32_t b(std::size_t i) const noexcept { return bank(p[i]); }
};

// Puts source i, coloured c, at lane `lane` of colour step c.
struct ScheduleWriter {
  std::uint32_t* source;
  std::uint64_t w;
  void operator()(std::size_t i, std::uint32_t lane, std::uint32_t c) const {
    source[c * w + lane] = static_cast<std::uint32_t>(i);
  }
  const void* target(std::uint32_t lane, std::uint32_t c) const { return source + c * w + lane; }
};

// The DMM graph's multiplicity matrix, counted while checking that P is a permutation in the
// same pass: n destinations below n are a permutation exactly when they mark all n bits of a
// bitmap (marking needs no test, so the random accesses overlap; the bitmap's word for a
// destination further on is prefetched). If P is not one, validate_permutation names the first
// problem. A permutation with w | n makes the graph n/w-regular.
template <class Banks>
std::vector<std::uint32_t> checked_dmm_matrix(std::span<const std::uint64_t> p, std::uint32_t w,
                                              Banks bank) {
  const std::uint64_t n = p.size();
  std::vector<std::uint32_t> count(std::size_t{w} * w, 0);
  std::vector<std::uint64_t> seen((n + 63) / 64, 0);
  constexpr std::uint64_t kAhead = 32;
  for (std::uint64_t base = 0; base < n; base += w) {
    for (std::uint32_t lane = 0; lane < w; ++lane) {
      const std::uint64_t i = base + lane;
      if (i + kAhead < n) __builtin_prefetch(&seen[std::min(p[i + kAhead], n - 1) / 64], 1);
      const std::uint64_t d = p[i];
      if (d >= n) [[unlikely]]
        validate_permutation(p);
      seen[d / 64] |= std::uint64_t{1} << (d % 64);
      ++count[std::size_t{lane} * w + bank(d)];
    }
  }
  std::uint64_t marked = 0;
  for (const std::uint64_t word : seen) marked += static_cast<std::uint64_t>(std::popcount(word));
  if (marked != n) validate_permutation(p);
  return count;
}

// Colour steps written row by row, for many entries (w >= 128): every entry (lane a, bank b) of the
// multiplicity matrix lists its sources in order, each as the gap from the previous one's row i / w
// (2 bytes), and every peeled matching fills its colour steps at once, lane a taking the next
// source of entry (a, mate(a)). The schedule is written in order and the lists are read as w
// streams per peel, where a hand-back pass would scatter each source to its step. Each entry's
// sources get its colours in the same order as from the colouring's hand-back pass: the schedule is
// the same. Returns false, having written nothing, if a gap does not fit 16 bits (never with D <=
// 2^16; for larger D only where an entry's sources lie 2^16 rows or more apart).
template <class Banks>
bool write_rows_by_peels(std::span<const std::uint64_t> p, std::uint32_t w, Banks bank,
                         std::vector<std::uint32_t>& count, std::uint32_t* source) {
  const std::uint64_t n = p.size();
  const auto degree = static_cast<std::uint32_t>(n / w);
  const std::size_t entries = std::size_t{w} * w;
  struct Cursor {
    std::uint32_t next;  // where the entry's list goes on
    std::uint32_t row;   // the row of its source last listed or read
  };
  std::vector<Cursor> cursor(entries);
  {
    std::uint32_t acc = 0;
    for (std::size_t k = 0; k < entries; ++k) {
      cursor[k] = Cursor{acc, 0};
      acc += count[k];
    }
  }
  HugePageArray<std::uint16_t> gaps(n);
  std::uint32_t wide = 0;
  for (std::uint64_t base = 0, row = 0; base < n; base += w, ++row) {
    for (std::uint32_t lane = 0; lane < w; ++lane) {
      Cursor& c = cursor[std::size_t{lane} * w + bank(p[base + lane])];
      const auto gap = static_cast<std::uint32_t>(row - c.row);
      wide |= gap;
      gaps[c.next++] = static_cast<std::uint16_t>(gap);
      c.row = static_cast<std::uint32_t>(row);
    }
  }
  if (wide > 0xffff) return false;
  for (std::size_t k = 0; k < entries; ++k) cursor[k] = Cursor{cursor[k].next - count[k], 0};
  const std::uint16_t* g = gaps.data();
  peel_matchings(
      w, degree, std::move(count),
      [&](std::uint32_t start, std::uint32_t length, const std::uint32_t* mate) {
        constexpr std::uint32_t kAhead = 8;
        for (std::uint64_t c = start; c < start + length; ++c) {
          std::uint32_t* step = source + c * w;
          for (std::uint32_t a = 0; a < w; ++a) {
            if (a + kAhead < w)
              __builtin_prefetch(&g[cursor[std::size_t{a + kAhead} * w + mate[a + kAhead]].next]);
            Cursor& entry = cursor[std::size_t{a} * w + mate[a]];
            entry.row += g[entry.next++];
            step[a] = entry.row * w + a;
          }
        }
      });
  return true;
}

ColoringAlgorithm resolve(ColoringAlgorithm algorithm, std::uint64_t n, std::uint64_t w) {
  if (algorithm != ColoringAlgorithm::automatic) return algorithm;
  return choose_coloring_algorithm(static_cast<std::uint32_t>(w), n / w);
}

}  // namespace

void check_dmm_size(std::uint64_t n, std::uint64_t w) {
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
}

BipartiteMultigraph dmm_graph(std::span<const std::uint64_t> p, std::uint64_t w) {
  const std::uint64_t n = p.size();
  check_dmm_size(n, w);
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
  check_dmm_size(p.size(), w);
  DmmPlan plan;
  plan.n = p.size();
  plan.w = w;
  plan.algorithm = resolve(options.algorithm, plan.n, w);
  const auto m = static_cast<std::uint32_t>(w);
  if (plan.algorithm == ColoringAlgorithm::matching_decomposition) {
    if (std::uint64_t{m} * m > kMaxMatrixEntries) throw_matrix_too_large(m);
    const std::uint64_t degree = plan.n / w;
    with_banks(m, [&](auto bank) {
      std::vector<std::uint32_t> count = checked_dmm_matrix(p, m, bank);
      resize_on_huge_pages(plan.source, plan.n);
      // Few entries (w < 128): the hand-back pass's writes stay near a few fronts that sweep
      // the schedule, and it makes one pass less.
      const bool by_rows = std::uint64_t{m} * m >= kManyEntries;
      if (!by_rows || !write_rows_by_peels(p, m, bank, count, plan.source.data()))
        color_from_matrix(m, static_cast<std::uint32_t>(degree), DmmEdges<decltype(bank)>{p, bank},
                          std::move(count), ScheduleWriter{plan.source.data(), w});
    });
    return plan;
  }
  validate_permutation(p);
  resize_on_huge_pages(plan.source, plan.n);
  std::uint32_t* source = plan.source.data();
  ColoringOptions chosen = options;
  chosen.algorithm = plan.algorithm;
  const EdgeColoring coloring = color_edges(dmm_graph(p, w), chosen);
  for (std::uint64_t i = 0; i < plan.n; ++i)
    source[std::uint64_t{coloring.color[i]} * w + i % w] = static_cast<std::uint32_t>(i);
  return plan;
}

std::uint64_t dmm_plan_bytes(std::uint64_t n, std::uint64_t w, ColoringAlgorithm algorithm) {
  if (w == 0 || w > std::numeric_limits<std::uint32_t>::max()) return 0;
  const auto m = static_cast<std::uint32_t>(w);
  const std::uint64_t plan = 4 * n;
  const std::uint64_t validation = n / 8 + 8;  // one bit per destination
  const ColoringAlgorithm chosen = resolve(algorithm, n, w);
  // Many entries: the lists of gaps (2 bytes per element), the matrix and its cursors, or where
  // a gap is too wide the colouring's hand-back pass; few: the hand-back pass.
  const std::uint64_t entries = std::uint64_t{m} * m;
  const std::uint64_t rows = entries >= kManyEntries ? 2 * n + 36 * entries : 0;
  if (chosen == ColoringAlgorithm::matching_decomposition)
    return plan + validation + std::max(rows, matching_decomposition_bytes(m, n));
  return plan + validation + 8 * n + coloring_bytes(m, n, chosen);  // the graph, then colouring
}

ColoringCheck check_dmm_plan(const DmmPlan& plan, std::span<const std::uint64_t> p) {
  auto fail = [](std::string message) { return ColoringCheck{false, std::move(message)}; };
  const std::uint64_t n = plan.n, w = plan.w;
  if (n != p.size())
    return fail(fmt::format("plan is for n = {}, the permutation has {} elements", n, p.size()));
  if (w == 0 || n % w != 0) return fail(fmt::format("plan has width {} not dividing n = {}", w, n));
  if (plan.source.size() != n)
    return fail(fmt::format("plan holds {} sources, expected {}", plan.source.size(), n));
  constexpr std::uint64_t kUnset = std::numeric_limits<std::uint64_t>::max();
  std::vector<bool> scheduled(n, false);
  std::vector<std::uint64_t> read_bank(w, kUnset), write_bank(w, kUnset);
  const Divider bank(static_cast<std::uint32_t>(w));
  for (std::uint64_t c = 0; c < n / w; ++c) {
    for (std::uint64_t j = 0; j < w; ++j) {
      const std::uint64_t s = plan.source[c * w + j];
      if (s >= n) return fail(fmt::format("colour {} lane {}: source {} out of range", c, j, s));
      if (scheduled[s]) return fail(fmt::format("source {} appears twice (in colour {})", s, c));
      scheduled[s] = true;
      const std::uint64_t d = p[s];
      const std::uint32_t read = bank.remainder(s), write = bank.remainder(d);
      if (read_bank[read] == c)
        return fail(fmt::format("colour {}: read bank conflict, two sources in bank {}", c, read));
      read_bank[read] = c;
      if (write_bank[write] == c)
        return fail(
            fmt::format("colour {}: write bank conflict, two destinations in bank {}", c, write));
      write_bank[write] = c;
    }
  }
  return {};  // n distinct sources in range: every source exactly once
}

}  // namespace mmsim::planning
