#include "sw/programs/transpose_in_place.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "sw/program/data_pattern.hpp"
#include "sw/program/model_bounds.hpp"
#include "sw/program/rounds.hpp"
#include "sw/program/square_matrix.hpp"
#include "sw/programs/transpose_orders.hpp"

namespace mmsim {
namespace {

// What both share: the matrix, its rounds of p elements, and the check of the result.
class InPlaceTranspose : public WarpProgram {
 public:
  explicit InPlaceTranspose(const ParamValues& params)
      : n_(params.count("n")), side_(square_side(n_, "n")) {}

  void configure(const MachineConfig& machine) override {
    p_ = machine.threads;
    w_ = machine.width;
    rounds_ = rounds_of(n_, p_, "takes n/p elements");
  }

  void initialize(Mmu& memory) override {
    memory.fill(n_, [](Address a) { return data_pattern(a); });
  }

  void verify(const Mmu& memory) override {
    for (std::uint64_t j = 0; j < side_; ++j)
      for (std::uint64_t k = 0; k < side_; ++k)
        verification().expect_equal(memory.peek(j * side_ + k), data_pattern(source(j, k)), [&] {
          return "a[" + std::to_string(j) + "][" + std::to_string(k) + "]";
        });
  }

 protected:
  // Where the value that ends in a[j][k] started: k*sqrt(n) + j for a transpose.
  virtual std::uint64_t source(std::uint64_t j, std::uint64_t k) const { return k * side_ + j; }
  // Whether the machine's memory is banked with the papers' interleaving and a dispatch's lanes
  // lie inside one matrix row or cover whole rows (the papers' counts assume it).
  bool aligned(const MachineConfig& m) const {
    const std::uint64_t sw = std::uint64_t{m.width} * m.super_warp;
    return side_ % m.width == 0 && (side_ % sw == 0 || sw % side_ == 0);
  }

  std::uint64_t n_;
  std::uint64_t side_;
  std::uint64_t p_ = 0;
  unsigned w_ = 1;
  std::uint64_t rounds_ = 0;
};

class DiagonalInPlace final : public InPlaceTranspose {
 public:
  using InPlaceTranspose::InPlaceTranspose;

  std::uint64_t memory_words() const override { return 2 * n_; }

  Task run(Warp& warp) override {
    const unsigned w = warp.width();
    std::vector<Address> from(w);
    std::vector<Address> to(w);
    for (unsigned pass = 0; pass < 2; ++pass) {
      if (pass == 1) co_await warp.sync();  // b is complete before a is overwritten
      for (std::uint64_t t = 0; t < rounds_; ++t) {
        for (unsigned lane = 0; lane < w; ++lane) {
          const std::uint64_t e = t * p_ + warp.thread(lane);
          const std::uint64_t j = e / side_;
          const std::uint64_t k = e % side_;
          const std::uint64_t x = (j + k) % side_;
          from[lane] = pass == 0 ? e : n_ + k * side_ + x;  // a[j][k], then b[k][x]
          to[lane] = pass == 0 ? n_ + e : x * side_ + k;    // b[j][k], then a[x][k]
        }
        co_await warp.read(from);
        co_await warp.write(to);
      }
    }
  }

  std::vector<Bound> bounds(const MachineConfig& m, const RunResult& result) const override {
    const double n = static_cast<double>(n_);
    const double p = static_cast<double>(p_);
    const double w = m.width;
    std::vector<Bound> out = {time_lower_bound(m, {"4n", 4 * n, "4n/p", 4 * n / p})};
    add_time_order(out, m,
                   transpose_orders(m, n_, side_, CrossAccess::diagonal,
                                    optimal_order(m, n, "diagonal transpose on the DMM",
                                                  "Nakano 2012, Lemma 2")));
    // Stage groups per dispatch in each pass, where every dispatch of the pass has the same.
    std::optional<TimeOrder> congestion;
    double copy_k = 0;
    double diagonal_k = 0;
    switch (column_of(m)) {
      case Column::pram:
        congestion = {"one stage group per dispatch of the one unit", "4n/p", 4 * n / p,
                      "docs/semantics.md §3"};
        copy_k = diagonal_k = 1;
        break;
      case Column::bpram:
        congestion = {"w distinct requests per warp access: one group", "4n/w", 4 * n / w,
                      "docs/semantics.md §3"};
        copy_k = diagonal_k = 1;
        break;
      case Column::dmm:
      case Column::sdmm:
        if (aligned(m)) {
          congestion = {"rows and diagonals: s requests in every bank per dispatch", "4n/w",
                        4 * n / w, "Nakano 2012, Lemma 2"};
          copy_k = diagonal_k = m.super_warp;
        }
        break;
      case Column::umm:
        if (side_ % m.width == 0) {
          congestion = {
              "the copy row by row; a diagonal of b and a column of a cross w address "
              "groups per warp",
              "2n/w + 2n", 2 * n / w + 2 * n, "Nakano 2012, section II"};
          copy_k = 1;
          diagonal_k = w;
        }
        break;
      default:
        break;
    }
    if (congestion)
      out.push_back({"congestion_exact", congestion->label, congestion->formula, congestion->value,
                     Bound::Kind::exact, Bound::Measure::stages, congestion->source});
    if (m.dispatch == "round_robin" && congestion) {
      // Each pass: 2n/p rounds of U = p/(s*w) units, k groups per dispatch; the barrier opens
      // as the copy's last request completes.
      const double units = p / (w * m.super_warp);
      const double rounds = 2 * n / p;
      out.push_back({"time_exact", "round robin, two passes of 2n/p rounds",
                     "T(k1) + T(k2), T(k) = (2n/p - 1)*max(U*k, k + l - 1) + U*k + l - 1, "
                     "U = p/(s*w)",
                     round_robin_time(rounds, units, copy_k, m.latency) +
                         round_robin_time(rounds, units, diagonal_k, m.latency),
                     Bound::Kind::exact, Bound::Measure::cycles, "docs/semantics.md §3"});
    }
    if (m.dispatch == "round_robin")
      out.push_back(lemma1_upper(m, congestion ? std::optional(congestion->value) : std::nullopt,
                                 result, 4 * n / p, "4n/p"));
    out.push_back({"syncthreads_exact", "one barrier between the two passes", "1", 1,
                   Bound::Kind::exact, Bound::Measure::syncthreads, "mmsim"});
    return out;
  }
};

class Exchange final : public InPlaceTranspose {
 public:
  explicit Exchange(const ParamValues& params)
      : InPlaceTranspose(params), as_printed_(variant(params.string("variant"))) {}

  void configure(const MachineConfig& machine) override {
    InPlaceTranspose::configure(machine);
    count_dispatches();
  }

  std::uint64_t memory_words() const override { return n_; }

  Task run(Warp& warp) override {
    const unsigned w = warp.width();
    std::vector<Address> own(w);
    std::vector<Address> mirror(w);
    std::vector<Word> mine(w);
    for (std::uint64_t t = 0; t < rounds_; ++t) {
      for (unsigned lane = 0; lane < w; ++lane) {
        const std::uint64_t e = t * p_ + warp.thread(lane);
        const std::uint64_t j = e / side_;
        const std::uint64_t k = e % side_;
        const bool active = as_printed_ || j < k;
        own[lane] = active ? e : kInactive;                 // a[j][k]
        mirror[lane] = active ? k * side_ + j : kInactive;  // a[k][j]
      }
      const auto got = co_await warp.read(own);
      std::copy(got.begin(), got.end(), mine.begin());
      co_await warp.read(mirror);
      co_await warp.write(own);  // each lane's register: the a[k][j] it read
      co_await warp.write(mirror, mine);
    }
  }

  std::vector<ProgramFigure> figures() const override {
    if (!as_printed_) return {};
    return {{"pairs_transposed",
             "pairs a[j][k], a[k][j] (j < k) whose two threads shared a round and so swapped "
             "them once; the others were swapped twice",
             static_cast<double>(pairs_transposed()), "pairs"}};
  }

  std::vector<Bound> bounds(const MachineConfig& m, const RunResult& result) const override;

 private:
  static bool variant(const std::string& name) {
    if (name == "as_printed") return true;
    if (name == "corrected") return false;
    throw ParamError("variant", "expected corrected or as_printed, got '" + name + "'");
  }

  // Under synchronous rounds (every read of a round before its writes), a pair is exchanged
  // once per round that holds one of its two threads: twice, back in place, when they fall in
  // different rounds.
  bool transposed(std::uint64_t j, std::uint64_t k) const {
    return !as_printed_ || (j * side_ + k) / p_ == (k * side_ + j) / p_;
  }
  std::uint64_t source(std::uint64_t j, std::uint64_t k) const override {
    return transposed(j, k) ? k * side_ + j : j * side_ + k;
  }
  std::uint64_t pairs_transposed() const {
    std::uint64_t pairs = 0;
    for (std::uint64_t j = 0; j < side_; ++j)
      for (std::uint64_t k = j + 1; k < side_; ++k) pairs += transposed(j, k) ? 1 : 0;
    return pairs;
  }

  // Counts, for the corrected variant, the warp accesses with an active lane: per warp (the
  // busiest warp's rounds), over all warps, and the rounds with any active lane at all.
  void count_dispatches() {
    const std::uint64_t warps = p_ / w_;
    std::vector<std::uint64_t> rounds(warps, 0);
    busy_warp_rounds_ = 0;
    busy_rounds_ = 0;
    for (std::uint64_t t = 0; t < rounds_; ++t) {
      bool any = false;
      for (std::uint64_t u = 0; u < warps; ++u) {
        bool active = as_printed_;
        for (unsigned lane = 0; lane < w_ && !active; ++lane) {
          const std::uint64_t e = t * p_ + u * w_ + lane;
          active = e / side_ < e % side_;
        }
        rounds[u] += active ? 1 : 0;
        busy_warp_rounds_ += active ? 1 : 0;
        any = any || active;
      }
      busy_rounds_ += any ? 1 : 0;
    }
    busiest_ = *std::max_element(rounds.begin(), rounds.end());
  }

  bool as_printed_;
  std::uint64_t busiest_ = 0;           // rounds in which the busiest warp has an active lane
  std::uint64_t busy_warp_rounds_ = 0;  // (warp, round) pairs with an active lane
  std::uint64_t busy_rounds_ = 0;       // rounds with an active lane in any warp
};

std::vector<Bound> Exchange::bounds(const MachineConfig& m, const RunResult& result) const {
  const double n = static_cast<double>(n_);
  const double side = static_cast<double>(side_);
  const double w = m.width;
  const double chain = 4 * static_cast<double>(busiest_);
  const double d = static_cast<double>(busy_warp_rounds_);
  std::vector<Bound> out = {
      as_printed_ ? time_lower_bound(m, {"4n", 4 * n, "4n/p", chain})
                  : time_lower_bound(m, {"2(n - sqrt(n))", 2 * (n - side), "4r", chain,
                                         "r = rounds in which the busiest warp has a lane with "
                                         "j < k"})};
  const double g = static_cast<double>(std::gcd(side_, std::uint64_t{m.width}));
  add_time_order(
      out, m,
      transpose_orders(m, n_, side_, CrossAccess::column,
                       {"straightforward transpose on the DMM, G = GCD(sqrt(n), w) = " +
                            std::to_string(static_cast<int>(g)),
                        "(n/w)*G + n*l/p", n / w * g + n * m.latency / static_cast<double>(p_),
                        "Nakano 2012, section IV"}));
  // Per warp access with an active lane: the own cells lie in one row (one group, one per
  // bank), the mirrors down one column (one bank, one group each), when sqrt(n) is a multiple
  // of w. As printed every lane is active: d = n/w and n requests down columns per access.
  std::optional<TimeOrder> congestion;
  const std::string d_text = as_printed_ ? "n/w" : "d";
  const std::string column_text = as_printed_ ? "2n" : "n - sqrt(n)";
  const double columns = as_printed_ ? 2 * n : n - side;
  switch (column_of(m)) {
    case Column::pram:
      congestion = {"one stage group per dispatch of the one unit", as_printed_ ? "4n/p" : "4q",
                    4 * static_cast<double>(busy_rounds_), "docs/semantics.md §3"};
      break;
    case Column::bpram:
      congestion = {"one group per warp access", "4" + d_text, 4 * d, "docs/semantics.md §3"};
      break;
    case Column::dmm:
    case Column::umm:
      if (side_ % m.width == 0)
        congestion = {"rows one group each, columns one bank (DMM) or w groups (UMM)",
                      "2" + d_text + " + " + column_text, 2 * d + columns,
                      "Nakano 2012, section IV"};
      break;
    default:
      break;
  }
  if (congestion) {
    if (!as_printed_)
      congestion->label += "; d = warp accesses with a lane j < k, q = rounds with one";
    out.push_back({"congestion_exact", congestion->label, congestion->formula, congestion->value,
                   Bound::Kind::exact, Bound::Measure::stages, congestion->source});
  }
  if (m.dispatch == "round_robin")
    out.push_back(lemma1_upper(m, congestion ? std::optional(congestion->value) : std::nullopt,
                               result, 4 * n / static_cast<double>(p_), "4n/p"));
  return out;
}

ParamSpec matrix_param() {
  return {"n", ParamType::integer,
          "elements of the matrix (a perfect square, a multiple of p); a at m[0..n)", std::nullopt};
}

}  // namespace

ProgramInfo transpose_diagonal_in_place_program() {
  return {
      "transpose_diagonal_in_place",
      "b[j][k] <- a[j][k] (b at m[n..2n)), a barrier, then a[(j+k) mod sqrt(n)][k] <- "
      "b[k][(j+k) mod sqrt(n)]: in place through b, conflict-free on the DMM",
      "Nakano 2012, Lemma 2",
      {matrix_param()},
      make_program<DiagonalInPlace>(),
  };
}

ProgramInfo transpose_exchange_program() {
  return {
      "transpose_exchange",
      "thread of element (j, k) exchanges a[j][k] and a[k][j]: as printed every pair twice, "
      "corrected only for j < k",
      "Nakano 2012, section IV",
      {matrix_param(),
       {"variant", ParamType::string,
        "corrected: only the thread with j < k exchanges; as_printed: every thread, so each "
        "pair twice (the result is checked against synchronous rounds)",
        "corrected"}},
      make_program<Exchange>(),
  };
}

}  // namespace mmsim
