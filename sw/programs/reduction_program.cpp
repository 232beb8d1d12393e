#include "sw/programs/reduction_program.hpp"

#include <cmath>

#include "hw/support/errors.hpp"
#include "sw/program/model_bounds.hpp"
#include "sw/program/word_arithmetic.hpp"
#include "sw/programs/reduction_counts.hpp"

namespace mmsim {

namespace {

// Why n is not a power of two of at least 2w, which `algorithm` (halving, with n/2 threads
// filling whole warps) needs; nullopt when it is.
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

// Why n does not suit a w-ary tree with n threads (Tree's groups of w); nullopt when it does.
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

// How the algorithms' threads are written in messages (Table 1's p).
std::string threads_formula(ReductionAlgorithm algorithm) {
  switch (algorithm) {
    case ReductionAlgorithm::simple:
    case ReductionAlgorithm::simple_tree:
      return "n/2";
    case ReductionAlgorithm::one_warp:
      return "w";
    case ReductionAlgorithm::tree:
      return "n";
    case ReductionAlgorithm::hybrid:
      return "w*l";
  }
  return "";
}

const ReductionWording kSumWording{"halves the array",
                                   "sums at most w numbers (sum_simple takes more)",
                                   "add up a column of the n/(w*l) x w*l array"};
const ReductionWording kPrefixWording{"pairs the numbers",
                                      "takes at most w numbers (prefix_simple takes more)",
                                      "take a row of the w*l x n/(w*l) array"};

}  // namespace

ReductionProgram::ReductionProgram(const ProgramArgs& args, std::string name,
                                   ReductionAlgorithm algorithm, std::string source,
                                   const ReductionWording& wording)
    : input_(args.params, args.base_dir),
      name_(std::move(name)),
      algorithm_(algorithm),
      source_(std::move(source)),
      wording_(wording) {}

std::optional<std::string> ReductionProgram::unfit(const MachineConfig& m) const {
  switch (algorithm_) {
    case ReductionAlgorithm::simple:
      return unfit_halving(n(), m.width, "Simple");
    case ReductionAlgorithm::simple_tree:
      return unfit_halving(n(), m.width, "Simple-Tree");
    case ReductionAlgorithm::tree:
      return unfit_tree(n(), m.width);
    case ReductionAlgorithm::one_warp:
      if (const std::string why = not_a_power(n(), 2, "two"); !why.empty())
        return why + " (One-Warp " + wording_.one_warp_needs_power + ")";
      if (n() > m.width)
        return "n = " + std::to_string(n()) + " exceeds w = " + std::to_string(m.width) +
               ": One-Warp " + wording_.one_warp_takes;
      return std::nullopt;
    case ReductionAlgorithm::hybrid:
      if (const std::uint64_t p = std::uint64_t{m.width} * m.latency; n() < p)
        return "n = " + std::to_string(n()) + " is below w*l = " + std::to_string(p) +
               ": Hybrid's w*l threads each " + wording_.hybrid_threads_do;
      return std::nullopt;
  }
  return std::nullopt;
}

std::uint64_t ReductionProgram::threads(const MachineConfig& m) const {
  switch (algorithm_) {
    case ReductionAlgorithm::simple:
    case ReductionAlgorithm::simple_tree:
      return n() / 2;
    case ReductionAlgorithm::one_warp:
      return m.width;
    case ReductionAlgorithm::tree:
      return n();
    case ReductionAlgorithm::hybrid:
      return std::uint64_t{m.width} * m.latency;
  }
  return 0;
}

std::uint64_t ReductionProgram::default_threads(const MachineConfig& machine) const {
  // When n does not fit, configure() says why; until then, any valid machine will do.
  return unfit(machine) ? machine.width : threads(machine);
}

void ReductionProgram::configure(const MachineConfig& machine) {
  if (const auto why = unfit(machine)) throw ParamError("n", *why);
  const std::uint64_t p = threads(machine);
  if (machine.threads != p)
    throw ConfigError(
        "threads", name_ + " uses p = " + threads_formula(algorithm_) + " = " + std::to_string(p) +
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

Task ReductionProgram::run(Warp& warp) {
  Lanes lanes(w_);
  co_await run_with(warp, lanes);
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

std::vector<Bound> ReductionProgram::bounds(const MachineConfig& m, const RunResult&) const {
  const double n = static_cast<double>(this->n());
  const double l = static_cast<double>(l_);
  const double logw = std::log2(static_cast<double>(w_));
  // Table 1's time and barrier steps (constant 1); One-Warp gives no order of barrier steps.
  struct {
    std::string time_formula;
    double time;
    std::string sync_formula;
    double syncs;
  } table1;
  switch (algorithm_) {
    case ReductionAlgorithm::simple:
      table1 = {"n/w + l*log2(n)", n / w_ + l * std::log2(n), "log2(n/w)", std::log2(n / w_)};
      break;
    case ReductionAlgorithm::one_warp:
      table1 = {"l*log2(n)", l * std::log2(n), "", 0};
      break;
    case ReductionAlgorithm::tree:
      table1 = {"(n/w)*log2(w) + l*log2(n)", n / w_ * logw + l * std::log2(n), "log2(n)/log2(w)",
                std::log2(n) / logw};
      break;
    case ReductionAlgorithm::simple_tree:
      table1 = {"n/w + l*log2(n)", n / w_ + l * std::log2(n), "log2(n)/log2(w) + log2(log2(w))",
                std::log2(n) / logw + std::log2(logw)};
      break;
    case ReductionAlgorithm::hybrid:
      table1 = {"n/w + l*log2(n)", n / w_ + l * std::log2(n), "log2(l)/log2(w) + log2(log2(w))",
                std::log2(l) / logw + std::log2(logw)};
      break;
  }
  // Every input is read; a read at most doubles the inputs a value depends on (the reader's
  // own and the cell's, written at least one access earlier), and the result depends on all n.
  std::vector<Bound> out = {time_lower_bound(
      m, {"n", n, "log2(n)", std::log2(n), "",
          "reads one after another (a read at most doubles the inputs a value depends on)"})};
  const TimeOrder time{"time units (Table 1, constant 1)", table1.time_formula, table1.time,
                       source_};
  TimeOrder bpram = time;
  bpram.label = "Table 1 with l = 1 (the BPRAM is at least as fast as the UMM)";
  add_time_order(
      out, m,
      {.pram =
           TimeOrder{"the PRAM's sum of n numbers with p threads (prefix sums alike)",
                     "n/p + log2(p)",
                     n / static_cast<double>(m.threads) + std::log2(static_cast<double>(m.threads)),
                     "Nakano 2012, section I"},
       .bpram = bpram,
       .dmm = time,
       .sdmm = time,
       .rsdmm = time,
       .umm = time});
  if (!table1.sync_formula.empty())
    out.push_back({"syncthreads_order", "barrier steps (Table 1, constant 1)", table1.sync_formula,
                   table1.syncs, Bound::Kind::order, Bound::Measure::syncthreads, source_});
  const BarrierSteps steps = barrier_steps();
  const std::string r = std::to_string(simple_tree_halvings(w_));
  out.push_back({"syncthreads_exact",
                 steps.uses_r
                     ? "barrier steps the algorithm performs, r = ceil(log2(log2(w))) = " + r
                     : "barrier steps the algorithm performs",
                 steps.formula, static_cast<double>(steps.count), Bound::Kind::exact,
                 Bound::Measure::syncthreads, source_});
  return out;
}

SumProgram::SumProgram(const ProgramArgs& args, std::string name, ReductionAlgorithm algorithm,
                       std::string source)
    : ReductionProgram(args, std::move(name), algorithm, std::move(source), kSumWording) {}

PrefixProgram::PrefixProgram(const ProgramArgs& args, std::string name,
                             ReductionAlgorithm algorithm, std::string source)
    : ReductionProgram(args, std::move(name), algorithm, std::move(source), kPrefixWording) {}

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

}  // namespace mmsim
