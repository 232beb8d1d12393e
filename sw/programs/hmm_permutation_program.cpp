#include "sw/programs/hmm_permutation_program.hpp"

#include <algorithm>
#include <bit>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/support/errors.hpp"
#include "sw/program/rounds.hpp"

namespace mmsim {
namespace {

bool rounds_separated(const ProgramArgs& args) {
  const std::string& rounds = args.params.string("rounds");
  if (rounds == "separated") return true;
  if (rounds == "overlapped") return false;
  throw ParamError("rounds", "expected separated or overlapped, got '" + rounds + "'");
}

}  // namespace

HmmPermutationProgram::HmmPermutationProgram(std::string name, const ProgramArgs& args)
    : HmmProgram(std::move(name)), PermutationProgram(args), separated_(rounds_separated(args)) {}

HmmPermutationProgram::HmmPermutationProgram(std::string name, const ProgramArgs& args,
                                             planning::PermutationSpec spec)
    : HmmProgram(std::move(name)),
      PermutationProgram(args.params.count("n"), std::move(spec)),
      separated_(rounds_separated(args)) {}

ParamSpec HmmPermutationProgram::rounds_param() {
  return {"rounds", ParamType::string,
          "separated: a grid_sync after every round of memory access, so that each starts when "
          "the previous one has completed everywhere, as the papers count them (their time, "
          "exactly); overlapped: only the barriers the data needs (the rounds pipeline)",
          "separated"};
}

std::uint64_t HmmPermutationProgram::default_threads(const MachineConfig& machine) const {
  return machine_model(machine).hierarchical ? n_ : HmmProgram::default_threads(machine);
}

void HmmPermutationProgram::configure(const MachineConfig& machine) {
  HmmProgram::configure(machine);
  rounds_of(n_, p(), "moves n/p elements, one per batch");
  result_ = stride();
}

std::optional<BarrierScope> HmmPermutationProgram::RoundEnds::after(Need need) {
  ++done_;
  if (separated_) return done_ < rounds_ ? std::optional(BarrierScope::grid) : std::nullopt;
  if (need == Need::grid) return BarrierScope::grid;
  if (need == Need::block && other_warps_) return BarrierScope::block;
  return std::nullopt;
}

Task HmmPermutationProgram::end_round(Warp& warp, RoundEnds& ends, Need need) const {
  // Two statements, not a conditional expression: GCC 12 evaluates both of its operands
  // under co_await.
  const std::optional<BarrierScope> scope = ends.after(need);
  if (scope == BarrierScope::grid) {
    co_await warp.grid_sync();
  } else if (scope == BarrierScope::block) {
    co_await warp.sync();
  }
}

Task HmmPermutationProgram::staged_pass(Warp& warp, const BitStaging& staging, Address from,
                                        Address to, RoundEnds& ends, Need after) const {
  const unsigned w = warp.width();
  const std::uint64_t row = warp.warp_in_block();  // of the chunk, on either side
  std::vector<Address> global(w);
  std::vector<Address> shared(w);
  for (std::uint64_t batch = 0; batch < batches(); ++batch) {
    const std::uint64_t chunk = batch * d() + warp.block();
    const std::uint64_t source = staging.source(chunk, row * w);
    for (unsigned lane = 0; lane < w; ++lane) global[lane] = from + source + lane;
    co_await warp.read(global);
    co_await end_round(warp, ends, Need::nothing);
    for (unsigned lane = 0; lane < w; ++lane) shared[lane] = staging.slot(source + lane);
    co_await warp.write(shared, Space::shared);
    co_await end_round(warp, ends, Need::block);  // other warps read the chunk
    const std::uint64_t target = staging.destination(chunk, row * w);
    for (unsigned lane = 0; lane < w; ++lane)
      shared[lane] = staging.slot(staging.source_of(target + lane));
    co_await warp.read(shared, Space::shared);
    co_await end_round(warp, ends, Need::nothing);
    for (unsigned lane = 0; lane < w; ++lane) global[lane] = to + target + lane;
    co_await warp.write(global);
    // The next batch writes over the chunk that other warps may still be reading.
    co_await end_round(warp, ends, batch + 1 < batches() ? Need::block : after);
  }
}

void HmmPermutationProgram::require_powers_of_two(const std::string& why) const {
  if (!std::has_single_bit(w()))
    throw ConfigError("width",
                      name() + " needs w a power of two (" + why + "); w = " + std::to_string(w()));
  if (!std::has_single_bit(n_))
    throw ParamError("n", name() + " needs n a power of two (" + why + "); " +
                              std::to_string(std::bit_floor(n_)) + " or " +
                              std::to_string(std::bit_ceil(n_)) + " would be");
}

unsigned HmmPermutationProgram::log2_n() const {
  return static_cast<unsigned>(std::countr_zero(n_));
}

unsigned HmmPermutationProgram::log2_w() const {
  return static_cast<unsigned>(std::countr_zero(w()));
}

BitStaging HmmPermutationProgram::staging_of(BitPermutation sigma, const std::string& what) const {
  const std::uint64_t chunk = block_threads();
  const std::uint64_t needed = BitStaging::smallest_chunk(sigma, log2_w());
  if (!std::has_single_bit(chunk) || chunk < needed)
    throw ConfigError(
        "threads",
        name() + ": " + what +
            " moves chunks of p/d elements, one SM at a time, and needs a power " +
            "of two of at least " + std::to_string(needed) +
            " (a global row of w words and the w sources of each row it writes, in one SM); p/d "
            "= " +
            std::to_string(p()) + "/" + std::to_string(d()) + " = " + std::to_string(chunk) +
            (p() == n_ ? " (p = n)" : ""));
  return BitStaging(std::move(sigma), log2_w(), static_cast<unsigned>(std::countr_zero(chunk)));
}

std::string HmmPermutationProgram::unmet_assumption(const MachineConfig& m,
                                                    bool uses_shared) const {
  if (!separated_)
    return "rounds: overlapped (the papers start every round when the previous one has "
           "completed)";
  if (p() != n_) return "p = " + std::to_string(p()) + " threads, not n";
  if (w_g() != w()) return "w_g = " + std::to_string(w_g()) + ", not w";
  if (uses_shared && l_s() != 1) return "l_s = " + std::to_string(l_s()) + ", not 1";
  if (uses_shared && !contiguous_shared_is_conflict_free(m))
    return "shared memory " + m.shared.model +
           " with a bank map the staging does not know (bank conflicts)";
  if (m.kernel_latency != 0) return "kernel_latency = " + std::to_string(m.kernel_latency);
  if (m.compute_latency != 0) return "compute_latency = " + std::to_string(m.compute_latency);
  return "";
}

std::vector<Bound> HmmPermutationProgram::round_bounds(const MachineConfig& m,
                                                       const Traffic& traffic,
                                                       const PaperTime& paper,
                                                       const Barriers& overlapped) const {
  const double ll = l();
  const double ls = l_s();
  const auto global = static_cast<double>(traffic.global_stages);
  const auto shared = static_cast<double>(traffic.shared_dispatches);
  const auto global_rounds = static_cast<double>(traffic.global_rounds);
  const auto shared_rounds = static_cast<double>(traffic.shared_rounds);
  const bool uses_shared = traffic.shared_rounds > 0;
  const bool conflict_free = !uses_shared || contiguous_shared_is_conflict_free(m);
  std::vector<Bound> out;
  out.push_back({"time_lower",
                 "lower bound: the global stage groups enter one per time unit; every thread "
                 "makes its rounds one after another",
                 "max(G + l - 1, rounds_global*l + rounds_shared*l_s)",
                 std::max(global + ll - 1, global_rounds * ll + shared_rounds * ls),
                 Bound::Kind::lower, Bound::Measure::cycles, "docs/semantics.md §3 and §7"});
  const std::string unmet = unmet_assumption(m, uses_shared);
  out.push_back(
      {"time_paper",
       unmet.empty() ? "the papers' time (p = n, w_g = w, l_s = 1, rounds one after another)"
                     : "the papers' time, an order here: " + unmet,
       paper.formula, paper.value, unmet.empty() ? Bound::Kind::exact : Bound::Kind::order,
       Bound::Measure::cycles, paper.source});
  if (separated_ && conflict_free) {
    const double rounds = global_rounds + shared_rounds;
    out.push_back({"time_exact",
                   "every round from the end of the previous one: its stage groups and its "
                   "latency less one (G global groups, S dispatches per SM)",
                   "G + S + rounds_global*(l - 1) + rounds_shared*(l_s - 1) + (rounds - 1)*"
                   "(kernel_latency + compute_latency)",
                   global + shared + global_rounds * (ll - 1) + shared_rounds * (ls - 1) +
                       (rounds - 1) * static_cast<double>(m.kernel_latency + m.compute_latency),
                   Bound::Kind::exact, Bound::Measure::cycles, "docs/semantics.md §3 and §7"});
  }
  out.push_back({"global_stages_exact", "global stage groups of all rounds", "G", global,
                 Bound::Kind::exact, Bound::Measure::global_stages, "docs/semantics.md §7"});
  if (uses_shared && conflict_free)
    out.push_back({"shared_stages_exact",
                   "shared stage groups of all SMs: every dispatch conflict-free, one stage", "d*S",
                   static_cast<double>(d()) * shared, Bound::Kind::exact,
                   Bound::Measure::shared_stages, "docs/semantics.md §7"});
  if (separated_) {
    out.push_back({"grid_syncs_exact", "a grid_sync after every round but the last", "rounds - 1",
                   static_cast<double>(traffic.global_rounds + traffic.shared_rounds - 1),
                   Bound::Kind::exact, Bound::Measure::grid_syncs, "mmsim"});
    out.push_back({"syncthreads_exact", "none: the grid_syncs separate the rounds", "0", 0.0,
                   Bound::Kind::exact, Bound::Measure::syncthreads, "mmsim"});
  } else {
    out.push_back({"grid_syncs_exact", "a grid_sync where a pass reads what other SMs wrote",
                   overlapped.grid_syncs.formula, static_cast<double>(overlapped.grid_syncs.value),
                   Bound::Kind::exact, Bound::Measure::grid_syncs, "mmsim"});
    out.push_back(
        {"syncthreads_exact", "a syncthreads where other warps of the SM read what a round wrote",
         overlapped.syncthreads.formula, static_cast<double>(overlapped.syncthreads.value),
         Bound::Kind::exact, Bound::Measure::syncthreads, "mmsim"});
  }
  return out;
}

}  // namespace mmsim
