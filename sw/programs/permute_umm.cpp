#include <fstream>
#include <map>
#include <vector>

#include "hw/support/errors.hpp"
#include "sw/planning/schedule_file.hpp"
#include "sw/planning/umm_plan.hpp"
#include "sw/programs/permutation_program.hpp"
#include "sw/programs/permutation_programs.hpp"
#include "sw/programs/rotating_transpose.hpp"

namespace mmsim {
namespace {

class PermuteUmm final : public PermutationProgram {
 public:
  explicit PermuteUmm(const ProgramArgs& args) : PermutationProgram(args) {}

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
      std::ifstream in(schedule_);
      if (!in) throw InputError({schedule_.string(), 0, 0}, "cannot open the schedule file");
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
        const std::uint64_t matrix = step.length * step.length;
        const std::uint64_t items = n_ / matrix * transpose.pairs();
        for (std::uint64_t item = warp.index(); item < items; item += warp.count())
          co_await transpose.run(warp, item / transpose.pairs() * matrix, item % transpose.pairs());
      }
    }
  }

  std::vector<Bound> bounds(const MachineConfig& m, const RunResult&) const override {
    const double n = static_cast<double>(n_);
    const double w = m.width;
    std::vector<Bound> out = {
        {"time_order", "any permutation of n = w^(2^k) words, w words of local memory per PE",
         "n/w + n*l/p", n / w + n * m.latency / static_cast<double>(m.threads), Bound::Kind::order,
         Bound::Measure::cycles, "seed 000, Theorem 8"},
        {"syncthreads_exact", "one barrier between consecutive steps", "steps - 1",
         static_cast<double>(plan_.steps.size() - 1), Bound::Kind::exact,
         Bound::Measure::syncthreads, "mmsim"}};
    if (m.model == "umm" || m.model == "dmm") {
      // Row-wise steps: a read and a write per row; transposes: see RotatingTranspose.
      double stages = 0;
      for (const planning::UmmStep& step : plan_.steps)
        stages += step.kind == planning::UmmStep::Kind::row_permutation
                      ? 2 * n / w
                      : static_cast<double>(n_ / (step.length * step.length) *
                                            transposes_.at(step.length).stages());
      out.push_back({"congestion_exact", "every warp access in one address group",
                     "row-wise steps 2n/w each, transposes of side R 4n/w - 2n/R each", stages,
                     Bound::Kind::exact, Bound::Measure::stages, "seed 000, Lemmas 3 and 7"});
    }
    return out;
  }

 private:
  unsigned w_ = 1;
  planning::UmmPlan plan_;
  std::map<std::uint64_t, RotatingTranspose> transposes_;  // by side
};

}  // namespace

ProgramInfo permute_umm_program() {
  return {
      "permute_umm",
      "Lemma 7 / Theorem 8: three row-wise permutations and two transposes, recursively for "
      "n = w^(2^k), planned by exact colourings; in place, w words of local memory per PE",
      "seed 000, section VI",
      PermutationProgram::params(
          {{"schedule", ParamType::string,
            "a schedule file written by mmsim plan --machine umm, used instead of planning here",
            "\"\""}}),
      [](const ProgramArgs& args) -> std::unique_ptr<WarpProgram> {
        return std::make_unique<PermuteUmm>(args);
      },
  };
}

}  // namespace mmsim
