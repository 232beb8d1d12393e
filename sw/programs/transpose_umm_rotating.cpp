#include "sw/programs/transpose_umm_rotating.hpp"

#include <optional>
#include <vector>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/support/errors.hpp"
#include "sw/program/data_pattern.hpp"
#include "sw/program/model_bounds.hpp"
#include "sw/program/square_matrix.hpp"
#include "sw/programs/rotating_transpose.hpp"

namespace mmsim {

RotatingSchedule rotating_schedule(const ParamValues& params, const std::string& param) {
  const std::string& name = params.string(param);
  if (name == "two_phase") return RotatingSchedule::two_phase;
  if (name == "pairs") return RotatingSchedule::pairs;
  throw ParamError(param, "expected two_phase or pairs, got '" + name + "'");
}

ParamSpec rotating_schedule_param(const std::string& name) {
  return {name, ParamType::string,
          "two_phase: every block, a barrier, then the swaps row by row (Lemma 3); pairs: one "
          "warp per block pair, no barrier",
          "two_phase"};
}

namespace {

class TransposeUmmRotating final : public WarpProgram {
 public:
  explicit TransposeUmmRotating(const ParamValues& params)
      : n_(params.count("n")),
        side_(square_side(n_, "n")),
        schedule_(rotating_schedule(params, "schedule")) {}

  // p = n/w, as Lemma 3 assumes at most: one warp per w x w block.
  std::uint64_t default_threads(const MachineConfig& machine) const override {
    const unsigned width = machine.width;
    if (side_ % width != 0) return width;  // configure() reports the real problem
    return n_ / width;
  }

  void configure(const MachineConfig& machine) override {
    w_ = machine.width;
    if (side_ % w_ != 0)
      throw ParamError("n", "sqrt(n) = " + std::to_string(side_) + " must be a multiple of w = " +
                                std::to_string(w_) + " (the matrix is cut into w x w blocks)");
    transpose_.emplace(side_, w_);
  }

  std::uint64_t memory_words() const override { return n_; }
  std::uint64_t local_words() const override { return w_; }

  void initialize(Mmu& memory) override {
    memory.fill(n_, [](Address a) { return data_pattern(a); });
  }

  Task run(Warp& warp) override { return transpose_->run(warp, 0, 1, schedule_); }

  void verify(const Mmu& memory) override {
    for (std::uint64_t r = 0; r < side_; ++r)
      for (std::uint64_t c = 0; c < side_; ++c)
        verification().expect_equal(memory.peek(r * side_ + c), data_pattern(c * side_ + r), [=] {
          return "a[" + std::to_string(r) + "][" + std::to_string(c) + "]";
        });
  }

  std::vector<Bound> bounds(const MachineConfig& m, const RunResult&) const override;

 private:
  std::uint64_t n_;
  std::uint64_t side_;
  RotatingSchedule schedule_;
  unsigned w_ = 1;
  std::optional<RotatingTranspose> transpose_;
};

std::vector<Bound> TransposeUmmRotating::bounds(const MachineConfig& m, const RunResult&) const {
  const double n = static_cast<double>(n_);
  const double stages = static_cast<double>(transpose_->stages());
  const std::uint64_t warps = m.threads / m.width;
  const double chain = static_cast<double>(transpose_->chain(warps, 1, schedule_));
  const bool two_phase = schedule_ == RotatingSchedule::two_phase;
  std::vector<Bound> out = {time_lower_bound(
      m, {"(4n - 2w*sqrt(n))", stages * m.width, "c", chain,
          two_phase ? "c = 2w*ceil(n/(w^2*U)) + 4*ceil(w*Q/U), Q = (sqrt(n)/w)*(sqrt(n)/w - 1)/2 "
                      "pairs to swap, U = p/w warps"
                    : "c = 2w*d + 8w*e, d diagonal and e other pairs of the busiest warp"})};
  // Every warp access is one whole address group: w distinct banks under any map, so Lemma 3's
  // count holds on the DMM family as on the UMM (the UMM is the weaker machine, Nakano 2012,
  // section I), super warps included.
  const TimeOrder lemma3 =
      optimal_order(m, n, "transpose with w words of local memory per PE", "Nakano 2012, Lemma 3");
  add_time_order(out, m, orders_everywhere(m, n, "transpose", "Nakano 2012, section IV", lemma3));
  if (machine_model(m).memory.splitting == Splitting::crossbar) {
    // The one unit dispatches as long as any warp has an access left in the phase.
    out.push_back({"congestion_exact", "one stage group per dispatch of the one unit", "c", chain,
                   Bound::Kind::exact, Bound::Measure::stages, "mmsim"});
    out.push_back({"time_exact", "one time unit per dispatch of the one unit", "c", chain,
                   Bound::Kind::exact, Bound::Measure::cycles, "docs/semantics.md §3"});
  } else {
    out.push_back({"congestion_exact",
                   "every warp access one address group in w banks: 2w per block, 4 per swapped "
                   "row",
                   "4n/w - 2*sqrt(n)", stages, Bound::Kind::exact, Bound::Measure::stages,
                   "Nakano 2012, Lemma 3"});
  }
  out.push_back({"syncthreads_exact",
                 two_phase ? "one barrier between the transposes and the swaps" : "none",
                 two_phase ? "1 (0 for sqrt(n) = w)" : "0",
                 static_cast<double>(transpose_->barriers(schedule_)), Bound::Kind::exact,
                 Bound::Measure::syncthreads, "Nakano 2012, Lemma 3"});
  return out;
}

}  // namespace

ProgramInfo transpose_umm_rotating_program() {
  return {
      "transpose_umm_rotating",
      "transposes a sqrt(n) x sqrt(n) matrix in place: w x w blocks by the rotating technique "
      "through w words of local memory per PE, and block swaps",
      "Nakano 2012, Lemma 3",
      {{"n", ParamType::integer, "matrix size: a perfect square with sqrt(n) a multiple of w",
        std::nullopt},
       rotating_schedule_param("schedule")},
      make_program<TransposeUmmRotating>(),
  };
}

}  // namespace mmsim
