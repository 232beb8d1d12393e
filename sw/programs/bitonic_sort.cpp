#include "sw/programs/bitonic_sort.hpp"

#include <algorithm>
#include <bit>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/memory/address_maps.hpp"
#include "sw/programs/bitonic_network.hpp"

namespace mmsim {
namespace {

KeyLayout parse_layout(const std::string& layout) {
  if (layout == "plain") return KeyLayout::plain;
  if (layout == "conflict_free") return KeyLayout::conflict_free;
  throw ParamError("layout", "expected plain or conflict_free, got '" + layout + "'");
}

class BitonicSort final : public SortProgram {
 public:
  explicit BitonicSort(const ProgramArgs& args)
      : SortProgram(args, "bitonic_sort"), layout_(parse_layout(args.params.string("layout"))) {}

  std::uint64_t shared_words() const override { return hierarchical() ? block() : 0; }

  Task run(Warp& warp) override {
    BitonicLanes lanes(warp.width());
    BarrierCount barriers(drop_sync());
    if (!hierarchical()) {
      co_await bitonic_run(warp, lanes, whole_network(warp), barriers);
      co_return;
    }
    const unsigned b = log_block();
    co_await sort_blocks(warp, lanes, bitonic_steps(1, b, 1, block()), barriers);
    for (unsigned k = b + 1; k <= log_n(); ++k) {
      if (barriers.keep()) co_await warp.grid_sync();
      co_await bitonic_run(warp, lanes, global_steps(warp, k), barriers);
      if (barriers.keep()) co_await warp.grid_sync();
      co_await sort_blocks(warp, lanes, bitonic_steps(k, k, 1, block() / 2), barriers);
    }
  }

  std::vector<Bound> bounds(const MachineConfig& m, const RunResult&) const override;
  std::vector<ProgramFigure> figures() const override {
    const double steps = static_cast<double>(log_n()) * (log_n() + 1) / 2;
    return {{"steps", "depth of the network: m(m+1)/2 steps, m = log2(n)", steps, "steps"}};
  }

 protected:
  // One thread per comparator.
  std::uint64_t flat_threads(const MachineConfig& m) const override {
    return std::max<std::uint64_t>(n() / 2, m.width);
  }

  std::uint64_t configure_sort(const MachineConfig& m) override {
    w_ = m.width;
    if (layout_ == KeyLayout::conflict_free && !std::has_single_bit(w_))
      throw ParamError("layout", "conflict_free swizzles rows of w keys: w = " +
                                     std::to_string(w_) + " must be a power of two");
    if (!hierarchical()) return bitonic_run_barriers(bitonic_steps(1, log_n(), 1, n()), w_);
    return sync_count(0) + grid_sync_count();
  }

 private:
  BitonicRun whole_network(const Warp& warp) const {
    return {.steps = bitonic_steps(1, log_n(), 1, n()),
            .space = Space::global,
            .keys = n(),
            .thread = warp.thread(0),
            .threads = warp.threads(),
            .layout = layout_,
            .output_layout = KeyLayout::plain,
            .scope = BarrierScope::block};
  }

  // The steps of phase k with distance >= block, over the whole array in global memory.
  BitonicRun global_steps(const Warp& warp, unsigned k) const {
    return {.steps = bitonic_steps(k, k, block(), n()),
            .space = Space::global,
            .keys = n(),
            .thread = warp.thread(0),
            .threads = warp.threads(),
            .scope = BarrierScope::grid};
  }

  // Lanes of a copy between block keys first .. first + w - 1 in global memory (lo) and shared
  // memory (hi).
  void block_lanes(std::uint64_t offset, std::uint64_t first, unsigned log_w,
                   BitonicLanes& lanes) const {
    for (std::size_t lane = 0; lane < lanes.lo.size(); ++lane) {
      const bool in = first + lane < block();
      lanes.lo[lane] = in ? offset + first + lane : kInactive;
      lanes.hi[lane] = in ? key_address(0, first + lane, layout_, log_w) : kInactive;
    }
  }

  // `steps` on every block of this multiprocessor: load it into shared memory, run them, store
  // it back.
  Task sort_blocks(Warp& warp, BitonicLanes& lanes, std::vector<BitonicStep> steps,
                   BarrierCount& barriers) const {
    BitonicRun run{.steps = std::move(steps),
                   .space = Space::shared,
                   .keys = block(),
                   .thread = warp.block_thread(0),
                   .threads = block_threads(),
                   .layout = layout_,
                   .output_layout = layout_,
                   .scope = BarrierScope::block};
    const unsigned log_w = static_cast<unsigned>(std::countr_zero(w_));
    for (std::uint64_t b = warp.block(); b < blocks(); b += multiprocessors()) {
      run.offset = b * block();
      for (std::uint64_t first = run.thread; first < block(); first += block_threads()) {
        block_lanes(run.offset, first, log_w, lanes);
        const auto keys = co_await warp.read(lanes.lo);
        std::copy(keys.begin(), keys.end(), lanes.lo_value.begin());
        co_await warp.write(lanes.hi, lanes.lo_value, Space::shared);
      }
      if (barriers.keep()) co_await warp.sync();
      co_await bitonic_run(warp, lanes, run, barriers);
      if (barriers.keep()) co_await warp.sync();
      for (std::uint64_t first = run.thread; first < block(); first += block_threads()) {
        block_lanes(run.offset, first, log_w, lanes);
        const auto keys = co_await warp.read(lanes.hi, Space::shared);
        std::copy(keys.begin(), keys.end(), lanes.lo_value.begin());
        co_await warp.write(lanes.lo, lanes.lo_value);
      }
      if (barriers.keep()) co_await warp.sync();
    }
  }

  // syncthreads of multiprocessor j (the hierarchical machine): per block, three around the
  // shared-memory steps and those between them, in the first pass and in every later phase.
  std::uint64_t sync_count(unsigned j) const {
    const std::uint64_t mine = blocks_of(j);
    std::uint64_t syncs =
        mine * (3 + bitonic_run_barriers(bitonic_steps(1, log_block(), 1, block()), w_));
    for (unsigned k = log_block() + 1; k <= log_n(); ++k)
      syncs += mine * (3 + bitonic_run_barriers(bitonic_steps(k, k, 1, block() / 2), w_));
    return syncs;
  }

  // grid_syncs: around the global steps of each later phase, and between them (but for steps
  // that stay within warps, when the block is below 2w keys).
  std::uint64_t grid_sync_count() const {
    std::uint64_t syncs = 0;
    for (unsigned k = log_block() + 1; k <= log_n(); ++k)
      syncs += 2 + bitonic_run_barriers(bitonic_steps(k, k, block(), n()), w_);
    return syncs;
  }

  KeyLayout layout_;
  unsigned w_ = 1;
};

std::vector<Bound> BitonicSort::bounds(const MachineConfig& m, const RunResult&) const {
  const double nn = static_cast<double>(n());
  const double steps = static_cast<double>(log_n()) * (log_n() + 1) / 2;
  std::vector<Bound> out;
  if (!hierarchical()) {
    out.push_back(io_lower_bound(m.width, m.latency));
    const double p = static_cast<double>(m.threads);
    out.push_back({"time_order",
                   "every step reads and writes every key: n/w stages of each of 4 accesses, and "
                   "n/(2p) comparators per thread, 4 accesses each",
                   "m(m+1)/2 * (2n/w + 2nl/p), m = log2(n)",
                   steps * (2 * nn / m.width + 2 * nn * m.latency / p), Bound::Kind::order,
                   Bound::Measure::cycles, "Nakano 2012, Table I"});
    out.push_back({"syncthreads_exact",
                   "a syncthreads between two steps unless both have j <= w (warp-synchronous)",
                   "m(m+1)/2 - 1 - (transitions between steps of j <= w)",
                   static_cast<double>(bitonic_run_barriers(bitonic_steps(1, log_n(), 1, n()), w_)),
                   Bound::Kind::exact, Bound::Measure::syncthreads, "bitonic_network.hpp"});
    // Steps with j < w touch two rows of a 2w-key segment: on the UMM two address groups; on
    // the DMM w/2 banks twice (plain) or w distinct banks (conflict_free).
    const Splitting splitting = machine_model(m).memory.splitting;
    const bool dmm =
        splitting == Splitting::banked && address_map_of(m).identity && m.super_warp == 1;
    if ((dmm || splitting == Splitting::coalesced) && n() / 2 % m.width == 0) {
      double small = 0;
      for (const BitonicStep& s : bitonic_steps(1, log_n(), 1, n())) small += s.j < m.width;
      if (dmm && layout_ == KeyLayout::conflict_free)
        out.push_back({"congestion_exact",
                       "total congestion: 4 accesses of n/(2w) warps per step, all conflict-free "
                       "but the last step's two writes to plain places (congestion 2)",
                       "(2n/w) * m(m+1)/2 + n/w", 2 * nn / m.width * steps + nn / m.width,
                       Bound::Kind::exact, Bound::Measure::stages, "Nakano 2012, section II"});
      else
        out.push_back({"congestion_exact",
                       "total congestion: 4 accesses of n/(2w) warps per step; those of the S "
                       "steps with j < w touch two rows (congestion 2)",
                       "(2n/w) * (m(m+1)/2 + S)", 2 * nn / m.width * (steps + small),
                       Bound::Kind::exact, Bound::Measure::stages, "Nakano 2012, section II"});
    }
    return out;
  }
  out.push_back(io_lower_bound(m.global_words_per_group(), m.latency));
  double global_steps = 0;
  for (unsigned k = log_block() + 1; k <= log_n(); ++k) global_steps += k - log_block();
  const double passes = 1 + log_n() - log_block();
  const double groups = 2 * (global_steps + passes) * nn / m.global_words_per_group();
  out.push_back({"global_lower",
                 "the algorithm's own global traffic: every global step and every pass of the "
                 "blocks through shared memory reads and writes all n keys",
                 "2(G + P) n/w_g + l - 1, G global steps, P block passes", groups + m.latency - 1,
                 Bound::Kind::lower, Bound::Measure::cycles, "docs/semantics.md §7"});
  out.push_back({"syncthreads_exact",
                 "syncthreads of multiprocessor 0: three per block and pass, and those between "
                 "shared-memory steps",
                 "per block and pass: 3 + barriers between its steps",
                 static_cast<double>(sync_count(0)), Bound::Kind::exact,
                 Bound::Measure::syncthreads, "bitonic_sort.cpp"});
  out.push_back({"grid_syncs_exact",
                 "grid_syncs: before and after the global steps of each phase k > log2(block), "
                 "and between them",
                 "sum over k = b+1 .. m of (k - b + 1), b = log2(block) >= log2(2w)",
                 static_cast<double>(grid_sync_count()), Bound::Kind::exact,
                 Bound::Measure::grid_syncs, "bitonic_sort.cpp"});
  return out;
}

}  // namespace

ProgramInfo bitonic_sort_program() {
  return sort_program_info<BitonicSort>(
      "bitonic_sort",
      "Batcher's bitonic sorting network in place; on the HMM blocks in shared memory, then "
      "merge steps through global memory",
      "Batcher 1968; Nakano 2012 (DMM, UMM); the GPGPU thesis (hierarchical model)",
      {{"layout", ParamType::string,
        "plain | conflict_free (keys XOR-swizzled per row: no bank conflicts on a DMM)", "plain"}});
}

}  // namespace mmsim
