#include <fstream>
#include <vector>

#include "sw/planning/dmm_plan.hpp"
#include "sw/planning/schedule_file.hpp"
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
      std::ifstream in(schedule_);
      if (!in) throw InputError({schedule_.string(), 0, 0}, "cannot open the schedule file");
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
    const double w = m.width;
    const double l = m.latency;
    const double p = static_cast<double>(threads_);
    const double accesses = in_place_ ? 4 : 2;  // per word: (copy: read, write) + read, write
    std::vector<Bound> out = {
        {"time_order", "any permutation", "n/w + n*l/p", n / w + n * l / p, Bound::Kind::order,
         Bound::Measure::cycles, "seed 000, Theorem 6"},
        {"time_lower", "the dispatches go through the pipeline, each thread's one after another",
         in_place_ ? "max(4n/w + l - 1, 4l*n/p)" : "max(2n/w + l - 1, 2l*n/p)",
         std::max(accesses * n / w + l - 1, accesses * l * n / p), Bound::Kind::lower,
         Bound::Measure::cycles, "DESIGN.md section 2"}};
    if (m.model == "dmm" || m.model == "bpram" || (m.model == "sdmm" && m.super_warp == 1))
      out.push_back({"congestion_exact", "every warp access conflict-free (Lemma 5)",
                     in_place_ ? "4n/w" : "2n/w", accesses * n / w, Bound::Kind::exact,
                     Bound::Measure::stages, "seed 000, Lemma 5"});
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
      "seed 000, section V",
      PermutationProgram::params(
          {{"in_place", ParamType::boolean,
            "true: the paper's copy to b then the scheduled moves back to a (4n/w stages); false: "
            "the scheduled moves from a to b (2n/w stages)",
            "true"},
           {"schedule", ParamType::string,
            "a schedule file written by mmsim plan, used instead of planning here", "\"\""}}),
      [](const ProgramArgs& args) -> std::unique_ptr<WarpProgram> {
        return std::make_unique<PermuteDmmConflictFree>(args);
      },
  };
}

}  // namespace mmsim
