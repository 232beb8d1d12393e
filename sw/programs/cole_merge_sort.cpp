#include "sw/programs/cole_merge_sort.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <memory>

#include "hw/support/errors.hpp"
#include "hw/support/vector_isa.hpp"
#include "sw/programs/cole_plan.hpp"
#include "sw/programs/tiled_merge_sort.hpp"

namespace mmsim {
namespace {

// A warp's buffers for Cole's stages: per lane its key (an item), the node and side it belongs
// to, its index k in its sample, and the ranks it works out.
struct ColeLanes {
  explicit ColeLanes(unsigned w)
      : address(w), value(w), item(w), node(w), k(w), rank(w), lo(w), hi(w), other(w), side(w) {}
  std::vector<Address> address;
  std::vector<Word> value;
  std::vector<Word> item;
  std::vector<std::uint64_t> node, k, rank, lo, hi, other;
  std::vector<unsigned char> side;
};

// The keys of a sample SUP(x) = every d-th key of L(x): key j is L(x)[d*j + d - 1] (Reduce
// keeps z4, z8, ...).
inline std::uint64_t sampled(std::uint64_t j, unsigned d) { return d * j + d - 1; }

class ColeMergeSort final : public TiledMergeSort {
 public:
  explicit ColeMergeSort(const ProgramArgs& args) : TiledMergeSort(args, "cole_merge_sort") {
    if (args.params.integer("key_bits") != 32)
      throw ParamError("key_bits",
                       "cole_merge_sort sorts 32-bit keys: it makes them distinct as items key << "
                       "32 | index in one 64-bit word");
    if (n() > (std::uint64_t{1} << 32))
      throw ParamError("n", "cole_merge_sort numbers its keys with 32 bits: n <= 2^32");
  }

  std::uint64_t shared_words() const override {
    return std::max(plan_->words(), tile_round_shared_words(block()));
  }

  std::vector<Bound> bounds(const MachineConfig& m, const RunResult&) const override;
  std::vector<ProgramFigure> figures() const override {
    return {
        {"stages", "Cole's stages per block, 3 log2(block)", static_cast<double>(plan_->stages()),
         "stages"},
        {"rounds", "merge rounds through global memory, log2(n/block)",
         static_cast<double>(rounds()), "rounds"},
        {"longest_scan",
         "the most keys one thread compared to place one key (good samplers: at most 4)",
         static_cast<double>(longest_scan_), "keys"},
        {"longest_scatter",
         "the most ranks one key handed on to one sample in one stage (covers: at most 4)",
         static_cast<double>(longest_scatter_), "ranks"},
    };
  }

 protected:
  std::uint64_t configure_sort(const MachineConfig& m) override {
    require_hierarchical(m);
    plan_ = std::make_unique<ColePlan>(log_block());
    return syncs(0) + 2 * rounds();
  }
  // The sample spacing s: a piece between two splitters holds at most s keys of each run, so a
  // tile (two pieces) fits the block's room in shared memory.
  std::uint64_t tile_spacing() const override { return std::max<std::uint64_t>(block() / 2, 1); }
  Unpack output() const override { return Unpack::key_of_item; }

  Task sort_blocks(Warp& warp, BarrierCount& barriers) const override {
    ColeLanes lanes(warp.width());
    for (std::uint64_t b = warp.block(); b < blocks(); b += multiprocessors())
      co_await sort_block(warp, lanes, b, barriers);
  }
  Task cut_tiles(Warp& warp, MergeLanes& lanes, const TileRound& round) const override {
    return rank_samples(warp, lanes, round);
  }

 private:
  // syncthreads of multiprocessor j: per block one after loading it, three per stage, one after
  // storing it; then the rounds'.
  std::uint64_t syncs(unsigned j) const {
    return blocks_of(j) * (3 * plan_->stages() + 2) + round_syncs(j);
  }

  Task sort_block(Warp& warp, ColeLanes& lanes, std::uint64_t b, BarrierCount& barriers) const;
  // Every lane with a key (node not kInactive) counts the keys of a sorted sample below its item
  // from index `other` on, stopping at the first one not below it or at `hi`: `other` ends as
  // the item's rank in the sample. key_address(lane) is where the sample's key `other` lies.
  template <class KeyAddress>
  Task count_below(Warp& warp, ColeLanes& lanes, KeyAddress key_address) const;
  Task merge_with_help(Warp& warp, ColeLanes& lanes, const ColeLevelStage& l) const;
  Task rank_help(Warp& warp, ColeLanes& lanes, const ColeLevelStage& l) const;
  Task hand_on_ranks(Warp& warp, ColeLanes& lanes, const ColeLevelStage& l) const;
  Task rank_samples(Warp& warp, MergeLanes& lanes, const TileRound& round) const;

  std::unique_ptr<ColePlan> plan_;
  mutable std::uint64_t longest_scan_ = 0;
  mutable std::uint64_t longest_scatter_ = 0;
};

// Step 1 for one block: its keys become the leaves (items key << 32 | index), then the stages of
// the tree, then the root's list goes to global memory.
Task ColeMergeSort::sort_block(Warp& warp, ColeLanes& lanes, std::uint64_t b,
                               BarrierCount& barriers) const {
  const std::uint64_t first_key = b * block();
  for (std::uint64_t e0 = warp.block_thread(0); e0 < block(); e0 += warp.block_threads()) {
    for_each_lane(warp.width(), [&](std::size_t lane) {
      lanes.address[lane] = e0 + lane < block() ? first_key + e0 + lane : kInactive;
    });
    const auto keys = co_await warp.read(lanes.address);
    for_each_lane(warp.width(), [&](std::size_t lane) {
      lanes.value[lane] = item_of_key(keys[lane], first_key + e0 + lane);
      if (lanes.address[lane] != kInactive) lanes.address[lane] = e0 + lane;  // leaf e0 + lane
    });
    co_await warp.write(lanes.address, lanes.value, Space::shared);
  }
  if (barriers.keep()) co_await warp.sync();
  for (unsigned s = 1; s <= plan_->stages(); ++s) {
    for (const ColeLevelStage& l : plan_->at(s)) co_await merge_with_help(warp, lanes, l);
    if (barriers.keep()) co_await warp.sync();
    for (const ColeLevelStage& l : plan_->at(s))
      if (l.prepares) co_await rank_help(warp, lanes, l);
    if (barriers.keep()) co_await warp.sync();
    for (const ColeLevelStage& l : plan_->at(s))
      if (l.prepares) co_await hand_on_ranks(warp, lanes, l);
    if (barriers.keep()) co_await warp.sync();
  }
  MergeLanes store(warp.width());
  co_await store_keys(warp, store, plan_->root(), runs_after(0) + first_key, block(),
                      block_output());
  if (barriers.keep()) co_await warp.sync();
}

// The lanes' keys of one round of a phase over the keys of SUP_s(x) and SUP_s(y) of every node
// of level l: node, side (0: x, 1: y) and index k in the sample; false when no lane has one.
bool sample_lanes(const ColeLevelStage& l, std::uint64_t first, ColeLanes& lanes) {
  const std::uint64_t keys = l.nodes * l.size;
  const unsigned log_size = static_cast<unsigned>(std::countr_zero(l.size));
  for (std::size_t lane = 0; lane < lanes.address.size(); ++lane) {
    const std::uint64_t id = first + lane;
    if (id >= keys) {
      lanes.node[lane] = kInactive;
      continue;
    }
    const std::uint64_t within = id & (l.size - 1);
    lanes.node[lane] = id >> log_size;
    lanes.side[lane] = within >= l.half;
    lanes.k[lane] = within - lanes.side[lane] * l.half;
  }
  return first < keys;
}

// Address of key j of SUP_s(child) (side 0: x, 1: y) of the lane's node, from L_{s-1}(child).
inline Address prev_sample(const ColeLevelStage& l, std::uint64_t node, unsigned side,
                           std::uint64_t j) {
  return l.child_prev_list + (2 * node + side) * l.child_prev_size + sampled(j, l.divisor);
}
// ... of SUP_{s+1}(child), from L_s(child).
inline Address next_sample(const ColeLevelStage& l, std::uint64_t node, unsigned side,
                           std::uint64_t j) {
  return l.child_list + (2 * node + side) * l.child_size + sampled(j, l.next_divisor);
}

// Reads into lanes.value the word at lanes.address of each lane whose `want` holds; the others
// are inactive.
template <class Want>
Task read_where(Warp& warp, ColeLanes& lanes, Want want) {
  for_each_lane(lanes.address.size(), [&](std::size_t lane) {
    if (!want(lane)) lanes.address[lane] = kInactive;
  });
  const auto got = co_await warp.read(lanes.address, Space::shared);
  std::copy(got.begin(), got.end(), lanes.value.begin());
}

template <class KeyAddress>
Task ColeMergeSort::count_below(Warp& warp, ColeLanes& lanes, KeyAddress key_address) const {
  for (std::uint64_t step = 0;; ++step) {
    bool any = false;
    for_each_lane(lanes.address.size(), [&](std::size_t lane) {
      const bool scan = lanes.node[lane] != kInactive && lanes.other[lane] < lanes.hi[lane];
      lanes.address[lane] = scan ? key_address(lane) : kInactive;
      any |= scan;
    });
    if (!any) {
      longest_scan_ = std::max(longest_scan_, step);
      co_return;
    }
    const auto got = co_await warp.read(lanes.address, Space::shared);
    for_each_lane(lanes.address.size(), [&](std::size_t lane) {
      if (lanes.address[lane] == kInactive) return;
      if (got[lane] < lanes.item[lane])
        ++lanes.other[lane];
      else
        lanes.hi[lane] = lanes.other[lane];  // stop
    });
  }
}

// Ranks read from shared memory are clamped to their array's size: a deliberately broken variant
// (drop_sync) then reads wrong keys instead of leaving the memory.
//
// Phase A, Merge_with_help(SUP_s(x), SUP_s(y), L_{s-1}(v)): a key e of SUP_s(x) reads its rank r
// in L_{s-1}(v) (R_{s-1}); the keys of SUP_s(y) between L_{s-1}(v)[r-1] and L_{s-1}(v)[r] are
// U_{s-1}[r-1] .. U_{s-1}[r] - 1 (at most 4: L_{s-1}(v) is a good sampler of SUP_s(y)), and e
// counts those below it: its rank c in SUP_s(y). e goes to L_s(v)[k + c]; c is kept (C).
Task ColeMergeSort::merge_with_help(Warp& warp, ColeLanes& lanes, const ColeLevelStage& l) const {
  const std::size_t w = warp.width();
  const bool help = l.prev_size > 0;
  for (std::uint64_t first = warp.block_thread(0); sample_lanes(l, first, lanes);
       first += warp.block_threads()) {
    const auto active = [&](std::size_t lane) { return lanes.node[lane] != kInactive; };
    for_each_lane(w, [&](std::size_t lane) {
      if (active(lane))
        lanes.address[lane] = prev_sample(l, lanes.node[lane], lanes.side[lane], lanes.k[lane]);
    });
    co_await read_where(warp, lanes, active);
    std::copy(lanes.value.begin(), lanes.value.end(), lanes.item.begin());
    // r, then the range of the other sample's keys in r's interval of the help list.
    for_each_lane(w, [&](std::size_t lane) {
      lanes.rank[lane] = 0;
      lanes.lo[lane] = 0;
      lanes.hi[lane] = l.half;
      if (active(lane))
        lanes.address[lane] = l.prev_ranks + lanes.node[lane] * 2 * l.half +
                              lanes.side[lane] * l.half + lanes.k[lane];
    });
    if (help) {
      co_await read_where(warp, lanes, active);
      for_each_lane(w, [&](std::size_t lane) {
        if (!active(lane)) return;
        lanes.rank[lane] = std::min(static_cast<std::uint64_t>(lanes.value[lane]), l.prev_size);
        lanes.address[lane] = l.prev_help + lanes.node[lane] * 2 * l.prev_size +
                              (1 - lanes.side[lane]) * l.prev_size + lanes.rank[lane];
        lanes.address[lane] -= 1;  // U[r - 1]
      });
      co_await read_where(warp, lanes,
                          [&](std::size_t lane) { return active(lane) && lanes.rank[lane] > 0; });
      for_each_lane(w, [&](std::size_t lane) {
        if (!active(lane)) return;
        if (lanes.rank[lane] > 0)
          lanes.lo[lane] = std::min(static_cast<std::uint64_t>(lanes.value[lane]), l.half);
        lanes.address[lane] = l.prev_help + lanes.node[lane] * 2 * l.prev_size +
                              (1 - lanes.side[lane]) * l.prev_size + lanes.rank[lane];
      });
      co_await read_where(warp, lanes, [&](std::size_t lane) {
        return active(lane) && lanes.rank[lane] < l.prev_size;
      });
      for_each_lane(w, [&](std::size_t lane) {
        if (active(lane) && lanes.rank[lane] < l.prev_size)
          lanes.hi[lane] = std::min(static_cast<std::uint64_t>(lanes.value[lane]), l.half);
      });
    }
    // Count the other sample's keys of the range below e.
    for_each_lane(w, [&](std::size_t lane) { lanes.other[lane] = lanes.lo[lane]; });
    co_await count_below(warp, lanes, [&](std::size_t lane) {
      return prev_sample(l, lanes.node[lane], 1 - lanes.side[lane], lanes.other[lane]);
    });
    // e to L_s(v)[k + c]; c to C.
    for_each_lane(w, [&](std::size_t lane) {
      lanes.address[lane] =
          active(lane) ? l.list + lanes.node[lane] * l.size + lanes.k[lane] + lanes.other[lane]
                       : kInactive;
    });
    co_await warp.write(lanes.address, lanes.item, Space::shared);
    for_each_lane(w, [&](std::size_t lane) {
      lanes.value[lane] = static_cast<Word>(lanes.other[lane]);
      if (active(lane))
        lanes.address[lane] =
            l.cross + lanes.node[lane] * l.size + lanes.side[lane] * l.half + lanes.k[lane];
    });
    co_await warp.write(lanes.address, lanes.value, Space::shared);
  }
}

// Phase B1: the ranks U_s of L_s(v)'s keys in SUP_{s+1}(x) and SUP_{s+1}(y). Key e of SUP_s(x)
// (at L_s(v)[k + c]) lies in L_{s-1}(x) at i = sampled(k); its rank in L_s(x) is the sum of the
// child's help ranks U_{s-1}(x) at i (i itself once the child is complete), and its rank in the
// sample SUP_{s+1}(x) that divided by the sample's divisor. In SUP_{s+1}(y) it lies after
// SUP_s(y)[c - 1], whose rank is found the same way, and at most 4 keys further (SUP_s(y) is a
// good sampler of SUP_{s+1}(y)): it counts them.
Task ColeMergeSort::rank_help(Warp& warp, ColeLanes& lanes, const ColeLevelStage& l) const {
  const std::size_t w = warp.width();
  for (std::uint64_t first = warp.block_thread(0); sample_lanes(l, first, lanes);
       first += warp.block_threads()) {
    const auto active = [&](std::size_t lane) { return lanes.node[lane] != kInactive; };
    // c (rank) and e (item).
    for_each_lane(w, [&](std::size_t lane) {
      if (active(lane))
        lanes.address[lane] =
            l.cross + lanes.node[lane] * l.size + lanes.side[lane] * l.half + lanes.k[lane];
    });
    co_await read_where(warp, lanes, active);
    for_each_lane(w, [&](std::size_t lane) {
      lanes.rank[lane] = std::min(static_cast<std::uint64_t>(lanes.value[lane]), l.half);
      if (active(lane))
        lanes.address[lane] = prev_sample(l, lanes.node[lane], lanes.side[lane], lanes.k[lane]);
    });
    co_await read_where(warp, lanes, active);
    std::copy(lanes.value.begin(), lanes.value.end(), lanes.item.begin());
    // Ranks in L_s(child): of e in its own child's list (lo) and of SUP_s(y)[c - 1] in the other
    // child's (hi).
    const auto own_index = [&](std::size_t lane) { return sampled(lanes.k[lane], l.divisor); };
    const auto other_index = [&](std::size_t lane) {
      return lanes.rank[lane] > 0 ? sampled(lanes.rank[lane] - 1, l.divisor) : 0;
    };
    for_each_lane(w, [&](std::size_t lane) {
      lanes.lo[lane] = own_index(lane);
      lanes.hi[lane] = other_index(lane);
    });
    if (!l.child_complete_before) {
      std::fill(lanes.lo.begin(), lanes.lo.end(), 0);
      std::fill(lanes.hi.begin(), lanes.hi.end(), 0);
      for (unsigned part = 0; part < 4; ++part) {
        const bool own = part < 2;
        for_each_lane(w, [&](std::size_t lane) {
          if (!active(lane)) return;
          const std::uint64_t child =
              2 * lanes.node[lane] + (own ? lanes.side[lane] : 1 - lanes.side[lane]);
          lanes.address[lane] = l.child_prev_help + child * 2 * l.child_prev_size +
                                part % 2 * l.child_prev_size +
                                (own ? own_index(lane) : other_index(lane));
        });
        const auto wanted = [&](std::size_t lane) {
          return active(lane) && (own || lanes.rank[lane] > 0);
        };
        co_await read_where(warp, lanes, wanted);
        for_each_lane(w, [&](std::size_t lane) {
          if (wanted(lane))
            (own ? lanes.lo[lane] : lanes.hi[lane]) +=
                static_cast<std::uint64_t>(lanes.value[lane]);
        });
      }
    }
    // Own rank in SUP_{s+1}(own child) (lo); the scan of the other sample starts at other.
    for_each_lane(w, [&](std::size_t lane) {
      lanes.lo[lane] = std::min(lanes.lo[lane], l.child_size) / l.next_divisor;
      lanes.hi[lane] = std::min(lanes.hi[lane], l.child_size);
      lanes.other[lane] = lanes.rank[lane] > 0 ? lanes.hi[lane] / l.next_divisor : 0;
      lanes.hi[lane] = l.next_half;
    });
    co_await count_below(warp, lanes, [&](std::size_t lane) {
      return next_sample(l, lanes.node[lane], 1 - lanes.side[lane], lanes.other[lane]);
    });
    // U_s(v) at e's place k + c: [ranks in SUP_{s+1}(x) | in SUP_{s+1}(y)], stride 2 size.
    for (unsigned part = 0; part < 2; ++part) {
      for_each_lane(w, [&](std::size_t lane) {
        const bool own = part == lanes.side[lane];
        lanes.value[lane] = static_cast<Word>(own ? lanes.lo[lane] : lanes.other[lane]);
        lanes.address[lane] = active(lane) ? l.help + lanes.node[lane] * 2 * l.size +
                                                 part * l.size + lanes.k[lane] + lanes.rank[lane]
                                           : kInactive;
      });
      co_await warp.write(lanes.address, lanes.value, Space::shared);
    }
  }
}

// Phase B2: the ranks R_s of SUP_{s+1}(x)'s and SUP_{s+1}(y)'s keys in L_s(v), handed on by the
// keys of L_s(v): key u = L_s(v)[i] knows (U_s) that SUP_{s+1}(x)[U_s(i) .. U_s(i+1)) lie between
// u and L_s(v)[i+1] (at most 4: L_s(v) is a good sampler of SUP_{s+1}(x)); their rank is i + 1,
// or i for one equal to u. L_s(v)[0] also hands rank 0 to those below it.
Task ColeMergeSort::hand_on_ranks(Warp& warp, ColeLanes& lanes, const ColeLevelStage& l) const {
  const std::size_t w = warp.width();
  const std::uint64_t keys = l.nodes * l.size;
  const unsigned log_size = static_cast<unsigned>(std::countr_zero(l.size));
  // Per lane: i (k), the x range [lo, hi), the y range [rank, other), equal flags (side bits).
  for (std::uint64_t first = warp.block_thread(0); first < keys; first += warp.block_threads()) {
    for_each_lane(w, [&](std::size_t lane) {
      const std::uint64_t id = first + lane;
      lanes.node[lane] = id < keys ? id >> log_size : kInactive;
      lanes.k[lane] = id & (l.size - 1);
      lanes.side[lane] = 0;
    });
    const auto active = [&](std::size_t lane) { return lanes.node[lane] != kInactive; };
    const auto help_at = [&](std::size_t lane, unsigned part, std::uint64_t i) {
      return l.help + lanes.node[lane] * 2 * l.size + part * l.size + i;
    };
    std::vector<std::uint64_t>* const bounds[4] = {&lanes.lo, &lanes.rank, &lanes.hi, &lanes.other};
    for (unsigned which = 0; which < 4; ++which) {
      const bool next = which >= 2;
      const unsigned part = which % 2;
      for_each_lane(w, [&](std::size_t lane) {
        if (active(lane)) lanes.address[lane] = help_at(lane, part, lanes.k[lane] + next);
      });
      const auto wanted = [&](std::size_t lane) {
        return active(lane) && (!next || lanes.k[lane] + 1 < l.size);
      };
      co_await read_where(warp, lanes, wanted);
      for_each_lane(w, [&](std::size_t lane) {
        (*bounds[which])[lane] =
            wanted(lane) ? std::min(static_cast<std::uint64_t>(lanes.value[lane]), l.next_half)
                         : l.next_half;
      });
    }
    for_each_lane(w, [&](std::size_t lane) {
      lanes.hi[lane] = std::max(lanes.hi[lane], lanes.lo[lane]);
      lanes.other[lane] = std::max(lanes.other[lane], lanes.rank[lane]);
    });
    // u, and the first key of each range, to find the one equal to u.
    for_each_lane(w, [&](std::size_t lane) {
      if (active(lane)) lanes.address[lane] = l.list + lanes.node[lane] * l.size + lanes.k[lane];
    });
    co_await read_where(warp, lanes, active);
    std::copy(lanes.value.begin(), lanes.value.end(), lanes.item.begin());
    for (unsigned side = 0; side < 2; ++side) {
      const std::vector<std::uint64_t>& lo = side == 0 ? lanes.lo : lanes.rank;
      const std::vector<std::uint64_t>& hi = side == 0 ? lanes.hi : lanes.other;
      const auto wanted = [&](std::size_t lane) { return active(lane) && lo[lane] < hi[lane]; };
      for_each_lane(w, [&](std::size_t lane) {
        if (wanted(lane)) lanes.address[lane] = next_sample(l, lanes.node[lane], side, lo[lane]);
      });
      co_await read_where(warp, lanes, wanted);
      for_each_lane(w, [&](std::size_t lane) {
        if (wanted(lane) && lanes.value[lane] == lanes.item[lane]) lanes.side[lane] |= 1 << side;
      });
    }
    // Hand on the ranks: entry t of a lane is, in order, x's keys below L_s(v)[0] (i = 0 only),
    // x's range, y's keys below L_s(v)[0], y's range.
    std::uint64_t most = 0;
    for_each_lane(w, [&](std::size_t lane) {
      if (!active(lane)) return;
      const std::uint64_t x = lanes.hi[lane] - lanes.lo[lane];
      const std::uint64_t y = lanes.other[lane] - lanes.rank[lane];
      const std::uint64_t prefix = lanes.k[lane] == 0 ? lanes.lo[lane] + lanes.rank[lane] : 0;
      longest_scatter_ = std::max({longest_scatter_, x, y});
      most = std::max(most, prefix + x + y);
    });
    for (std::uint64_t t = 0; t < most; ++t) {
      for_each_lane(w, [&](std::size_t lane) {
        lanes.address[lane] = kInactive;
        if (!active(lane)) return;
        const std::uint64_t i = lanes.k[lane];
        std::uint64_t e = t;
        for (unsigned side = 0; side < 2; ++side) {
          const std::uint64_t lo = side == 0 ? lanes.lo[lane] : lanes.rank[lane];
          const std::uint64_t hi = side == 0 ? lanes.hi[lane] : lanes.other[lane];
          const std::uint64_t below = i == 0 ? lo : 0;
          std::uint64_t key = 0;
          Word rank = 0;
          if (e < below) {
            key = e;
          } else if (e < below + hi - lo) {
            key = lo + (e - below);
            const bool equal = key == lo && (lanes.side[lane] >> side & 1);
            rank = static_cast<Word>(equal ? i : i + 1);
          } else {
            e -= below + hi - lo;
            continue;
          }
          lanes.address[lane] =
              l.ranks + lanes.node[lane] * 2 * l.next_half + side * l.next_half + key;
          lanes.value[lane] = rank;
          break;
        }
      });
      co_await warp.write(lanes.address, lanes.value, Space::shared);
    }
  }
}

// Step 2, the splitters of a round: each sample key e (every s-th key of a run, e = S[(a+1)s - 1])
// finds its rank in the other run by binary search in global memory. Then e is splitter
// q = a + rank/s of the pair (its place among both samples), and record q = (keys of A up to e,
// keys of B up to e) says where tile q ends.
Task ColeMergeSort::rank_samples(Warp& warp, MergeLanes& lanes, const TileRound& round) const {
  const std::uint64_t s = tile_spacing();
  const std::uint64_t per_run = round.run / s;
  const std::uint64_t samples = round.pairs * 2 * per_run;
  std::vector<std::uint64_t> own(warp.width()), record(warp.width());
  std::vector<Word> values(warp.width());
  for (std::uint64_t first = warp.thread(0); first < samples; first += warp.threads()) {
    for_each_lane(lanes.address.size(), [&](std::size_t lane) {
      const std::uint64_t t = first + lane;
      lanes.lo[lane] = lanes.hi[lane] = 0;
      if (t >= samples) {
        lanes.address[lane] = kInactive;
        return;
      }
      const std::uint64_t pair = t / (2 * per_run);
      const std::uint64_t side = t % (2 * per_run) / per_run;
      const std::uint64_t a = t % per_run;
      const Address run_a = round.src + 2 * pair * round.run;
      lanes.address[lane] = run_a + side * round.run + (a + 1) * s - 1;
      lanes.run[lane] = run_a + (1 - side) * round.run;
      lanes.hi[lane] = round.run;
      lanes.strict[lane] = 1;
      lanes.target[lane] = side;
      own[lane] = (a + 1) * s;
      record[lane] = pair * 2 * per_run + a;
    });
    const auto got = co_await warp.read(lanes.address);
    std::copy(got.begin(), got.end(), lanes.key.begin());
    co_await search_ranks(warp, lanes, Space::global);
    for (unsigned word = 0; word < 2; ++word) {
      for_each_lane(lanes.address.size(), [&](std::size_t lane) {
        if (first + lane >= samples) {
          lanes.address[lane] = kInactive;
          return;
        }
        const std::uint64_t other = lanes.lo[lane];
        const std::uint64_t q = record[lane] + other / s;
        const bool in_a = lanes.target[lane] == 0;
        lanes.address[lane] = round.records + 2 * q + word;
        values[lane] = static_cast<Word>((word == 0) == in_a ? own[lane] : other);
      });
      co_await warp.write(lanes.address, values);
    }
  }
}

std::vector<Bound> ColeMergeSort::bounds(const MachineConfig& m, const RunResult&) const {
  const double nn = static_cast<double>(n());
  const double wg = m.global_words_per_group();
  const double bk = static_cast<double>(block());
  const double k = bk / wg;
  const double p = static_cast<double>(block_threads());
  const double sort = 3.0 * log_block() * std::ceil(bk / p) * m.shared.latency;
  const double global = rounds() * (2 * nn / wg + m.latency);
  return {
      io_lower_bound(m.global_words_per_group(), m.latency),
      global_lower_bound(m),
      {"thesis_formula",
       "the thesis' cost: per block of w*k keys its reading (k + L_gm) and sort(p, w*k) = 3 "
       "log2(w*k) stages of ceil(w*k/p) accesses of latency l_s, times n/(k*w) blocks; plus the "
       "merge through global memory, R rounds of 2n/w + l (w = w_g, k = block/w_g)",
       "(k + L_gm + sort(p, w*k)) * N/(k*w) + R(2N/w + L_gm)",
       (k + m.latency + sort) * nn / bk + global, Bound::Kind::order, Bound::Measure::cycles,
       "the GPGPU thesis, section 4.2"},
      {"syncthreads_exact",
       "syncthreads of multiprocessor 0: per block 3 per stage of 3 log2(block) stages and 2, per "
       "tile 4",
       "(blocks of SM 0)(9 log2(block) + 2) + 4R(tiles of SM 0 per round)",
       static_cast<double>(syncs(0)), Bound::Kind::exact, Bound::Measure::syncthreads,
       "Cole 1988; cole_merge_sort.cpp"},
      grid_syncs_bound(),
  };
}

}  // namespace

ProgramInfo cole_merge_sort_program() {
  return sort_program_info<ColeMergeSort>(
      "cole_merge_sort",
      "Cole's pipelined merge sort in each multiprocessor's shared memory (3 log2(block) stages), "
      "then merges through global memory with the help of the runs' samples",
      "Cole 1988; the GPGPU thesis, section 4 and figures 5, 6");
}

}  // namespace mmsim
