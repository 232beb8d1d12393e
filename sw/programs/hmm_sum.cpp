#include <algorithm>
#include <cmath>

#include "sw/program/input_values.hpp"
#include "sw/program/word_arithmetic.hpp"
#include "sw/programs/block_steps.hpp"
#include "sw/programs/hmm_program.hpp"
#include "sw/programs/hmm_programs.hpp"

namespace mmsim {
namespace {

constexpr const char* kSource = "Nakano 2013 (the HMM), abstract";

class HmmSum final : public HmmProgram {
 public:
  explicit HmmSum(const ProgramArgs& args)
      : HmmProgram("hmm_sum"), input_(args.params, args.base_dir) {}

  void configure(const MachineConfig& machine) override {
    HmmProgram::configure(machine);
    const std::uint64_t n = input_.size();
    summing_blocks_ = std::min<std::uint64_t>(d(), (n + block_threads() - 1) / block_threads());
    partials_ = align(n);
    result_ = align(partials_ + (summing_blocks_ > 1 ? summing_blocks_ : 0));
  }

  std::uint64_t memory_words() const override { return result_ + 1; }
  std::uint64_t shared_words() const override { return block_threads(); }
  // The n numbers, made by prepare().
  std::uint64_t host_bytes() const override { return input_.bytes(); }
  void prepare() override { values_ = input_.make(); }

  void initialize(Mmu& memory) override {
    memory.fill(values_.size(), [values = values_.data()](Address a) { return values[a]; });
  }

  Task run(Warp& warp) override {
    const std::uint64_t n = input_.size();
    BlockLanes lanes(warp.width());
    std::vector<Word> sums(warp.width(), 0);
    // Every thread adds up its numbers m[g], m[g + p], ... (g its global number) in its
    // register: each round's reads are p consecutive words, coalesced. A round where every lane
    // has a number (all but the last) is one run (LaneRun): nothing written out per lane.
    for (Address round = 0; round < n; round += p()) {
      const Address first = round + warp.thread(0);
      const bool whole = first < n && n - first >= warp.width();
      if (!whole && !lanes_in_range(lanes.addresses, warp.thread(0), 0, n - round, round)) break;
      const auto got = co_await (whole ? warp.read(LaneRun{first}) : warp.read(lanes.addresses));
      if (whole)
        add_all(sums, got);
      else
        add_read(sums, got, lanes.addresses);
    }
    const unsigned block = warp.block();
    co_await block_tree(warp, lanes, sums, 0, numbers_held(block), 1);
    if (summing_blocks_ == 1) {
      if (block == 0) co_await write_thread_zero(warp, lanes, result_, sums[0]);
      co_return;
    }
    if (block < summing_blocks_)
      co_await write_thread_zero(warp, lanes, partials_ + block, sums[0]);
    co_await warp.grid_sync();  // the partial sums cross blocks: a kernel boundary
    if (block != 0) co_return;
    std::fill(sums.begin(), sums.end(), 0);
    for (std::uint64_t done = 0; done < summing_blocks_; done += block_threads()) {
      if (!lanes_in_range(lanes.addresses, warp.block_thread(0), 0, summing_blocks_ - done,
                          partials_ + done))
        break;
      add_read(sums, co_await warp.read(lanes.addresses), lanes.addresses);
    }
    co_await block_tree(warp, lanes, sums, 0, std::min(summing_blocks_, block_threads()), 1);
    co_await write_thread_zero(warp, lanes, result_, sums[0]);
  }

  void verify(const Mmu& memory) override {
    // SM j's threads hold the numbers of [j*p/d, (j + 1)*p/d) in every round of p numbers.
    std::vector<Word> partial(d(), 0);
    for (Address round = 0; round < values_.size(); round += p())
      for (unsigned j = 0; j < d(); ++j) {
        const Address from = std::min<Address>(round + j * block_threads(), values_.size());
        const Address to = std::min<Address>(from + block_threads(), values_.size());
        Word sum = partial[j];
        for (Address i = from; i < to; ++i) sum = wrapping_add(sum, values_[i]);
        partial[j] = sum;
      }
    if (summing_blocks_ > 1)
      for (unsigned j = 0; j < summing_blocks_; ++j)
        verification().expect_equal(memory.peek(partials_ + j), partial[j], [&] {
          return "the partial sum of SM " + std::to_string(j) + " (m[" +
                 std::to_string(partials_ + j) + "])";
        });
    Word total = 0;
    for (const Word sum : partial) total = wrapping_add(total, sum);
    verification().expect_equal(memory.peek(result_), total,
                                [this] { return "the sum (m[" + std::to_string(result_) + "])"; });
  }

  std::vector<Bound> bounds(const MachineConfig& machine, const RunResult&) const override;

 private:
  // Threads of `block` that read a number, whose registers its tree adds up.
  std::uint64_t numbers_held(unsigned block) const {
    const std::uint64_t before = std::uint64_t{block} * block_threads();
    return input_.size() > before ? std::min(block_threads(), input_.size() - before) : 0;
  }

  // Block thread 0 writes `value` to global m[at].
  static Task write_thread_zero(Warp& warp, BlockLanes& lanes, Address at, Word value) {
    if (warp.warp_in_block() != 0) co_return;
    std::fill(lanes.addresses.begin(), lanes.addresses.end(), kInactive);
    lanes.addresses[0] = at;
    std::vector<Word> values(warp.width(), value);
    co_await warp.write(lanes.addresses, values);
  }

  InputValues input_;
  std::vector<Word> values_;          // made by prepare()
  std::uint64_t summing_blocks_ = 1;  // blocks that hold numbers: min(d, ceil(n/(p/d)))
  Address partials_ = 0;              // their partial sums, when there are several
  Address result_ = 0;
};

std::vector<Bound> HmmSum::bounds(const MachineConfig& machine, const RunResult&) const {
  const std::uint64_t n = input_.size();
  const double nn = static_cast<double>(n);
  const double ll = l();
  const std::uint64_t blocks = summing_blocks_;
  const bool several = blocks > 1;
  std::vector<Bound> out;
  out.push_back(
      {"time_lower",
       "lower bound: the n words take ceil(n/w_g) groups of the global pipeline, some thread "
       "reads ceil(n/p) of them one after another, and the sum is written after the last read",
       "max(ceil(n/w_g) + 2l - 1, (ceil(n/p) + 1)*l)",
       std::max(std::ceil(nn / w_g()) + 2 * ll - 1, (std::ceil(nn / p()) + 1) * ll),
       Bound::Kind::lower, Bound::Measure::cycles, "docs/semantics.md §3 and §7"});
  out.push_back({"time_order",
                 "the optimal sum on the HMM, O(n/w + nl/p + l + log n), constant 1 (global "
                 "traffic in groups of w_g words)",
                 "n/w_g + n*l/p + l + log2(n)", nn / w_g() + nn * ll / p() + ll + std::log2(nn),
                 Bound::Kind::order, Bound::Measure::cycles, kSource});
  std::uint64_t global = coalesced_groups(0, n) + 1;
  if (several) global += blocks + coalesced_groups(partials_, blocks);
  out.push_back({"global_stages_exact",
                 "global stage groups: the coalesced reads of the numbers, " +
                     std::string(several ? "the partial sums written and read back, " : "") +
                     "the sum written",
                 several ? "groups(n) + D + groups(D) + 1, D = " + std::to_string(blocks) +
                               " blocks holding numbers"
                         : "groups(n) + 1",
                 static_cast<double>(global), Bound::Kind::exact, Bound::Measure::global_stages,
                 "docs/semantics.md §7"});
  if (contiguous_shared_is_conflict_free(machine)) {
    std::uint64_t shared = 0;
    for (unsigned j = 0; j < d(); ++j) shared += block_tree_dispatches(numbers_held(j), 1, w());
    if (several) shared += block_tree_dispatches(std::min(blocks, block_threads()), 1, w());
    out.push_back({"shared_stages_exact",
                   "shared stage groups: one per dispatch of the trees (consecutive words)",
                   "dispatches of the block trees", static_cast<double>(shared), Bound::Kind::exact,
                   Bound::Measure::shared_stages, "docs/semantics.md §7"});
  }
  const std::uint64_t syncs =
      block_tree_syncs(numbers_held(0), 1, w()) +
      (several ? block_tree_syncs(std::min(blocks, block_threads()), 1, w()) : 0);
  out.push_back({"syncthreads_exact",
                 "syncthreads of SM 0: the levels of more than w values of its tree" +
                     std::string(several ? "s (its numbers, then the partial sums)" : ""),
                 "#{tree levels > w}", static_cast<double>(syncs), Bound::Kind::exact,
                 Bound::Measure::syncthreads, "docs/semantics.md §7"});
  out.push_back({"grid_syncs_exact", "grid_syncs: one before SM 0 adds up the partial sums",
                 several ? "1" : "0 (one block holds every number)", several ? 1.0 : 0.0,
                 Bound::Kind::exact, Bound::Measure::grid_syncs, "docs/semantics.md §7"});
  return out;
}

}  // namespace

ProgramInfo hmm_sum_program() {
  return {
      "hmm_sum",
      "sum on the hierarchical machine: every thread adds up n/p numbers read coalesced, each "
      "SM adds up its threads' sums by a tree in shared memory, grid_sync, SM 0 adds up the d "
      "partial sums",
      kSource,
      input_value_params(),
      make_program<HmmSum>(),
  };
}

}  // namespace mmsim
