#include <fstream>
#include <vector>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "sw/planning/dmm_plan.hpp"
#include "sw/planning/schedule_file.hpp"
#include "sw/program/model_bounds.hpp"
#include "sw/programs/permutation_program.hpp"
#include "sw/programs/permutation_programs.hpp"

namespace mmsim {
namespace {

class PermuteDmmConflictFree final : public PermutationProgram {
 public:
  explicit PermuteDmmConflictFree(const ProgramArgs& args)
      : PermutationProgram(args), in_place_(args.params.boolean("in_place")) {}

  void configure(const MachineConfig& m) override {
    check_rounds(m);
    w_ = m.width;
    result_ = in_place_ ? 0 : n_;
  }

  // The permutation, and the plan at the peak of its making; reading a schedule instead keeps
  // the plan (4 bytes per element) and each source's colour (4).
  std::uint64_t host_bytes() const override {
    const std::uint64_t planning =
        schedule_.empty() ? planning::dmm_plan_bytes(n_, w_, planning::ColoringAlgorithm::automatic)
                          : 8 * n_;
    return PermutationProgram::host_bytes() + planning;
  }

  void prepare() override {
    PermutationProgram::prepare();
    if (schedule_.empty()) {
      plan_ =
          planning_input("n", [&] { return timed([&] { return planning::plan_dmm(p_, w_); }); });
    } else {
      std::ifstream in = open_schedule(schedule_);
      plan_ = planning_input(
          "schedule", [&] { return planning::read_dmm_schedule(in, schedule_.string(), p_, w_); });
    }
  }

  std::uint64_t memory_words() const override { return 2 * n_; }

  Task run(Warp& warp) override {
    const unsigned w = warp.width();
    std::vector<Address> from(w);
    std::vector<Address> to(w);
    const std::uint64_t rounds = n_ / threads_;
    if (in_place_) {  // b[i] <- a[i]
      co_await move_rounds(
          warp, [](std::uint64_t i) { return i; }, [this](std::uint64_t i) { return n_ + i; });
      co_await warp.sync();  // b is complete before a is overwritten
    }
    // Colour step c = t*(p/w) + warp: lane j moves source s[c][j] to P(s[c][j]); the w sources
    // lie in w distinct banks and so do their destinations.
    const Address source = in_place_ ? n_ : 0;
    const Address target = in_place_ ? 0 : n_;
    for (std::uint64_t t = 0; t < rounds; ++t) {
      const std::uint64_t c = t * (threads_ / w) + warp.index();
      const auto sources = plan_.sources_of(c);
      for (unsigned lane = 0; lane < w; ++lane) {
        from[lane] = source + sources[lane];
        to[lane] = target + p_[sources[lane]];
      }
      co_await warp.read(from);
      co_await warp.write(to);
    }
  }

  std::vector<Bound> bounds(const MachineConfig& m, const RunResult&) const override {
    const double n = static_cast<double>(n_);
    const double p = static_cast<double>(threads_);
    const double accesses = in_place_ ? 4 : 2;  // per word: (copy: read, write) + read, write
    const std::string total = in_place_ ? "4n" : "2n";
    std::vector<Bound> out = {
        time_lower_bound(m, {total, accesses * n, total + "/p", accesses * n / p})};
    // A super warp of s conflict-free warps sends s requests to every bank: the colouring
    // serves the SDMM as well. The random shift moves each row's cells by its own amount, which
    // the colouring does not know: Theorem 6's expectation. On the UMM a warp's w sources (and
    // destinations) may lie in w address groups: the straightforward algorithm's worst case.
    const TimeOrder theorem6 = optimal_order(
        m, n, "any permutation, every warp access conflict-free", "Nakano 2012, Theorem 6");
    OrdersByColumn orders =
        orders_everywhere(m, n, "a permutation", "Nakano 2012, section V", theorem6);
    orders.rsdmm = random_shift_order(m, n, "Nakano and Matsumae 2013, Theorem 6");
    orders.umm = TimeOrder{"worst case on the UMM: a warp's w moves in w address groups",
                           "n + n*l/p", n + n * m.latency / p, "Nakano 2012, section V"};
    add_time_order(out, m, orders);
    switch (column_of(m)) {
      case Column::pram:
        out.push_back({"congestion_exact", "one stage group per dispatch of the one unit",
                       total + "/p", accesses * n / p, Bound::Kind::exact, Bound::Measure::stages,
                       "docs/semantics.md §3"});
        break;
      case Column::bpram:
      case Column::dmm:
      case Column::sdmm:
        out.push_back({"congestion_exact",
                       "every warp access conflict-free (Lemma 5): s requests per bank per "
                       "dispatch",
                       total + "/w", accesses * n / m.width, Bound::Kind::exact,
                       Bound::Measure::stages, "Nakano 2012, Lemma 5"});
        break;
      default:
        break;
    }
    return out;
  }

 private:
  bool in_place_;
  unsigned w_ = 1;
  planning::DmmPlan plan_;
};

}  // namespace

ProgramInfo permute_dmm_conflict_free_program() {
  return {
      "permute_dmm_conflict_free",
      "Theorem 6: the moves of a[P(i)] <- b[i] ordered by an exact n/w-colouring of the bank "
      "graph, every warp access conflict-free (in_place: false moves a to b in one pass)",
      "Nakano 2012, section V",
      PermutationProgram::params(
          {{"in_place", ParamType::boolean,
            "true: the paper's copy to b then the scheduled moves back to a (4n/w stages); false: "
            "the scheduled moves from a to b (2n/w stages)",
            "true"},
           {"schedule", ParamType::string,
            "a schedule file written by mmsim plan, used instead of planning here", "\"\""}}),
      make_program<PermuteDmmConflictFree>(),
  };
}

}  // namespace mmsim
