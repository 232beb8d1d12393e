#include "testbench/experiments/congestion_experiment.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/machine/memory_specs.hpp"
#include "hw/machine/resolved_machine.hpp"
#include "hw/memory/address_map.hpp"
#include "hw/memory/address_maps.hpp"
#include "hw/mmu/stage_splitter.hpp"
#include "hw/support/errors.hpp"
#include "hw/support/random.hpp"
#include "hw/support/vector_isa.hpp"
#include "sw/program/input_error.hpp"
#include "sw/support/suggest.hpp"

namespace mmsim {
namespace {

// The seed of one chunk of one column (w, n): every input mixed in, so that chunks and columns
// draw independent streams.
std::uint64_t chunk_seed(std::uint64_t seed, unsigned w, std::uint64_t n, std::uint64_t chunk) {
  std::uint64_t state = seed;
  for (const std::uint64_t x : {std::uint64_t{w}, n, chunk}) {
    state ^= splitmix64(state) + x;
  }
  return splitmix64(state);
}

// Uniform addresses in [0, n), n <= 2^32: eight xoshiro128+ generators side by side (one
// vector each step), and Lemire's multiply-shift of each 32-bit draw, rejecting the few draws
// that would bias it (none when n is a power of two).
class AddressSource {
 public:
  AddressSource(std::uint64_t n, std::uint64_t seed)
      : n_(n), threshold_(lemire_threshold<32>(n)), spare_(seed) {
    std::uint64_t state = seed;
    for (Lanes& word : state_.s)
      for (int k = 0; k < 8; ++k) word[k] = static_cast<std::uint32_t>(splitmix64(state) >> 32) | 1;
  }

  void fill(std::span<Address> out) {
    static constexpr Wide low = {0xFFFFFFFFull, 0xFFFFFFFFull, 0xFFFFFFFFull, 0xFFFFFFFFull};
    const Wide n = {n_, n_, n_, n_};
    if (std::has_single_bit(n_)) {
      // (x * 2^k) >> 32 is a shift.
      const auto shift = static_cast<std::uint64_t>(32 - std::countr_zero(n_));
      fill(out, [shift](Wide x) { return x >> shift; });
    } else {
      fill(out, [n](Wide x) { return ((x & low) * (n & low)) >> 32; });
    }
  }

 private:
  using Lanes = std::uint32_t __attribute__((vector_size(32)));
  using Wide = std::uint64_t __attribute__((vector_size(32)));
  struct State {
    Lanes s[4];
  };

  static Lanes next(State& x) {
    const Lanes r = x.s[0] + x.s[3];
    const Lanes t = x.s[1] << 9;
    x.s[2] ^= x.s[0];
    x.s[3] ^= x.s[1];
    x.s[1] ^= x.s[2];
    x.s[0] ^= x.s[3];
    x.s[2] ^= t;
    x.s[3] = (x.s[3] << 11) | (x.s[3] >> 21);
    return r;
  }

  // `scale(x)`: the address of each 32-bit draw x.
  template <class Scale>
  void fill(std::span<Address> out, Scale scale) {
    State x = state_;  // in registers for the loop
    const std::size_t size = out.size();
    Address* o = out.data();
    std::size_t i = 0;
    for (; i + 8 <= size; i += 8) emit(next(x), o + i, scale);
    if (i < size) {
      Address rest[8];
      emit(next(x), rest, scale);
      std::copy(rest, rest + (size - i), o + i);
    }
    state_ = x;
  }

  template <class Scale>
  void emit(Lanes r, Address* out, Scale scale) {
    const Wide low =
        scale(__builtin_convertvector(__builtin_shufflevector(r, r, 0, 1, 2, 3), Wide));
    const Wide high =
        scale(__builtin_convertvector(__builtin_shufflevector(r, r, 4, 5, 6, 7), Wide));
    std::memcpy(out, &low, sizeof low);
    std::memcpy(out + 4, &high, sizeof high);
    if (threshold_ == 0) return;
    // Lemire's rejection: the draws whose product's low half falls below the threshold.
    for (int k = 0; k < 8; ++k)
      if (((std::uint64_t{r[k]} * n_) & 0xFFFFFFFFull) < threshold_) out[k] = redraw();
  }

  // A draw from the spare generator, for the rare rejected lane.
  Address redraw() { return uniform_below(spare_, n_); }

  std::uint64_t n_;
  std::uint64_t threshold_;
  SplitMix32 spare_;
  State state_;
};

// Lanes drawn and mapped at once: a few rounds of a small super warp, within the L1 cache.
constexpr std::size_t kBatchLanes = 2048;

struct Sums {
  std::uint64_t sum = 0;
  std::uint64_t squares = 0;
};

struct CellTask {
  unsigned w;
  unsigned s;
  std::uint64_t n;
};

MachineConfig cell_machine(const CongestionSpec& spec, const CellTask& cell) {
  MachineConfig c;
  // The random shift unit's map is the rsdmm's own; the sdmm takes every other map.
  const AddressMapInfo* map = spec.own_map ? spec.own_map.get() : find_address_map(spec.map);
  c.model = map && map->shift_table ? "rsdmm" : "sdmm";
  c.width = cell.w;
  c.super_warp = cell.s;
  c.threads = std::uint64_t{cell.w} * cell.s;
  c.memory_words = cell.n;
  c.seed = spec.seed;
  c.ports = spec.ports;
  if (spec.own_map)
    c.mapping.own_map = spec.own_map;
  else
    c.mapping.address_map = spec.map;
  return c;
}

// One chunk of one column (w, n): every round draws the addresses of the largest super warp,
// and the super warp of s warps takes the first s*w of them (common random numbers). Each
// cell still sees s*w independent uniform addresses per round, so its mean and standard error
// are those of its own experiment; the drawing and the mapping are done once for all s.
// Returns the sums of Y and Y^2 for each s of `super_warps`.
std::vector<Sums> run_chunk(const CongestionSpec& spec, unsigned w, std::uint64_t n,
                            std::uint64_t chunk, std::uint64_t rounds) {
  const unsigned most = *std::max_element(spec.super_warps.begin(), spec.super_warps.end());
  const std::uint64_t seed = chunk_seed(spec.seed, w, n, chunk);
  MachineConfig machine = cell_machine(spec, {w, most, n});
  if (address_map_of(machine).drawn) machine.seed = seed;  // a map (a table) per chunk
  std::vector<MemorySpec> memories = memory_specs(resolve_machine(machine));
  const AddressMap& map = *memories.front().map;
  StageSplitter& packing = *memories.front().splitter;

  const std::size_t lanes = std::size_t{w} * most;
  // Small super warps draw and map several rounds at once (the map works lane by lane, and
  // writes each lane's cell over its address); the packing unit sees one super warp at a time.
  const std::uint64_t batch = std::max<std::uint64_t>(1, kBatchLanes / lanes);
  std::vector<Address> lane(lanes * batch);
  const bool identity = map.identity();
  AddressSource source(n, seed ^ 0x5851F42D4C957F2Dull);
  std::vector<Sums> sums(spec.super_warps.size());
  for (std::uint64_t r = 0; r < rounds; r += batch) {
    const std::uint64_t now = std::min(batch, rounds - r);
    const std::span<Address> drawn(lane.data(), lanes * now);
    with_vector_isa([&] { source.fill(drawn); });
    if (!identity) map.locate(drawn, drawn);
    for (std::uint64_t k = 0; k < now; ++k)
      for (std::size_t i = 0; i < spec.super_warps.size(); ++i) {
        const std::uint64_t y =
            packing.stages(drawn.subspan(k * lanes, std::size_t{w} * spec.super_warps[i]));
        sums[i].sum += y;
        sums[i].squares += y * y;
      }
  }
  return sums;
}

[[noreturn]] void bad_option(const std::string& option, const std::string& message) {
  throw InputError({option, 0, 0}, message);
}

void check(const CongestionSpec& spec) {
  if (!spec.own_map && !find_address_map(spec.map)) {
    std::vector<std::string> names;
    for (const AddressMapInfo& map : address_maps()) names.push_back(map.name);
    bad_option("--map", "unknown address map '" + spec.map + "'" + suggestion(spec.map, names));
  }
  if (spec.widths.empty()) bad_option("--width", "expected at least one width");
  if (spec.super_warps.empty()) bad_option("--super-warp", "expected at least one super warp size");
  if (spec.arrays.empty()) bad_option("--array", "expected at least one array size");
  if (spec.rounds < 1) bad_option("--rounds", "expected at least one round");
  for (const unsigned s : spec.super_warps)
    if (s < 1)
      bad_option("--super-warp",
                 "the super warp size s must be at least 1 (got " + std::to_string(s) + ")");
  for (const unsigned w : spec.widths) {
    if (w < 1) bad_option("--width", "the width w must be at least 1 (got 0)");
    for (const std::uint64_t n : spec.arrays) {
      if (n < w)
        bad_option("--array", "the array of n = " + std::to_string(n) +
                                  " words is smaller than w = " + std::to_string(w));
      if (n > kMaxMemoryWords)
        bad_option("--array", "the array of n = " + std::to_string(n) +
                                  " words exceeds the limit of 2^32 words");
      for (const unsigned s : spec.super_warps) {
        try {
          validate(cell_machine(spec, {w, s, n}));
        } catch (const ConfigError& e) {
          const std::string option = e.key() == "address_map" ? "--map"
                                     : e.key() == "width"     ? "--width"
                                     : e.key() == "ports"     ? "--ports"
                                                              : "--super-warp";
          bad_option(option, e.what());
        }
      }
    }
  }
}

}  // namespace

double analytic_ratio(unsigned width, unsigned super_warp) {
  const double log_w = std::log2(static_cast<double>(width));
  const double log_s = std::log2(static_cast<double>(super_warp));
  return 2 * (log_s + 1) * log_w / (super_warp * (std::log2(log_w) + 1));
}

std::vector<CongestionCell> run_congestion(
    const CongestionSpec& spec, const std::function<void(std::uint64_t, std::uint64_t)>& progress) {
  check(spec);
  struct Column {
    unsigned w;
    std::uint64_t n;
  };
  std::vector<Column> columns;
  for (const std::uint64_t n : spec.arrays)
    for (const unsigned w : spec.widths) columns.push_back({w, n});

  // A map of one's own asks the user's code for its rows: all of them now, in this thread.
  if (spec.own_map)
    for (const Column& column : columns)
      memory_specs(resolve_machine(cell_machine(spec, {column.w, 1, column.n})))
          .front()
          .map->look_up_all_rows();

  const std::uint64_t chunks = (spec.rounds + kChunkRounds - 1) / kChunkRounds;
  const std::uint64_t tasks = columns.size() * chunks;
  std::vector<std::vector<Sums>> results(tasks);
  // Widest columns first, so that no thread is left with a long one at the end.
  std::vector<std::uint64_t> order(tasks);
  for (std::uint64_t t = 0; t < tasks; ++t) order[t] = t;
  std::stable_sort(order.begin(), order.end(), [&](std::uint64_t a, std::uint64_t b) {
    return columns[a / chunks].w > columns[b / chunks].w;
  });

  std::atomic<std::uint64_t> next{0};
  std::mutex mutex;
  std::uint64_t done = 0;
  std::exception_ptr failure;
  const auto worker = [&] {
    try {
      for (std::uint64_t i = next++; i < tasks; i = next++) {
        const std::uint64_t task = order[i];
        const std::uint64_t chunk = task % chunks;
        const std::uint64_t rounds = std::min(kChunkRounds, spec.rounds - chunk * kChunkRounds);
        const Column& column = columns[task / chunks];
        results[task] = run_chunk(spec, column.w, column.n, chunk, rounds);
        const std::lock_guard<std::mutex> lock(mutex);
        ++done;
        if (progress) progress(done, tasks);
      }
    } catch (...) {
      const std::lock_guard<std::mutex> lock(mutex);
      failure = std::current_exception();
      next = tasks;
    }
  };
  const unsigned threads =
      spec.threads ? spec.threads : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < std::min<std::uint64_t>(threads, tasks); ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& thread : pool) thread.join();
  if (failure) std::rethrow_exception(failure);

  // The cells in table order: n, then s, then w.
  std::vector<CongestionCell> out;
  for (const std::uint64_t n : spec.arrays)
    for (std::size_t i = 0; i < spec.super_warps.size(); ++i)
      for (const unsigned w : spec.widths) {
        std::size_t c = 0;
        while (columns[c].w != w || columns[c].n != n) ++c;
        Sums total;
        for (std::uint64_t chunk = 0; chunk < chunks; ++chunk) {
          total.sum += results[c * chunks + chunk][i].sum;
          total.squares += results[c * chunks + chunk][i].squares;
        }
        const double rounds = static_cast<double>(spec.rounds);
        const unsigned s = spec.super_warps[i];
        const double mean = static_cast<double>(total.sum) / rounds;
        // Sample variance from exact integer sums (no loss of precision in the sums themselves).
        const double variance = spec.rounds > 1
                                    ? std::max(0.0, (static_cast<double>(total.squares) -
                                                     mean * static_cast<double>(total.sum)) /
                                                        (rounds - 1))
                                    : 0.0;
        CongestionCell cell;
        cell.width = w;
        cell.super_warp = s;
        cell.array = n;
        cell.rounds = spec.rounds;
        cell.congestion = mean;
        cell.ratio = mean / s;
        cell.standard_error = std::sqrt(variance / rounds) / s;
        cell.analytic = analytic_ratio(w, s);
        out.push_back(cell);
      }
  return out;
}

}  // namespace mmsim
