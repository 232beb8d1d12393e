#include "sw/programs/reduction_program.hpp"

#include <cmath>

#include "hw/support/errors.hpp"
#include "sw/program/model_bounds.hpp"
#include "sw/program/word_arithmetic.hpp"
#include "sw/programs/reduction_counts.hpp"

namespace mmsim {

ReductionProgram::ReductionProgram(const ProgramArgs& args, std::string name,
                                   std::string threads_formula)
    : input_(args.params, args.base_dir),
      name_(std::move(name)),
      threads_formula_(std::move(threads_formula)) {}

std::uint64_t ReductionProgram::default_threads(const MachineConfig& machine) const {
  // When n does not fit, configure() says why; until then, any valid machine will do.
  return unfit(machine) ? machine.width : threads(machine);
}

void ReductionProgram::configure(const MachineConfig& machine) {
  if (const auto why = unfit(machine)) throw ParamError("n", *why);
  const std::uint64_t p = threads(machine);
  if (machine.threads != p)
    throw ConfigError(
        "threads", name_ + " uses p = " + threads_formula_ + " = " + std::to_string(p) +
                       " threads (Nakano 2012 (asynchronous), Table 1), not " +
                       std::to_string(machine.threads) + "; leave machine.threads out to get them");
  w_ = machine.width;
  l_ = machine.latency;
  next_free_ = 0;
  allocate(n());
  layout();
}

void ReductionProgram::initialize(Mmu& memory) {
  for (Address a = 0; a < n(); ++a) memory.poke(a, values_[a]);
}

Address ReductionProgram::allocate(std::uint64_t words) {
  const Address at = next_free_;
  next_free_ = (at + words + w_ - 1) / w_ * w_;
  return at;
}

std::vector<Region> ReductionProgram::tree_layout(Region leaves) {
  std::vector<Region> levels{leaves};
  for (std::uint64_t size = leaves.size; size > 1;) {
    size = (size + w_ - 1) / w_;
    levels.push_back({allocate(size), size});
  }
  return levels;
}

std::vector<Bound> ReductionProgram::paper_bounds(const MachineConfig& m,
                                                  const PaperFigures& f) const {
  const double n = static_cast<double>(this->n());
  // Every input is read; a read at most doubles the inputs a value depends on (the reader's
  // own and the cell's, written at least one access earlier), and the result depends on all n.
  std::vector<Bound> out = {time_lower_bound(
      m, {"n", n, "log2(n)", std::log2(n), "",
          "reads one after another (a read at most doubles the inputs a value depends on)"})};
  const TimeOrder table1{"time units (Table 1, constant 1)", f.time_formula, f.time, f.source};
  TimeOrder bpram = table1;
  bpram.label = "Table 1 with l = 1 (the BPRAM is at least as fast as the UMM)";
  add_time_order(
      out, m,
      {.pram =
           TimeOrder{"the PRAM's sum of n numbers with p threads (prefix sums alike)",
                     "n/p + log2(p)",
                     n / static_cast<double>(m.threads) + std::log2(static_cast<double>(m.threads)),
                     "Nakano 2012, section I"},
       .bpram = bpram,
       .dmm = table1,
       .sdmm = table1,
       .rsdmm = table1,
       .umm = table1});
  if (!f.sync_order_formula.empty())
    out.push_back({"syncthreads_order", "barrier steps (Table 1, constant 1)", f.sync_order_formula,
                   f.sync_order, Bound::Kind::order, Bound::Measure::syncthreads, f.source});
  const std::string r = std::to_string(simple_tree_halvings(w_));
  out.push_back({"syncthreads_exact",
                 f.uses_r ? "barrier steps the algorithm performs, r = ceil(log2(log2(w))) = " + r
                          : "barrier steps the algorithm performs",
                 f.sync_formula, static_cast<double>(f.syncs), Bound::Kind::exact,
                 Bound::Measure::syncthreads, f.source});
  return out;
}

void SumProgram::verify(const Mmu& memory) {
  Word sum = 0;
  for (const Word v : values()) sum = wrapping_add(sum, v);
  verification().expect_equal(memory.peek(result_), sum,
                              [this] { return "the sum (m[" + std::to_string(result_) + "])"; });
}

void PrefixProgram::verify(const Mmu& memory) {
  Word sum = 0;
  for (Address i = 0; i < n(); ++i) {
    sum = wrapping_add(sum, values()[i]);
    verification().expect_equal(memory.peek(i), sum,
                                [i] { return "prefix sum m[" + std::to_string(i) + "]"; });
  }
}

std::optional<std::string> unfit_tree(std::uint64_t n, unsigned w) {
  if (!is_power_of(n, 2) && !is_power_of(n, w))
    return not_a_power(n, 2, "two") + ", nor is it a power of w = " + std::to_string(w) +
           " (Tree's groups of w)";
  if (n < w || n % w != 0)
    return "n = " + std::to_string(n) +
           ": Tree's n threads fill whole warps of w = " + std::to_string(w) +
           " only when n is a multiple of w";
  return std::nullopt;
}

std::optional<std::string> unfit_halving(std::uint64_t n, unsigned w,
                                         const std::string& algorithm) {
  if (const std::string why = not_a_power(n, 2, "two"); !why.empty())
    return why + " (" + algorithm + " halves the array)";
  if (n < 2 * std::uint64_t{w})
    return "n = " + std::to_string(n) + " is too small: " + algorithm +
           "'s n/2 threads fill whole warps of w = " + std::to_string(w) +
           " only for n >= " + std::to_string(2 * std::uint64_t{w}) +
           " (the one_warp programs take n <= w)";
  if (n / 2 % w != 0)
    return "n/2 = " + std::to_string(n / 2) +
           " threads do not fill whole warps of w = " + std::to_string(w) + " (" + algorithm +
           " needs w to divide n/2)";
  return std::nullopt;
}

}  // namespace mmsim
