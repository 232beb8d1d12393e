#include <algorithm>
#include <vector>

#include "sw/program/data_pattern.hpp"
#include "sw/programs/hmm_permutation_program.hpp"
#include "sw/programs/hmm_permutation_programs.hpp"

namespace mmsim {
namespace {

// b[p[i]] <- a[i] with the permutation as data: a at m[0..n), b one stride on, p(i) at the
// third; thread g of batch t moves element i = t*p + g in three rounds: it reads a[i]
// (coalesced), reads p[i] (coalesced) and writes b[p[i]] (as scattered as P).
class HmmPermuteConventional final : public HmmPermutationProgram {
 public:
  explicit HmmPermuteConventional(const ProgramArgs& args)
      : HmmPermutationProgram("hmm_permute_conventional", args) {}

  std::uint64_t memory_words() const override { return 3 * stride(); }

  void prepare() override {
    PermutationProgram::prepare();
    distribution_ = distribution(w_g());
    distribution_w_ = distribution(w());
  }

  void initialize(Mmu& memory) override {
    PermutationProgram::initialize(memory);
    for (Address i = 0; i < n_; ++i) memory.poke(2 * stride() + i, permutation()[i]);
  }

  Task run(Warp& warp) override {
    const unsigned w = warp.width();
    RoundEnds ends = round_ends(warp);
    std::vector<Address> sources(w);
    std::vector<Address> targets(w);
    std::vector<Word> values(w);
    for (std::uint64_t batch = 0; batch < batches(); ++batch) {
      const std::uint64_t first = batch * p() + warp.thread(0);
      for (unsigned lane = 0; lane < w; ++lane) sources[lane] = first + lane;
      const auto read = co_await warp.read(sources);
      std::copy(read.begin(), read.end(), values.begin());
      co_await end_round(warp, ends, Need::nothing);
      for (unsigned lane = 0; lane < w; ++lane) sources[lane] = 2 * stride() + first + lane;
      const auto destinations = co_await warp.read(sources);
      for (unsigned lane = 0; lane < w; ++lane) targets[lane] = stride() + destinations[lane];
      co_await end_round(warp, ends, Need::nothing);
      co_await warp.write(targets, values);
      co_await end_round(warp, ends, Need::nothing);
    }
  }

  std::vector<ProgramFigure> figures() const override {
    std::vector<ProgramFigure> out = PermutationProgram::figures();
    out.push_back({"distribution",
                   "D_w(P): the address groups the writes of each warp touch, summed",
                   static_cast<double>(distribution_w_), ""});
    return out;
  }

  std::vector<Bound> bounds(const MachineConfig& m, const RunResult&) const override {
    const double n = static_cast<double>(n_);
    std::vector<Bound> out =
        round_bounds(m,
                     {.global_rounds = 3 * batches(),
                      .global_stages = 2 * array_groups() + distribution_,
                      .shared_rounds = 0,
                      .shared_dispatches = 0},
                     {.formula = "D_w(P) + 2n/w + 3L - 3",
                      .value = static_cast<double>(distribution_w_) + 2 * n / w() + 3.0 * l() - 3,
                      .source = "Kasagi, Nakano and Ito 2014, the conventional algorithm"},
                     {});
    // Without the barriers, under round robin, the warps' next rounds follow their previous
    // ones through the pipeline: each of the first two rounds takes max(n/w, L) time units.
    const bool one_group_per_row = w_g() % w() == 0;
    if (!separated() && p() == n_ && one_group_per_row && m.dispatch == "round_robin" &&
        m.compute_latency == 0) {
      const double rows = n / w();
      out.push_back({"time_exact",
                     "round robin, the rounds pipelined: warp 0 reads again once the turn comes "
                     "back and its read has completed (D: groups of the writes)",
                     "D + 2*max(n/w, L) + L - 1",
                     static_cast<double>(distribution_) +
                         2 * std::max(rows, static_cast<double>(l())) + l() - 1,
                     Bound::Kind::exact, Bound::Measure::cycles, "docs/semantics.md §3 and §7"});
    }
    return out;
  }

 private:
  std::uint64_t rounds() const override { return 3 * batches(); }

  // The address groups of `width` words that the writes b[P(i)] of each warp touch, summed over
  // the warps (every w consecutive sources are one warp's access).
  std::uint64_t distribution(unsigned width) const {
    std::uint64_t total = 0;
    std::vector<std::uint64_t> groups(w());
    for (std::uint64_t first = 0; first < n_; first += w()) {
      for (unsigned lane = 0; lane < w(); ++lane)
        groups[lane] = (stride() + permutation()[first + lane]) / width;
      std::sort(groups.begin(), groups.end());
      total +=
          static_cast<std::uint64_t>(std::unique(groups.begin(), groups.end()) - groups.begin());
    }
    return total;
  }

  std::uint64_t distribution_ = 0;    // with groups of w_g words: the machine's
  std::uint64_t distribution_w_ = 0;  // with groups of w words: the papers' D_w(P)
};

}  // namespace

ProgramInfo hmm_permute_conventional_program() {
  return {
      "hmm_permute_conventional",
      "the conventional offline permutation on the hierarchical machine: b[p[i]] <- a[i] with "
      "the permutation p in global memory, three rounds per element (read a, read p, write b)",
      "Kasagi, Nakano and Ito 2014",
      PermutationProgram::params({HmmPermutationProgram::rounds_param()}),
      make_program<HmmPermuteConventional>(),
  };
}

}  // namespace mmsim
