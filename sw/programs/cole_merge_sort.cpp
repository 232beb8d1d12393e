#include "sw/programs/cole_merge_sort.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <memory>
#include <span>
#include <type_traits>

#include "hw/support/errors.hpp"
#include "hw/support/vector_isa.hpp"
#include "sw/programs/cole_plan.hpp"
#include "sw/programs/lane_loops.hpp"
#include "sw/programs/tiled_merge_sort.hpp"

namespace mmsim {
namespace {

// A warp's lane arrays for Cole's stages, one word per lane each (so that the per-lane loops work
// on one width). A lane is active when it has a key (node not kInactive); an instruction's
// inactive lanes have address kInactive.
enum class ColeLane : std::size_t {
  address,       // of the lane's next access
  value,         // what it writes there (a Word)
  next_address,  // a second write's, made in the same pass as the first's
  next_value,    // (a Word)
  item,          // its key, an item (a Word)
  node,          // the node of the level its key belongs to
  side,          // 0: x, 1: y; in phase B2, the bits of the equal keys found (bit 0: x's)
  k,             // the key's index in its sample
  rank,          // the ranks it works out
  lo,
  hi,
  other,
  scan,  // where the sample it scans starts
  // Phase B2's plan of the ranks a lane hands on:
  start_x,  // where its x and y entries of R_s start
  start_y,
  below_x,  // how many ranks below L_s(v)[0] it hands on (key 0 only), of x and of y
  below_y,
  end_x,  // where its x entries end
  end,    // where all end
  range,  // its longer range
  count
};
using enum ColeLane;
using ColeLanes = LaneTable<ColeLane>;
using ColePointers = LanePointers<ColeLane>;

// Phase B2 works out the writes of a lane's first kPlannedEntries entries (lanes hand on a few)
// while its plan is in the cache. Between two of a warp's writes the other warps run, and its
// arrays leave the first-level cache: a planned write brings back its addresses and values only,
// not the plan's eight arrays. The planned writes take arrays that the entries are not made from
// and that the phase does not read again before the next round makes them anew: no array more to
// keep in the caches.
struct PlannedWrite {
  ColeLane address;
  ColeLane value;
};
constexpr std::size_t kPlannedEntries = 6;
constexpr PlannedWrite kPlannedWrites[kPlannedEntries] = {
    {address, value}, {next_address, next_value}, {item, node}, {rank, lo}, {hi, other},
    {scan, range}};

// A size of the plan as a factor: a power of two (ColePlan checks), so a shift multiplies by it;
// the vector units shift 64-bit lanes but have no 64-bit multiplication.
struct Factor {
  explicit Factor(std::uint64_t power_of_two)
      : log(static_cast<unsigned>(std::countr_zero(power_of_two))) {}
  unsigned log;
};
inline std::uint64_t operator*(std::uint64_t x, Factor f) { return x << f.log; }

// The keys of a sample SUP(x) = every d-th key of L(x): key j is L(x)[d*j + d - 1] (Reduce
// keeps z4, z8, ...).
inline std::uint64_t sampled(std::uint64_t j, Factor d) { return (j + 1) * d - 1; }

inline std::uint64_t clamp(Word value, std::uint64_t most) {
  return std::min(static_cast<std::uint64_t>(value), most);
}

// The per-lane steps of the phases, in the order the phases take them, each one pass between two
// instructions of the warp, out of line (for_each_lane says why).

// A lane's key of one round of a phase over the keys of SUP_s(x) and SUP_s(y) of every node of
// level l (key id = first + lane of the level): whether the lane has one, its node, side (0: x,
// 1: y) and index k in the sample, stored in the lane's arrays and given back. `all`
// (std::true_type) says that every lane of the round has one.
struct SampleKey {
  bool active;
  std::uint64_t node, side, k;
};
template <class All>
inline SampleKey sample_lane(const ColePointers& a, std::size_t lane, std::uint64_t id,
                             std::uint64_t keys, unsigned log_size, std::uint64_t half, All all) {
  const std::uint64_t within = id & ((std::uint64_t{1} << log_size) - 1);
  SampleKey key;
  key.active = all || less_count(id, keys);
  key.node = key.active ? id >> log_size : kInactive;
  key.side = key.active && !less_count(within, half);
  key.k = key.active ? within - (half & lane_mask(key.side)) : 0;
  a[node][lane] = key.node;
  a[side][lane] = key.side;
  a[k][lane] = key.k;
  return key;
}

// body(lane, all) for the lanes of a round from key `first` on, of `keys`: all is
// std::true_type where every lane has a key (every round but the last), so that the loop makes
// no selections for lanes without one.
template <class Body>
[[gnu::always_inline]] inline void for_round_lanes(std::size_t n, std::uint64_t first,
                                                   std::uint64_t keys, Body&& body) {
  if (less_count(first + n - 1, keys))
    for_lanes(n, [&](std::size_t lane) { body(lane, std::true_type{}); });
  else
    for_lanes(n, [&](std::size_t lane) { body(lane, std::false_type{}); });
}

// Phase A's first read: e = SUP_s(own child)[k], from L_{s-1}(own child). The ranks start at
// r = 0 and the other sample's range at [0, half); scan is where that sample lies.
[[gnu::noinline]] bool merge_start(ColeLanes& lanes, const ColeLevelStage& l, std::uint64_t first) {
  return with_lanes(
      lanes, [child_prev_list = l.child_prev_list, child_prev_size = Factor(l.child_prev_size),
              divisor = Factor(l.divisor), half = l.half, first, keys = l.nodes * l.size,
              log_size = static_cast<unsigned>(std::countr_zero(l.size))](const ColePointers& a) {
        for_round_lanes(a.n, first, keys, [&](std::size_t lane, auto all) {
          const SampleKey key = sample_lane(a, lane, first + lane, keys, log_size, half, all);
          const Address child = child_prev_list + 2 * key.node * child_prev_size;
          a[address][lane] =
              key.active ? child + key.side * child_prev_size + sampled(key.k, divisor) : kInactive;
          a[scan][lane] = child + (1 - key.side) * child_prev_size + sampled(0, divisor);
          a[other][lane] = 0;
          a[hi][lane] = key.active ? half : 0;  // no scan without a key
        });
        return first < keys;
      });
}

// e read; the next read: r, e's rank in L_{s-1}(v) (R_{s-1}).
[[gnu::noinline]] void merge_item(ColeLanes& lanes, const ColeLevelStage& l, std::uint64_t first,
                                  std::span<const Word> got) {
  with_lanes(lanes, [got = got.data(), ranks = l.prev_ranks + first](const ColePointers& a) {
    for_lanes(a.n, [&](std::size_t lane) {
      a.words(item)[lane] = got[lane];
      a[address][lane] = a[node][lane] != kInactive ? ranks + lane : kInactive;
    });
  });
}

// Where U_{s-1}(v) of the other sample lies for a lane's node and side.
inline Address other_help(Address prev_help, Factor prev_size, std::uint64_t v,
                          std::uint64_t own_side) {
  return prev_help + v * 2 * prev_size + (1 - own_side) * prev_size;
}

// r read; the next read: U_{s-1}[r - 1] (lanes with r > 0).
[[gnu::noinline]] void merge_rank(ColeLanes& lanes, const ColeLevelStage& l,
                                  std::span<const Word> got) {
  with_lanes(lanes, [prev_help = l.prev_help, prev_size = l.prev_size,
                     prev_stride = Factor(l.prev_size), got = got.data()](const ColePointers& a) {
    for_lanes(a.n, [&](std::size_t lane) {
      const bool active = a[node][lane] != kInactive;
      const std::uint64_t r = active ? clamp(got[lane], prev_size) : 0;
      a[rank][lane] = r;
      a[address][lane] =
          active && r > 0 ? other_help(prev_help, prev_stride, a[node][lane], a[side][lane]) + r - 1
                          : kInactive;
    });
  });
}

// U_{s-1}[r - 1] read: the range starts there; the next read: U_{s-1}[r] (lanes with r below
// |L_{s-1}(v)|).
[[gnu::noinline]] void merge_range_start(ColeLanes& lanes, const ColeLevelStage& l,
                                         std::span<const Word> got) {
  with_lanes(lanes, [half = l.half, prev_help = l.prev_help, prev_size = l.prev_size,
                     prev_stride = Factor(l.prev_size), got = got.data()](const ColePointers& a) {
    for_lanes(a.n, [&](std::size_t lane) {
      const bool active = a[node][lane] != kInactive;
      const std::uint64_t read = lane_mask(a[address][lane] != kInactive);
      const std::uint64_t start = clamp(got[lane], half);
      a[lo][lane] = pick(read, start, a[lo][lane]);
      a[other][lane] = pick(read, start, a[other][lane]);
      a[address][lane] =
          active && less_count(a[rank][lane], prev_size)
              ? other_help(prev_help, prev_stride, a[node][lane], a[side][lane]) + a[rank][lane]
              : kInactive;
    });
  });
}

// The scan of a sample: every lane with a key counts the keys of a sorted sample below its item
// from index `other` on, stopping at the first one not below it or at `hi`: `other` ends as the
// item's rank in the sample, whose key j lies at scan + divisor * j (divisor 4, 2 or 1: a shift
// multiplies). Phases A and B1 each write its loop out: a subroutine (a coroutine of its own)
// would allocate its frame at every call.
//
// A lane with other < hi (hi is 0 for a lane without a key) reads key `other`. Whether it reads.
inline std::uint64_t scan_lane(const ColePointers& a, std::size_t lane, unsigned shift) {
  const bool reads = less_count(a[other][lane], a[hi][lane]);
  a[address][lane] = pick(lane_mask(reads), a[scan][lane] + (a[other][lane] << shift), kInactive);
  return reads;
}

// The first addresses of a scan; whether any lane reads.
[[gnu::noinline]] bool scan_addresses(ColeLanes& lanes, unsigned shift) {
  return with_lanes(lanes, [shift](const ColePointers& a) {
    std::uint64_t any = 0;
    for_lanes(a.n, [&](std::size_t lane) { any |= scan_lane(a, lane, shift); });
    return any != 0;
  });
}

// The keys read: a lane counts one below its item and goes on to the next key while other < hi
// (its address one divisor further on); at one not below it stops (hi no longer matters).
[[gnu::noinline]] bool count_step(ColeLanes& lanes, std::span<const Word> got, unsigned shift) {
  return with_lanes(
      lanes, [got = got.data(), divisor = std::uint64_t{1} << shift](const ColePointers& a) {
        std::uint64_t any = 0;
        for_lanes(a.n, [&](std::size_t lane) {
          const std::uint64_t below =
              lane_mask(a[address][lane] != kInactive) & lane_mask(got[lane] < a.words(item)[lane]);
          const std::uint64_t counted = a[other][lane] + (below & 1);
          const std::uint64_t next = below & lane_mask(less_count(counted, a[hi][lane]));
          a[other][lane] = counted;
          a[address][lane] = pick(next, a[address][lane] + divisor, kInactive);
          any |= next;
        });
        return any != 0;
      });
}

// U_{s-1}[r] read: the range ends there; the scan's first addresses, as scan_addresses.
[[gnu::noinline]] bool merge_range_end(ColeLanes& lanes, const ColeLevelStage& l,
                                       std::span<const Word> got, unsigned shift) {
  return with_lanes(lanes, [half = l.half, got = got.data(), shift](const ColePointers& a) {
    std::uint64_t any = 0;
    for_lanes(a.n, [&](std::size_t lane) {
      a[hi][lane] =
          pick(lane_mask(a[address][lane] != kInactive), clamp(got[lane], half), a[hi][lane]);
      any |= scan_lane(a, lane, shift);
    });
    return any != 0;
  });
}

// Phase A's writes: e to L_s(v)[k + c], then c to C (both made in one pass).
[[gnu::noinline]] void merge_writes(ColeLanes& lanes, const ColeLevelStage& l,
                                    std::uint64_t first) {
  with_lanes(lanes, [list = l.list, size = Factor(l.size),
                     cross = l.cross + first](const ColePointers& a) {
    for_lanes(a.n, [&](std::size_t lane) {
      const bool active = a[node][lane] != kInactive;
      a[address][lane] =
          active ? list + a[node][lane] * size + a[k][lane] + a[other][lane] : kInactive;
      a[next_address][lane] = active ? cross + lane : kInactive;
      a.words(next_value)[lane] = static_cast<Word>(a[other][lane]);
    });
  });
}

// Phase B1's first read: c, from C.
[[gnu::noinline]] bool help_start(ColeLanes& lanes, const ColeLevelStage& l, std::uint64_t first) {
  return with_lanes(
      lanes, [cross = l.cross, half = l.half, first, keys = l.nodes * l.size,
              log_size = static_cast<unsigned>(std::countr_zero(l.size))](const ColePointers& a) {
        for_round_lanes(a.n, first, keys, [&](std::size_t lane, auto all) {
          const SampleKey key = sample_lane(a, lane, first + lane, keys, log_size, half, all);
          a[address][lane] = key.active ? cross + first + lane : kInactive;
        });
        return first < keys;
      });
}

// c read (rank); the next read: e, from L_{s-1}(own child).
[[gnu::noinline]] void help_cross(ColeLanes& lanes, const ColeLevelStage& l,
                                  std::span<const Word> got) {
  with_lanes(
      lanes, [child_prev_list = l.child_prev_list, child_prev_size = Factor(l.child_prev_size),
              divisor = Factor(l.divisor), half = l.half, got = got.data()](const ColePointers& a) {
        for_lanes(a.n, [&](std::size_t lane) {
          a[rank][lane] = clamp(got[lane], half);
          a[address][lane] = a[node][lane] != kInactive
                                 ? child_prev_list +
                                       (2 * a[node][lane] + a[side][lane]) * child_prev_size +
                                       sampled(a[k][lane], divisor)
                                 : kInactive;
        });
      });
}

// Indices in L_{s-1}(child) of e (own) and of SUP_s(y)[c - 1] (other).
inline std::uint64_t own_index(const ColePointers& a, std::size_t lane, Factor divisor) {
  return sampled(a[k][lane], divisor);
}
inline std::uint64_t other_index(const ColePointers& a, std::size_t lane, Factor divisor) {
  return a[rank][lane] > 0 ? sampled(a[rank][lane] - 1, divisor) : 0;
}

// Read `part` of the children's ranks: parts 0, 1: the own child's U_{s-1} in SUP_s(x), SUP_s(y)
// at e's index; parts 2, 3: the other child's at SUP_s(y)[c - 1]'s (lanes with c > 0).
struct ChildRanks {
  explicit ChildRanks(const ColeLevelStage& l)
      : help(l.child_prev_help), size(l.child_prev_size), divisor(l.divisor) {}
  Address help;
  Factor size;
  Factor divisor;
};
inline void child_ranks_address(const ColePointers& a, std::size_t lane, const ChildRanks& c,
                                unsigned part) {
  const bool own = part < 2;
  const std::uint64_t child = 2 * a[node][lane] + (own ? a[side][lane] : 1 - a[side][lane]);
  const bool wanted = a[node][lane] != kInactive && (own || a[rank][lane] > 0);
  a[address][lane] =
      wanted ? c.help + child * 2 * c.size + part % 2 * c.size +
                   (own ? own_index(a, lane, c.divisor) : other_index(a, lane, c.divisor))
             : kInactive;
}

// e read. The ranks in L_s(child) of e in its own child's list (lo) and of SUP_s(y)[c - 1] in
// the other child's (hi): the indices themselves once the child is complete, else sums of the
// child's U_{s-1}, read next (part 0 first).
[[gnu::noinline]] void help_item(ColeLanes& lanes, const ColeLevelStage& l,
                                 std::span<const Word> got) {
  with_lanes(lanes,
             [got = got.data(), divisor = Factor(l.divisor), complete = l.child_complete_before,
              child = ChildRanks(l)](const ColePointers& a) {
               if (complete) {
                 for_lanes(a.n, [&](std::size_t lane) {
                   a.words(item)[lane] = got[lane];
                   a[lo][lane] = own_index(a, lane, divisor);
                   a[hi][lane] = other_index(a, lane, divisor);
                 });
                 return;
               }
               for_lanes(a.n, [&](std::size_t lane) {
                 a.words(item)[lane] = got[lane];
                 a[lo][lane] = a[hi][lane] = 0;
                 child_ranks_address(a, lane, child, 0);
               });
             });
}

// Part `part` read: added to the own rank (parts 0, 1: lo) or the other's (hi); then the next
// part's read.
[[gnu::noinline]] void help_add_ranks(ColeLanes& lanes, const ColeLevelStage& l,
                                      std::span<const Word> got, unsigned part) {
  with_lanes(lanes, [got = got.data(), part, child = ChildRanks(l)](const ColePointers& a) {
    std::uint64_t* const sum = part < 2 ? a[lo] : a[hi];
    const auto add = [&](std::size_t lane) {
      sum[lane] += static_cast<std::uint64_t>(got[lane]) & lane_mask(a[address][lane] != kInactive);
    };
    if (part == 3) {
      for_lanes(a.n, add);
      return;
    }
    for_lanes(a.n, [&](std::size_t lane) {
      add(lane);
      child_ranks_address(a, lane, child, part + 1);
    });
  });
}

// Own rank in SUP_{s+1}(own child) (lo); the scan of the other sample SUP_{s+1} starts at other
// (its first addresses; whether any lane reads). The divisor is a power of two (4, 2 or 1): a
// shift divides.
[[gnu::noinline]] bool help_scan_start(ColeLanes& lanes, const ColeLevelStage& l) {
  return with_lanes(lanes, [child_list = l.child_list, child_size = l.child_size,
                            child_stride = Factor(l.child_size), next_divisor = l.next_divisor,
                            shift = static_cast<unsigned>(std::countr_zero(l.next_divisor)),
                            next_half = l.next_half](const ColePointers& a) {
    std::uint64_t any = 0;
    for_lanes(a.n, [&](std::size_t lane) {
      a[lo][lane] = std::min(a[lo][lane], child_size) >> shift;
      a[other][lane] = a[rank][lane] > 0 ? std::min(a[hi][lane], child_size) >> shift : 0;
      a[hi][lane] = a[node][lane] != kInactive ? next_half : 0;  // no scan without a key
      a[scan][lane] =
          child_list + (2 * a[node][lane] + 1 - a[side][lane]) * child_stride + next_divisor - 1;
      any |= scan_lane(a, lane, shift);
    });
    return any != 0;
  });
}

// U_s(v) at e's place k + c: [ranks in SUP_{s+1}(x) | in SUP_{s+1}(y)], stride 2 size; part 0
// then part 1 (both made in one pass).
[[gnu::noinline]] void help_writes(ColeLanes& lanes, const ColeLevelStage& l) {
  with_lanes(lanes, [help = l.help, size = Factor(l.size)](const ColePointers& a) {
    for_lanes(a.n, [&](std::size_t lane) {
      const std::uint64_t x = lane_mask(a[side][lane] == 0);  // the own rank is part 0's
      const Address place = help + a[node][lane] * 2 * size + a[k][lane] + a[rank][lane];
      const bool active = a[node][lane] != kInactive;
      a[address][lane] = active ? place : kInactive;
      a.words(value)[lane] = static_cast<Word>(pick(x, a[lo][lane], a[other][lane]));
      a[next_address][lane] = active ? place + 1 * size : kInactive;
      a.words(next_value)[lane] = static_cast<Word>(pick(x, a[other][lane], a[lo][lane]));
    });
  });
}

// Phase B2's steps, one pass between two reads: what a lane does with the value read, then
// the address of its next read.

// U_s(v) of u (k) or of the next key (k + 1, within L_s(v)), in SUP_{s+1}(x) (part 0) or
// SUP_{s+1}(y) (part 1): read `which` (0 .. 3) is part which % 2, the next key from 2 on.
inline void help_address(const ColePointers& a, std::size_t lane, Address help, std::uint64_t size,
                         unsigned which) {
  const unsigned part = which % 2;
  const bool next = which >= 2;
  const bool wanted = a[node][lane] != kInactive && (!next || less_count(a[k][lane] + 1, size));
  const Factor stride(size);
  a[address][lane] =
      wanted ? help + a[node][lane] * 2 * stride + part * stride + a[k][lane] + next : kInactive;
}

// The lanes' keys u = L_s(v)[k] of one round; no equal key found yet (side 0); the first read.
[[gnu::noinline]] void hand_on_lanes(ColeLanes& lanes, const ColeLevelStage& l,
                                     std::uint64_t first) {
  with_lanes(lanes, [&l, first](const ColePointers& a) {
    const Address help = l.help;
    const std::uint64_t size = l.size, keys = l.nodes * size, mask = size - 1;
    const auto log_size = static_cast<unsigned>(std::countr_zero(size));
    for_lanes(a.n, [&](std::size_t lane) {
      const std::uint64_t id = first + lane;
      a[node][lane] = less_count(id, keys) ? id >> log_size : kInactive;
      a[k][lane] = id & mask;
      a[side][lane] = 0;
      help_address(a, lane, help, size, 0);
    });
  });
}

// A read bound, clamped (|SUP_{s+1}| for the lanes that read none).
inline std::uint64_t read_bound(const ColePointers& a, std::size_t lane, const Word* got,
                                std::uint64_t most) {
  return a[address][lane] != kInactive ? clamp(got[lane], most) : most;
}

// Read `which` (0 .. 2) into its bound `ends` (the x range [lo, hi), the y range [rank, other));
// then the next read.
[[gnu::noinline]] void hand_on_bound(ColeLanes& lanes, const ColeLevelStage& l,
                                     std::span<const Word> got, std::uint64_t* ends,
                                     unsigned which) {
  with_lanes(lanes, [most = l.next_half, size = l.size, help = l.help, got = got.data(), ends,
                     which](const ColePointers& a) {
    for_lanes(a.n, [&](std::size_t lane) {
      ends[lane] = read_bound(a, lane, got, most);
      help_address(a, lane, help, size, which + 1);
    });
  });
}

// The last bound read (other); the ranges made non-empty-or-empty (the bounds are at most
// |SUP_{s+1}|: a signed comparison takes the larger); the next read: u.
[[gnu::noinline]] void hand_on_key(ColeLanes& lanes, const ColeLevelStage& l,
                                   std::span<const Word> got) {
  with_lanes(lanes, [most = l.next_half, list = l.list, size = Factor(l.size),
                     got = got.data()](const ColePointers& a) {
    for_lanes(a.n, [&](std::size_t lane) {
      const std::uint64_t bound = read_bound(a, lane, got, most);
      a[other][lane] = less_count(bound, a[rank][lane]) ? a[rank][lane] : bound;
      a[hi][lane] = less_count(a[hi][lane], a[lo][lane]) ? a[lo][lane] : a[hi][lane];
      a[address][lane] =
          a[node][lane] != kInactive ? list + a[node][lane] * size + a[k][lane] : kInactive;
    });
  });
}

// Whether the first key of the range of `which` (0: x's [lo, hi), 1: y's [rank, other)), read,
// equals u (bit `which` of side).
inline void find_equal(const ColePointers& a, std::size_t lane, const Word* got, unsigned which) {
  a[side][lane] |= (std::uint64_t{1} << which) &
                   lane_mask(a[address][lane] != kInactive && got[lane] == a.words(item)[lane]);
}

// u read (which 0) or the first key of x's range (which 1); the next read: the first key of the
// range of `which` (0: x's, 1: y's), to find the one equal to u.
[[gnu::noinline]] void hand_on_first(ColeLanes& lanes, const ColeLevelStage& l,
                                     std::span<const Word> got, unsigned which) {
  with_lanes(lanes, [&l, got = got.data(), which](const ColePointers& a) {
    const Address child_list = l.child_list;
    const Factor child_size(l.child_size), next_divisor(l.next_divisor);
    const std::uint64_t* const first = which == 0 ? a[lo] : a[rank];
    const std::uint64_t* const last = which == 0 ? a[hi] : a[other];
    for_lanes(a.n, [&](std::size_t lane) {
      if (which == 0)
        a.words(item)[lane] = got[lane];
      else
        find_equal(a, lane, got, 0);
      a[address][lane] = a[node][lane] != kInactive && less_count(first[lane], last[lane])
                             ? child_list + (2 * a[node][lane] + which) * child_size +
                                   sampled(first[lane], next_divisor)
                             : kInactive;
    });
  });
}

// Entry t of a lane: its rank (0 below L_s(v)[0]; i for the key equal to u = L_s(v)[i], else
// i + 1) to its place in R_s.
inline void entry_lane(const ColePointers& a, std::size_t lane, std::uint64_t t, Address* to,
                       Word* ranks) {
  // Masks, not branches (all ones where the entry is x's, where the lane hands one on).
  const std::uint64_t x = lane_mask(less_count(t, a[end_x][lane]));
  const std::uint64_t valid = lane_mask(less_count(t, a[end][lane]));
  const std::uint64_t below = pick(x, a[below_x][lane], a[below_y][lane]);
  const std::uint64_t start = pick(x, a[start_x][lane], a[start_y][lane]);
  const std::uint64_t equal = pick(x, a[side][lane], a[side][lane] >> 1) & 1;  // bit 0: x's
  const std::uint64_t r = a[k][lane] + 1 - (static_cast<std::uint64_t>(t == below) & equal);
  to[lane] = pick(valid, start + t, kInactive);
  ranks[lane] = static_cast<Word>(r & ~lane_mask(less_count(t, below)));
}

// What the lanes hand on: entry t of a lane is, in order, x's keys below L_s(v)[0] (k = 0
// only), x's range, y's keys below L_s(v)[0], y's range; entry e of x's (below and range) goes
// to R_s's x part at key e + lo - below (at e below key 0, at lo + e - below in the range), and
// so for y (after y's first key, read, says whether it equals u). y's entries are kept as
// counted from t = 0 (below_y and start_y moved by end_x), so that an entry picks x's or y's
// values and adds t. Returns the most entries of a lane, and the longest range in `longest`; the
// writes of the first kPlannedEntries entries go to the planned arrays.
[[gnu::noinline]] std::uint64_t hand_on_plan(ColeLanes& lanes, const ColeLevelStage& l,
                                             std::span<const Word> got, std::uint64_t& longest) {
  return with_lanes(
      lanes, [next_half = l.next_half, next_stride = Factor(l.next_half), ranks = l.ranks, &longest,
              &lanes, got = got.data()](const ColePointers& a) {
        for_lanes(a.n, [&](std::size_t lane) {
          find_equal(a, lane, got, 1);
          const bool active = a[node][lane] != kInactive;
          const std::uint64_t x = a[hi][lane] - a[lo][lane];
          const std::uint64_t y = a[other][lane] - a[rank][lane];
          const std::uint64_t x_below = a[k][lane] == 0 ? a[lo][lane] : 0;
          const std::uint64_t y_below = a[k][lane] == 0 ? a[rank][lane] : 0;
          const Address node_ranks = ranks + a[node][lane] * 2 * next_stride;
          const std::uint64_t x_end = x_below + x;
          a[below_x][lane] = x_below;
          a[below_y][lane] = x_end + y_below;
          a[start_x][lane] = node_ranks + a[lo][lane] - x_below;
          a[start_y][lane] = node_ranks + next_half + a[rank][lane] - y_below - x_end;
          a[end_x][lane] = x_end;
          a[end][lane] = active ? x_end + y_below + y : 0;
          a[range][lane] = active ? (less_count(x, y) ? y : x) : 0;
        });
        longest = std::max(longest, largest_count(a[range], a.n));
        const std::uint64_t most = largest_count(a[end], a.n);
        for (std::uint64_t t = 0; t < std::min<std::uint64_t>(most, kPlannedEntries); ++t) {
          Address* const to = lanes[kPlannedWrites[t].address].data();
          Word* const ranks_handed = lanes.words(kPlannedWrites[t].value).data();
          for_lanes(a.n, [&](std::size_t lane) { entry_lane(a, lane, t, to, ranks_handed); });
        }
        return most;
      });
}

// Entry t of every lane (t >= kPlannedEntries), into address and value.
[[gnu::noinline]] void hand_on_entry(ColeLanes& lanes, std::uint64_t t) {
  with_lanes(lanes, [t](const ColePointers& a) {
    for_lanes(a.n, [&](std::size_t lane) { entry_lane(a, lane, t, a[address], a.words(value)); });
  });
}

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
      lanes[address][lane] = e0 + lane < block() ? first_key + e0 + lane : kInactive;
    });
    const auto keys = co_await warp.read(lanes[address]);
    for_each_lane(warp.width(), [&](std::size_t lane) {
      lanes.words(value)[lane] = item_of_key(keys[lane], first_key + e0 + lane);
      if (lanes[address][lane] != kInactive) lanes[address][lane] = e0 + lane;  // leaf e0 + lane
    });
    co_await warp.write(lanes[address], lanes.words(value), Space::shared);
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

// Ranks read from shared memory are clamped to their array's size: a deliberately broken variant
// (drop_sync) then reads wrong keys instead of leaving the memory.
//
// Phase A, Merge_with_help(SUP_s(x), SUP_s(y), L_{s-1}(v)): a key e of SUP_s(x) reads its rank r
// in L_{s-1}(v) (R_{s-1}); the keys of SUP_s(y) between L_{s-1}(v)[r-1] and L_{s-1}(v)[r] are
// U_{s-1}[r-1] .. U_{s-1}[r] - 1 (at most 4: L_{s-1}(v) is a good sampler of SUP_s(y)), and e
// counts those below it: its rank c in SUP_s(y). e goes to L_s(v)[k + c]; c is kept (C).
Task ColeMergeSort::merge_with_help(Warp& warp, ColeLanes& lanes, const ColeLevelStage& l) const {
  for (std::uint64_t first = warp.block_thread(0); merge_start(lanes, l, first);
       first += warp.block_threads()) {
    merge_item(lanes, l, first, co_await warp.read(lanes[address], Space::shared));
    const unsigned shift = static_cast<unsigned>(std::countr_zero(l.divisor));
    bool more = false;  // whether the scan reads
    if (l.prev_size > 0) {
      merge_rank(lanes, l, co_await warp.read(lanes[address], Space::shared));
      merge_range_start(lanes, l, co_await warp.read(lanes[address], Space::shared));
      more = merge_range_end(lanes, l, co_await warp.read(lanes[address], Space::shared), shift);
    } else {
      more = scan_addresses(lanes, shift);
    }
    std::uint64_t steps = 0;
    for (; more; ++steps)
      more = count_step(lanes, co_await warp.read(lanes[address], Space::shared), shift);
    longest_scan_ = std::max(longest_scan_, steps);
    merge_writes(lanes, l, first);
    co_await warp.write(lanes[address], lanes.words(item), Space::shared);
    co_await warp.write(lanes[next_address], lanes.words(next_value), Space::shared);
  }
}

// Phase B1: the ranks U_s of L_s(v)'s keys in SUP_{s+1}(x) and SUP_{s+1}(y). Key e of SUP_s(x)
// (at L_s(v)[k + c]) lies in L_{s-1}(x) at i = sampled(k); its rank in L_s(x) is the sum of the
// child's help ranks U_{s-1}(x) at i (i itself once the child is complete), and its rank in the
// sample SUP_{s+1}(x) that divided by the sample's divisor. In SUP_{s+1}(y) it lies after
// SUP_s(y)[c - 1], whose rank is found the same way, and at most 4 keys further (SUP_s(y) is a
// good sampler of SUP_{s+1}(y)): it counts them.
Task ColeMergeSort::rank_help(Warp& warp, ColeLanes& lanes, const ColeLevelStage& l) const {
  for (std::uint64_t first = warp.block_thread(0); help_start(lanes, l, first);
       first += warp.block_threads()) {
    help_cross(lanes, l, co_await warp.read(lanes[address], Space::shared));
    help_item(lanes, l, co_await warp.read(lanes[address], Space::shared));
    if (!l.child_complete_before) {
      for (unsigned part = 0; part < 4; ++part)
        help_add_ranks(lanes, l, co_await warp.read(lanes[address], Space::shared), part);
    }
    const unsigned shift = static_cast<unsigned>(std::countr_zero(l.next_divisor));
    std::uint64_t steps = 0;
    for (bool more = help_scan_start(lanes, l); more; ++steps)
      more = count_step(lanes, co_await warp.read(lanes[address], Space::shared), shift);
    longest_scan_ = std::max(longest_scan_, steps);
    help_writes(lanes, l);
    co_await warp.write(lanes[address], lanes.words(value), Space::shared);
    co_await warp.write(lanes[next_address], lanes.words(next_value), Space::shared);
  }
}

// Phase B2: the ranks R_s of SUP_{s+1}(x)'s and SUP_{s+1}(y)'s keys in L_s(v), handed on by the
// keys of L_s(v): key u = L_s(v)[i] knows (U_s) that SUP_{s+1}(x)[U_s(i) .. U_s(i+1)) lie between
// u and L_s(v)[i+1] (at most 4: L_s(v) is a good sampler of SUP_{s+1}(x)); their rank is i + 1,
// or i for one equal to u. L_s(v)[0] also hands rank 0 to those below it.
Task ColeMergeSort::hand_on_ranks(Warp& warp, ColeLanes& lanes, const ColeLevelStage& l) const {
  const std::uint64_t keys = l.nodes * l.size;
  // Per lane: i (k), the x range [lo, hi), the y range [rank, other), equal flags (side bits).
  constexpr ColeLane kBounds[3] = {lo, rank, hi};
  for (std::uint64_t first = warp.block_thread(0); first < keys; first += warp.block_threads()) {
    hand_on_lanes(lanes, l, first);
    for (unsigned which = 0; which < 3; ++which)
      hand_on_bound(lanes, l, co_await warp.read(lanes[address], Space::shared),
                    lanes[kBounds[which]].data(), which);
    hand_on_key(lanes, l, co_await warp.read(lanes[address], Space::shared));
    for (unsigned which = 0; which < 2; ++which)
      hand_on_first(lanes, l, co_await warp.read(lanes[address], Space::shared), which);
    const std::uint64_t most =
        hand_on_plan(lanes, l, co_await warp.read(lanes[address], Space::shared), longest_scatter_);
    for (std::uint64_t t = 0; t < most; ++t) {
      if (t < kPlannedEntries) {
        co_await warp.write(lanes[kPlannedWrites[t].address], lanes.words(kPlannedWrites[t].value),
                            Space::shared);
      } else {
        hand_on_entry(lanes, t);
        co_await warp.write(lanes[address], lanes.words(value), Space::shared);
      }
    }
  }
}

// Step 2, the splitters of a round: each sample key e (every s-th key of a run, e = S[(a+1)s - 1])
// finds its rank in the other run by binary search in global memory. Then e is splitter
// q = a + rank/s of the pair (its place among both samples), and record q = (keys of A up to e,
// keys of B up to e) says where tile q ends.
Task ColeMergeSort::rank_samples(Warp& warp, MergeLanes& lanes, const TileRound& round) const {
  using enum MergeLane;
  const std::uint64_t s = tile_spacing();
  const std::uint64_t per_run = round.run / s;
  const std::uint64_t samples = round.pairs * 2 * per_run;
  std::vector<std::uint64_t> own(warp.width()), record(warp.width());
  std::vector<Word> values(warp.width());
  for (std::uint64_t first = warp.thread(0); first < samples; first += warp.threads()) {
    for_each_lane(lanes.lanes(), [&](std::size_t lane) {
      const std::uint64_t t = first + lane;
      lanes[lo][lane] = lanes[hi][lane] = 0;
      if (t >= samples) {
        lanes[address][lane] = kInactive;
        return;
      }
      const std::uint64_t pair = t / (2 * per_run);
      const std::uint64_t side = t % (2 * per_run) / per_run;
      const std::uint64_t a = t % per_run;
      const Address run_a = round.src + 2 * pair * round.run;
      lanes[address][lane] = run_a + side * round.run + (a + 1) * s - 1;
      lanes[run][lane] = lanes[lo][lane] = run_a + (1 - side) * round.run;
      lanes[hi][lane] = lanes[run][lane] + round.run;
      lanes[equal][lane] = 0;
      lanes[target][lane] = side;
      own[lane] = (a + 1) * s;
      record[lane] = pair * 2 * per_run + a;
    });
    const auto got = co_await warp.read(lanes[address]);
    std::copy(got.begin(), got.end(), lanes.words(key).begin());
    co_await search_ranks(warp, lanes, Space::global);
    for (unsigned word = 0; word < 2; ++word) {
      for_each_lane(lanes.lanes(), [&](std::size_t lane) {
        if (first + lane >= samples) {
          lanes[address][lane] = kInactive;
          return;
        }
        const std::uint64_t other = lanes[lo][lane] - lanes[run][lane];
        const std::uint64_t q = record[lane] + other / s;
        const bool in_a = lanes[target][lane] == 0;
        lanes[address][lane] = round.records + 2 * q + word;
        values[lane] = static_cast<Word>((word == 0) == in_a ? own[lane] : other);
      });
      co_await warp.write(lanes[address], values);
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
