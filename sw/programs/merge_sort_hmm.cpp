#include "sw/programs/merge_sort_hmm.hpp"

#include <algorithm>
#include <bit>

#include "sw/programs/tiled_merge_sort.hpp"

namespace mmsim {
namespace {

// Merge path (Odeh et al. 2012; Green et al. 2012): the first d keys of the merge of sorted A
// and B (L keys each) are A[0 .. i) and B[0 .. d - i) with i found by binary search (A's keys
// first among equals). Each lane finds its own i; the search reads A[mid] and B[d - mid - 1].
struct Diagonals {
  explicit Diagonals(unsigned w) : a(w), b(w), lo(w), hi(w), d(w), record(w), values(w) {}
  std::vector<Address> a, b;
  std::vector<std::uint64_t> lo, hi, d;
  std::vector<Address> record;
  std::vector<Word> values;
};

class MergeSortHmm final : public TiledMergeSort {
 public:
  explicit MergeSortHmm(const ProgramArgs& args) : TiledMergeSort(args, "merge_sort_hmm") {}

  std::uint64_t shared_words() const override {
    return std::max(2 * block(), tile_round_shared_words(block()));
  }
  std::vector<Bound> bounds(const MachineConfig& m, const RunResult&) const override;

 protected:
  std::uint64_t configure_sort(const MachineConfig& m) override {
    require_hierarchical(m);
    return syncs(0) + 2 * rounds();
  }
  // Tiles of exactly `block` keys.
  std::uint64_t tile_spacing() const override { return block(); }

  Task sort_blocks(Warp& warp, BarrierCount& barriers) const override {
    MergeLanes lanes(warp.width());
    for (std::uint64_t b = warp.block(); b < blocks(); b += multiprocessors()) {
      co_await load_pieces(warp, lanes, b * block(), block(), 0, 0, 0);
      if (barriers.keep()) co_await warp.sync();
      Address from = 0;
      for (std::uint64_t run = 1; run < block(); run *= 2) {
        const Address to = block() - from;
        co_await rank_merge(
            warp, lanes,
            {.from = from, .to = to, .pairs = block() / (2 * run), .a = run, .b = run});
        if (barriers.keep()) co_await warp.sync();
        from = to;
      }
      co_await store_keys(warp, lanes, from, runs_after(0) + b * block(), block(), Unpack::none);
      if (barriers.keep()) co_await warp.sync();
    }
  }

  Task cut_tiles(Warp& warp, MergeLanes&, const TileRound& round) const override;

 private:
  // syncthreads of multiprocessor j: per block, one after loading it, one per level, one after
  // storing it; then the rounds' (SM j merges as many tiles per round as it sorts blocks).
  std::uint64_t syncs(unsigned j) const {
    return blocks_of(j) * (log_block() + 2) + round_syncs(j);
  }

  // Binary search for i in [lo, hi): A[i] <= B[d - i - 1] means A's key i comes first.
  static Task corank_search(Warp& warp, Diagonals& lanes, std::uint64_t run);
};

// Record q of pair i: where tile q ends, the diagonal d = (q + 1) * block of the merge.
Task MergeSortHmm::cut_tiles(Warp& warp, MergeLanes&, const TileRound& round) const {
  Diagonals lanes(warp.width());
  const std::uint64_t records = round.pairs * round.tiles;
  for (std::uint64_t first = warp.thread(0); first < records; first += warp.threads()) {
    for (unsigned lane = 0; lane < warp.width(); ++lane) {
      const std::uint64_t record = first + lane;
      if (record >= records) {
        lanes.lo[lane] = lanes.hi[lane] = 0;
        lanes.record[lane] = kInactive;
        continue;
      }
      const std::uint64_t pair = record / round.tiles;
      const std::uint64_t d = (record % round.tiles + 1) * block();
      lanes.d[lane] = d;
      lanes.lo[lane] = d > round.run ? d - round.run : 0;
      lanes.hi[lane] = std::min(d, round.run);
      lanes.record[lane] = round.records + 2 * record;
      lanes.a[lane] = round.src + 2 * pair * round.run;  // A; B follows it
    }
    co_await corank_search(warp, lanes, round.run);
    for (unsigned lane = 0; lane < warp.width(); ++lane)
      lanes.values[lane] = static_cast<Word>(lanes.lo[lane]);
    co_await warp.write(lanes.record, lanes.values);
    for (unsigned lane = 0; lane < warp.width(); ++lane) {
      lanes.values[lane] = static_cast<Word>(lanes.d[lane] - lanes.lo[lane]);
      if (lanes.record[lane] != kInactive) ++lanes.record[lane];
    }
    co_await warp.write(lanes.record, lanes.values);
  }
}

Task MergeSortHmm::corank_search(Warp& warp, Diagonals& lanes, std::uint64_t run) {
  std::vector<Word> a_keys(warp.width());
  for (;;) {
    bool any = false;
    for (unsigned lane = 0; lane < warp.width(); ++lane) {
      const bool active = lanes.lo[lane] < lanes.hi[lane];
      const std::uint64_t mid = (lanes.lo[lane] + lanes.hi[lane]) / 2;
      lanes.b[lane] = active ? lanes.a[lane] + mid : kInactive;
      any |= active;
    }
    if (!any) co_return;
    const auto a = co_await warp.read(lanes.b);
    std::copy(a.begin(), a.end(), a_keys.begin());
    for (unsigned lane = 0; lane < warp.width(); ++lane)
      if (lanes.b[lane] != kInactive) {
        const std::uint64_t mid = (lanes.lo[lane] + lanes.hi[lane]) / 2;
        lanes.b[lane] = lanes.a[lane] + run + (lanes.d[lane] - mid - 1);
      }
    const auto b = co_await warp.read(lanes.b);
    for (unsigned lane = 0; lane < warp.width(); ++lane) {
      if (lanes.b[lane] == kInactive) continue;
      const std::uint64_t mid = (lanes.lo[lane] + lanes.hi[lane]) / 2;
      if (a_keys[lane] <= b[lane])
        lanes.lo[lane] = mid + 1;
      else
        lanes.hi[lane] = mid;
    }
  }
}

std::vector<Bound> MergeSortHmm::bounds(const MachineConfig& m, const RunResult&) const {
  return {
      io_lower_bound(m.global_words_per_group(), m.latency),
      global_lower_bound(m),
      {"syncthreads_exact",
       "syncthreads of multiprocessor 0: per block log2(block) + 2, per tile of each round 4",
       "(n/(d*block)) (log2(block) + 2 + 4R)", static_cast<double>(syncs(0)), Bound::Kind::exact,
       Bound::Measure::syncthreads, "merge_sort_hmm.cpp"},
      grid_syncs_bound(),
  };
}

}  // namespace

ProgramInfo merge_sort_hmm_program() {
  return sort_program_info<MergeSortHmm>(
      "merge_sort_hmm",
      "blocks sorted in shared memory by merges by ranks, then rounds of merge-path merges "
      "through global memory",
      "the GPGPU thesis (hierarchical model); merge path (Odeh et al. 2012)");
}

}  // namespace mmsim
