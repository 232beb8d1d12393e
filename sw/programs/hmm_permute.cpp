#include <algorithm>
#include <array>
#include <fstream>
#include <numeric>
#include <optional>
#include <vector>

#include "hw/support/errors.hpp"
#include "sw/planning/dmm_plan.hpp"
#include "sw/planning/schedule_file.hpp"
#include "sw/planning/umm_plan.hpp"
#include "sw/programs/hmm_permutation_program.hpp"
#include "sw/programs/hmm_permutation_programs.hpp"

namespace mmsim {
namespace {

// Any permutation of n = 4^k words on the hierarchical machine: Lemma 7 of Nakano 2012 on the
// s x s view (s = sqrt(n)), three row-wise permutations and two transposes, each a pass through
// the shared memories. A transpose is a bit permutation (bit_staging.hpp). A row-wise step keeps
// whole rows in one SM and permutes each by Theorem 6 (Nakano 2012) inside its shared memory: the
// row's elements into buffer X in order, then w at a time in the order of an exact colouring (w
// sources in w banks, w destinations in w banks) into buffer Y, then Y in order out; the colour
// steps are data in global memory (column of the source, column of its destination), read by
// the thread that performs them.
//
// Global memory: a at m[0..n), b one stride on, then the row-wise steps' plans S_0, D_0, S_1,
// D_1, S_2, D_2. The passes go a -> b -> a -> b -> a -> b.
class HmmPermute final : public HmmPermutationProgram {
 public:
  explicit HmmPermute(const ProgramArgs& args) : HmmPermutationProgram("hmm_permute", args) {}

  void configure(const MachineConfig& machine) override {
    HmmPermutationProgram::configure(machine);
    require_powers_of_two("the transposes move the bits of the index");
    if (log2_n() % 2 != 0)
      throw ParamError("n",
                       "hmm_permute views the n words as a sqrt(n) x sqrt(n) matrix (Nakano "
                       "2012, Lemma 7): n = 4^k; " +
                           std::to_string(n_ / 2) + " or " + std::to_string(2 * n_) + " would be");
    side_ = std::uint64_t{1} << (log2_n() / 2);
    if (side_ < w())
      throw ParamError("n", "the rows of sqrt(n) = " + std::to_string(side_) +
                                " words must hold whole warps of w = " + std::to_string(w()) +
                                "; n = " + std::to_string(std::uint64_t{w()} * w()) +
                                " or more would do");
    if (block_threads() % side_ != 0)
      throw ConfigError("threads",
                        "hmm_permute permutes whole rows of sqrt(n) = " + std::to_string(side_) +
                            " words in one SM at a time: p/d = " + std::to_string(block_threads()) +
                            " must be a multiple of it");
    transpose_.emplace(staging_of(BitPermutation::transpose(log2_n()), "the transpose"));
  }

  std::uint64_t memory_words() const override { return 8 * stride(); }
  // Buffers X and Y of a chunk (the transposes use one).
  std::uint64_t shared_words() const override { return 2 * block_threads(); }

  // The permutation, the top level of Lemma 7 at its peak (or a schedule read, as if it were one
  // of the top level's three row-wise steps, and traced through), the plans' columns (4 bytes
  // each), and one row's Theorem 6 plan.
  std::uint64_t host_bytes() const override {
    const auto automatic = planning::ColoringAlgorithm::automatic;
    const std::uint64_t steps = schedule_.empty()
                                    ? 4 * n_ + planning::five_steps_bytes(n_, n_, automatic)
                                    : 12 * n_ + 32 * n_;
    return PermutationProgram::host_bytes() + steps + 24 * n_ +
           planning::dmm_plan_bytes(side_, w(), automatic);
  }

  void prepare() override {
    PermutationProgram::prepare();
    columns_ = timed([&] { return columns(schedule_.empty() ? top_level() : from_schedule()); });
  }

  void initialize(Mmu& memory) override {
    PermutationProgram::initialize(memory);
    for (unsigned k = 0; k < 3; ++k)
      for (Address x = 0; x < n_; ++x) {
        memory.poke(sources_at(k) + x, columns_.source[k][x]);
        memory.poke(targets_at(k) + x, columns_.target[k][x]);
      }
  }

  Task run(Warp& warp) override {
    RoundEnds ends = round_ends(warp);
    co_await row_step(warp, 0, 0, stride(), ends, Need::grid);
    co_await staged_pass(warp, *transpose_, stride(), 0, ends, Need::grid);
    co_await row_step(warp, 1, 0, stride(), ends, Need::grid);
    co_await staged_pass(warp, *transpose_, stride(), 0, ends, Need::grid);
    co_await row_step(warp, 2, 0, stride(), ends, Need::nothing);
  }

  std::vector<Bound> bounds(const MachineConfig& m, const RunResult&) const override {
    const double n = static_cast<double>(n_);
    // Per batch: the row-wise steps 4 global and 4 shared rounds each, the transposes 2 and 2.
    const std::uint64_t global_rounds = (3 * 4 + 2 * 2) * batches();
    const std::uint64_t shared_rounds = (3 * 4 + 2 * 2) * batches();
    const bool other_warps = block_threads() > w();
    return round_bounds(
        m,
        {.global_rounds = global_rounds,
         .global_stages = 16 * array_groups(),
         .shared_rounds = shared_rounds,
         .shared_dispatches = shared_rounds * (block_threads() / w())},
        {.formula = "16n/w + 16n/(kw) + 16L - 16",
         .value = 16 * n / w() + 16 * n / (static_cast<double>(d()) * w()) + 16.0 * l() - 16,
         .source = "Kasagi, Nakano and Ito 2014, any permutation"},
        // Two syncthreads per batch of a row-wise step; one per batch and one between batches
        // of a transpose; a grid_sync between passes.
        {.syncthreads = {.formula = "3*2n/p + 2*(2n/p - 1)",
                         .value = other_warps ? 3 * 2 * batches() + 2 * (2 * batches() - 1) : 0},
         .grid_syncs = {.formula = "4", .value = 4}});
  }

 private:
  std::uint64_t rounds() const override { return (3 * 8 + 2 * 4) * batches(); }
  Address sources_at(unsigned k) const { return (2 + 2 * k) * stride(); }
  Address targets_at(unsigned k) const { return (3 + 2 * k) * stride(); }

  using RowSteps = std::array<std::vector<std::uint32_t>, 3>;

  // The top level of Lemma 7 for P, planned here.
  RowSteps top_level() const {
    const std::vector<std::uint32_t> p(permutation().begin(), permutation().end());
    planning::FiveSteps steps = planning_input("n", [&] { return planning::five_steps(p, n_); });
    return {std::move(steps.first), std::move(steps.middle), std::move(steps.last)};
  }

  // The row-wise steps of a UMM schedule: the steps between its two transposes of side sqrt(n),
  // composed (a plan of mmsim plan --machine umm --width sqrt(n) is the top level itself).
  RowSteps from_schedule() const {
    std::ifstream in = open_schedule(schedule_);
    const planning::UmmPlan plan = planning_input("schedule", [&] {
      return planning::read_umm_schedule(in, schedule_.string(), permutation());
    });
    const auto whole = [&](const planning::UmmStep& step) {
      return step.kind == planning::UmmStep::Kind::transpose && step.length == side_;
    };
    if (const auto transposes = std::count_if(plan.steps.begin(), plan.steps.end(), whole);
        transposes != 2)
      throw ParamError("schedule", schedule_.string() + " has " + std::to_string(transposes) +
                                       " transposes of side sqrt(n) = " + std::to_string(side_) +
                                       "; hmm_permute runs the top level of Lemma 7, two of "
                                       "them (mmsim plan --machine umm --width " +
                                       std::to_string(side_) + " writes one)");
    RowSteps out;
    std::size_t done = 0;
    std::vector<std::uint32_t> at(n_);  // at[y]: where the element now at y was
    std::vector<std::uint32_t> next(n_);
    std::iota(at.begin(), at.end(), 0u);
    // The steps since the last transpose, composed: each element's column in its row.
    const auto finish = [&] {
      std::vector<std::uint32_t>& step = out[done++];
      step.resize(n_);
      for (std::uint64_t y = 0; y < n_; ++y) {
        if (at[y] / side_ != y / side_)
          throw ParamError(
              "schedule", "the steps of " + schedule_.string() +
                              " between its transposes of side sqrt(n) = " + std::to_string(side_) +
                              " move an element to another row (from " + std::to_string(at[y]) +
                              " to " + std::to_string(y) +
                              "); hmm_permute needs row-wise steps between them");
        step[at[y]] = static_cast<std::uint32_t>(y % side_);
      }
      std::iota(at.begin(), at.end(), 0u);
    };
    for (const planning::UmmStep& step : plan.steps) {
      if (whole(step)) {
        finish();
      } else {
        planning::apply_step(step, at, next);
        at.swap(next);
      }
    }
    finish();
    return out;
  }

  // The plans of the row-wise steps as global memory holds them.
  struct Columns {
    RowSteps source;  // source[k][x]: the column the thread at x takes in step k
    RowSteps target;  // target[k][x]: the column it puts it at
  };

  // For every row of every step, Theorem 6's colour steps: the thread at r*s + c*w + j moves
  // the source column of lane j of colour step c of row r to its destination column.
  Columns columns(const RowSteps& steps) const {
    Columns out;
    std::vector<std::uint64_t> row(side_);
    for (unsigned k = 0; k < 3; ++k) {
      out.source[k].resize(n_);
      out.target[k].resize(n_);
      for (std::uint64_t base = 0; base < n_; base += side_) {
        for (std::uint64_t j = 0; j < side_; ++j) row[j] = steps[k][base + j];
        const planning::DmmPlan plan =
            planning_input("n", [&] { return planning::plan_dmm(row, w()); });
        for (std::uint64_t x = 0; x < side_; ++x) {
          out.source[k][base + x] = plan.source[x];
          out.target[k][base + x] = static_cast<std::uint32_t>(row[plan.source[x]]);
        }
      }
    }
    return out;
  }

  // A row-wise step from the array at `from` to the one at `to`: per batch, SM j takes chunk
  // batch * d + j of p/d elements (whole rows); warp i its elements i*w .. i*w + w - 1.
  Task row_step(Warp& warp, unsigned k, Address from, Address to, RoundEnds& ends,
                Need after) const {
    const unsigned w = warp.width();
    const std::uint64_t chunk = block_threads();
    const std::uint64_t local = std::uint64_t{warp.warp_in_block()} * w;  // in the chunk
    const std::uint64_t row = local / side_ * side_;                      // its row's start
    std::vector<Address> global(w);
    std::vector<Address> shared(w);
    std::vector<Word> source_column(w);
    std::vector<Word> target_column(w);
    for (std::uint64_t batch = 0; batch < batches(); ++batch) {
      const std::uint64_t first = (batch * d() + warp.block()) * chunk + local;
      // The colour step this warp performs: its sources' columns, then their destinations'.
      for (unsigned lane = 0; lane < w; ++lane) global[lane] = sources_at(k) + first + lane;
      const auto sources = co_await warp.read(global);
      std::copy(sources.begin(), sources.end(), source_column.begin());
      co_await end_round(warp, ends, Need::nothing);
      for (unsigned lane = 0; lane < w; ++lane) global[lane] = targets_at(k) + first + lane;
      const auto targets = co_await warp.read(global);
      std::copy(targets.begin(), targets.end(), target_column.begin());
      co_await end_round(warp, ends, Need::nothing);
      // Its w elements into X, in order.
      for (unsigned lane = 0; lane < w; ++lane) global[lane] = from + first + lane;
      co_await warp.read(global);
      co_await end_round(warp, ends, Need::nothing);
      for (unsigned lane = 0; lane < w; ++lane) shared[lane] = local + lane;
      co_await warp.write(shared, Space::shared);
      co_await end_round(warp, ends, Need::block);  // other warps read the row
      // The colour step: w sources in w banks of X to w destinations in w banks of Y.
      for (unsigned lane = 0; lane < w; ++lane) shared[lane] = row + source_column[lane];
      co_await warp.read(shared, Space::shared);
      co_await end_round(warp, ends, Need::nothing);
      for (unsigned lane = 0; lane < w; ++lane) shared[lane] = chunk + row + target_column[lane];
      co_await warp.write(shared, Space::shared);
      co_await end_round(warp, ends, Need::block);
      // Y in order, out.
      for (unsigned lane = 0; lane < w; ++lane) shared[lane] = chunk + local + lane;
      co_await warp.read(shared, Space::shared);
      co_await end_round(warp, ends, Need::nothing);
      for (unsigned lane = 0; lane < w; ++lane) global[lane] = to + first + lane;
      co_await warp.write(global);
      // The next batch's X and Y are written after barriers that every reader of these passed.
      co_await end_round(warp, ends, batch + 1 < batches() ? Need::nothing : after);
    }
  }

  std::uint64_t side_ = 1;
  std::optional<BitStaging> transpose_;
  Columns columns_;
};

}  // namespace

ProgramInfo hmm_permute_program() {
  return {
      "hmm_permute",
      "any permutation on the hierarchical machine: Lemma 7's three row-wise permutations and "
      "two transposes of the sqrt(n) x sqrt(n) view, each a pass through shared memory; a row "
      "permuted inside an SM by Theorem 6's colour steps, read from global memory",
      "Kasagi, Nakano and Ito 2014",
      PermutationProgram::params(
          {{"schedule", ParamType::string,
            "a schedule file written by mmsim plan --machine umm (--width sqrt(n): the top "
            "level itself), used instead of planning the row-wise steps here",
            "\"\""},
           HmmPermutationProgram::rounds_param()}),
      make_program<HmmPermute>(),
  };
}

}  // namespace mmsim
