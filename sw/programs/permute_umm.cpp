#include <fstream>
#include <map>
#include <vector>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/support/errors.hpp"
#include "sw/planning/schedule_file.hpp"
#include "sw/planning/umm_plan.hpp"
#include "sw/program/model_bounds.hpp"
#include "sw/programs/permutation_program.hpp"
#include "sw/programs/permutation_programs.hpp"
#include "sw/programs/rotating_transpose.hpp"
#include "sw/programs/transpose_umm_rotating.hpp"

namespace mmsim {
namespace {

class PermuteUmm final : public PermutationProgram {
 public:
  explicit PermuteUmm(const ProgramArgs& args)
      : PermutationProgram(args),
        transpose_schedule_(rotating_schedule(args.params, "transpose_schedule")) {}

  void configure(const MachineConfig& m) override {
    w_ = m.width;
    if (schedule_.empty()) planning_input("n", [&] { planning::check_umm_size(n_, w_); });
  }

  std::uint64_t memory_words() const override { return n_; }
  // Every transpose goes through w words of local memory per PE; a plan of more than one row
  // has transposes.
  std::uint64_t local_words() const override { return n_ > w_ ? w_ : 0; }

  // The permutation, and the plan at the peak of its making; reading a schedule keeps the plan
  // and traces every element through it (four arrays of 8 bytes per element).
  std::uint64_t host_bytes() const override {
    const std::uint64_t plan =
        planning::umm_plan_bytes(n_, w_, planning::ColoringAlgorithm::automatic);
    return PermutationProgram::host_bytes() + (schedule_.empty() ? plan : plan + 32 * n_);
  }

  void prepare() override {
    PermutationProgram::prepare();
    if (schedule_.empty()) {
      plan_ =
          planning_input("n", [&] { return timed([&] { return planning::plan_umm(p_, w_); }); });
    } else {
      std::ifstream in = open_schedule(schedule_);
      plan_ = planning_input(
          "schedule", [&] { return planning::read_umm_schedule(in, schedule_.string(), p_, w_); });
    }
    for (const planning::UmmStep& step : plan_.steps) {
      if (step.kind == planning::UmmStep::Kind::transpose) {
        transposes_.try_emplace(step.length, step.length, w_);
      } else if (step.length != w_) {
        throw SimulationError("the UMM plan has a row-wise step with rows of " +
                              std::to_string(step.length) +
                              " words; rows of w = " + std::to_string(w_) + " were expected");
      }
    }
  }

  Task run(Warp& warp) override {
    const unsigned w = warp.width();
    std::vector<Address> from(w);
    std::vector<Address> to(w);
    for (std::size_t k = 0; k < plan_.steps.size(); ++k) {
      if (k > 0) co_await warp.sync();  // every step reads what the previous one wrote
      const planning::UmmStep& step = plan_.steps[k];
      if (step.kind == planning::UmmStep::Kind::row_permutation) {
        // One warp per row: the row is read at once and written back permuted (one address
        // group each way).
        for (std::uint64_t row = warp.index(); row < n_ / w; row += warp.count()) {
          for (unsigned lane = 0; lane < w; ++lane) {
            from[lane] = row * w + lane;
            to[lane] = row * w + step.perm[row * w + lane];
          }
          co_await warp.read(from);
          co_await warp.write(to);
        }
      } else {
        const RotatingTranspose& transpose = transposes_.at(step.length);
        co_await transpose.run(warp, 0, n_ / (step.length * step.length), transpose_schedule_);
      }
    }
  }

  std::vector<Bound> bounds(const MachineConfig& m, const RunResult&) const override;

 private:
  // The accesses of the busiest warp in each step, summed, and the barriers, for `warps` warps.
  std::uint64_t chain(std::uint64_t warps) const;
  std::uint64_t barriers() const;

  RotatingSchedule transpose_schedule_;
  unsigned w_ = 1;
  planning::UmmPlan plan_;
  std::map<std::uint64_t, RotatingTranspose> transposes_;  // by side
};

std::uint64_t PermuteUmm::chain(std::uint64_t warps) const {
  std::uint64_t accesses = 0;
  for (const planning::UmmStep& step : plan_.steps)
    accesses += step.kind == planning::UmmStep::Kind::row_permutation
                    ? 2 * ((n_ / w_ + warps - 1) / warps)
                    : transposes_.at(step.length)
                          .chain(warps, n_ / (step.length * step.length), transpose_schedule_);
  return accesses;
}

std::uint64_t PermuteUmm::barriers() const {
  std::uint64_t syncs = plan_.steps.size() - 1;
  for (const planning::UmmStep& step : plan_.steps)
    if (step.kind == planning::UmmStep::Kind::transpose)
      syncs += transposes_.at(step.length).barriers(transpose_schedule_);
  return syncs;
}

std::vector<Bound> PermuteUmm::bounds(const MachineConfig& m, const RunResult&) const {
  const double n = static_cast<double>(n_);
  const double w = m.width;
  // Row-wise steps: a read and a write per row; transposes: see RotatingTranspose. Every warp
  // access is one whole address group, in w distinct banks under any map.
  double stages = 0;
  for (const planning::UmmStep& step : plan_.steps)
    stages += step.kind == planning::UmmStep::Kind::row_permutation
                  ? 2 * n / w
                  : static_cast<double>(n_ / (step.length * step.length) *
                                        transposes_.at(step.length).stages());
  const double c = static_cast<double>(chain(m.threads / m.width));
  std::vector<Bound> out = {time_lower_bound(
      m, {"S", stages * w, "c", c,
          "S = the stages below, c = the busiest warp's accesses per step, summed"})};
  const TimeOrder theorem8 =
      optimal_order(m, n, "any permutation of n = w^(2^k) words, w words of local memory per PE",
                    "Nakano 2012, Theorem 8");
  add_time_order(out, m,
                 orders_everywhere(m, n, "a permutation", "Nakano 2012, section V", theorem8));
  out.push_back({"syncthreads_exact",
                 "one barrier between consecutive steps, one inside each two-phase transpose",
                 "steps - 1 + two-phase transposes", static_cast<double>(barriers()),
                 Bound::Kind::exact, Bound::Measure::syncthreads, "mmsim"});
  if (machine_model(m).memory.splitting == Splitting::crossbar) {
    out.push_back({"congestion_exact", "one stage group per dispatch of the one unit", "c", c,
                   Bound::Kind::exact, Bound::Measure::stages, "mmsim"});
    out.push_back({"time_exact", "one time unit per dispatch of the one unit", "c", c,
                   Bound::Kind::exact, Bound::Measure::cycles, "docs/semantics.md §3"});
  } else {
    out.push_back({"congestion_exact", "every warp access one address group in w banks",
                   "row-wise steps 2n/w each, transposes of side R 4n/w - 2n/R each", stages,
                   Bound::Kind::exact, Bound::Measure::stages, "Nakano 2012, Lemmas 3 and 7"});
  }
  return out;
}

}  // namespace

ProgramInfo permute_umm_program() {
  return {
      "permute_umm",
      "Lemma 7 / Theorem 8: three row-wise permutations and two transposes, recursively for "
      "n = w^(2^k), planned by exact colourings; in place, w words of local memory per PE",
      "Nakano 2012, section VI",
      PermutationProgram::params(
          {{"schedule", ParamType::string,
            "a schedule file written by mmsim plan --machine umm, used instead of planning here",
            "\"\""},
           rotating_schedule_param("transpose_schedule")}),
      make_program<PermuteUmm>(),
  };
}

}  // namespace mmsim
