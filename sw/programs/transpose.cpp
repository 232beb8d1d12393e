#include "sw/programs/transpose.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "hw/machine/machine_config.hpp"
#include "hw/machine/machine_models.hpp"
#include "hw/memory/address_maps.hpp"
#include "sw/program/data_pattern.hpp"
#include "sw/program/rounds.hpp"
#include "sw/program/square_matrix.hpp"
#include "sw/programs/transpose_orders.hpp"

namespace mmsim {
namespace {

enum class Order { naive, diagonal };

class Transpose final : public WarpProgram {
 public:
  Transpose(Order order, const ParamValues& params)
      : order_(order), n_(params.count("n")), side_(square_side(n_, "n")) {}

  void configure(const MachineConfig& machine) override {
    p_ = machine.threads;
    rounds_of(n_, p_, "moves n/p elements");
  }

  std::uint64_t memory_words() const override { return 2 * n_; }

  void initialize(Mmu& memory) override {
    memory.fill(n_, [](Address a) { return data_pattern(a); });
  }

  Task run(Warp& warp) override {
    const unsigned w = warp.width();
    std::vector<Address> from(w);
    std::vector<Address> to(w);
    for (std::uint64_t t = 0; t < n_ / p_; ++t) {
      for (unsigned lane = 0; lane < w; ++lane) {
        const std::uint64_t element = t * p_ + warp.thread(lane);
        const std::uint64_t j = element / side_;
        const std::uint64_t k = element % side_;
        const std::uint64_t row = order_ == Order::naive ? j : (j + k) % side_;
        // a[row][k] goes to b[k][row]: the transpose, whatever the order.
        from[lane] = row * side_ + k;
        to[lane] = n_ + k * side_ + row;
      }
      const auto got = co_await warp.read(from);
      for (unsigned lane = 0; lane < w; ++lane)
        verification().expect_equal(got[lane], data_pattern(from[lane]), [&] {
          return "thread " + std::to_string(warp.thread(lane)) + " read a at m[" +
                 std::to_string(from[lane]) + "]";
        });
      co_await warp.write(to);  // each lane's register: the element it read
    }
  }

  void verify(const Mmu& memory) override {
    for (std::uint64_t j = 0; j < side_; ++j)
      for (std::uint64_t k = 0; k < side_; ++k)
        verification().expect_equal(memory.peek(n_ + k * side_ + j), data_pattern(j * side_ + k),
                                    [&] {
                                      return "b[" + std::to_string(k) + "][" + std::to_string(j) +
                                             "] (m[" + std::to_string(n_ + k * side_ + j) + "])";
                                    });
  }

  std::vector<Bound> bounds(const MachineConfig& m, const RunResult& result) const override;

 private:
  // Total congestion (stage groups) where the timing rules fix it for any dispatch order.
  std::optional<double> congestion(const MachineConfig& m) const;

  Order order_;
  std::uint64_t n_;
  std::uint64_t side_ = 0;
  std::uint64_t p_ = 0;
};

std::optional<double> Transpose::congestion(const MachineConfig& m) const {
  const std::uint64_t w = m.width;
  const std::uint64_t sw = w * m.super_warp;
  const double n = static_cast<double>(n_);
  const double dispatches = n / static_cast<double>(sw);  // per instruction
  const Splitting splitting = machine_model(m).memory.splitting;
  if (splitting == Splitting::crossbar) return 2 * dispatches;   // one group per dispatch
  if (splitting == Splitting::bandwidth) return 2 * dispatches;  // w distinct requests: one group
  // The papers' counts take a dispatch's lanes inside one matrix row, or whole rows, and rows
  // of b starting in bank 0.
  const bool aligned = side_ % w == 0 && (side_ % sw == 0 || sw % side_ == 0);
  if (!aligned) return std::nullopt;
  if (splitting == Splitting::coalesced) return order_ == Order::naive ? n / w + n : 2 * n;
  if (!address_map_of(m).identity) return std::nullopt;
  // Reads of a row-major block, and both diagonal accesses: s requests in every bank.
  const double spread = dispatches * m.super_warp;
  if (order_ == Order::diagonal) return 2 * spread;
  // Naive writes: column k of b lies in one bank. A dispatch inside one row of a writes sw
  // elements of one column; one spanning q = sw/sqrt(n) rows writes q columns, ceil(q/w) of
  // them per bank (Nakano and Matsumae 2013, Theorem 3).
  const std::uint64_t q = sw / side_;
  const double per_dispatch =
      side_ >= sw ? static_cast<double>(sw) : static_cast<double>((q + w - 1) / w * side_);
  return spread + dispatches * per_dispatch;
}

std::vector<Bound> Transpose::bounds(const MachineConfig& m, const RunResult& result) const {
  const double n = static_cast<double>(n_);
  const double p = static_cast<double>(p_);
  const double l = m.latency;
  const double rounds = 2 * n / p;  // a read and a write per element
  const bool naive = order_ == Order::naive;
  std::vector<Bound> out = {time_lower_bound(m, {"2n", 2 * n, "2n/p", rounds})};
  add_time_order(
      out, m,
      transpose_orders(m, n_, side_, naive ? CrossAccess::column : CrossAccess::diagonal,
                       naive ? TimeOrder{"naive transpose on the DMM", "n + n*l/p", n + n * l / p,
                                         "Nakano and Matsumae 2013, Theorem 2"}
                             : optimal_order(m, n, "diagonal transpose on the DMM",
                                             "Nakano and Matsumae 2013, Theorem 2")));
  const std::optional<double> exact = congestion(m);
  if (exact)
    out.push_back({"congestion_exact", "total congestion (stage groups of all dispatches)", "C",
                   *exact, Bound::Kind::exact, Bound::Measure::stages,
                   "Nakano and Matsumae 2013, sections III-IV"});
  if (m.dispatch == "round_robin") out.push_back(lemma1_upper(m, exact, result, rounds, "2n/p"));
  return out;
}

std::vector<ParamSpec> transpose_params() {
  return {{"n", ParamType::integer,
           "elements of the matrix (a perfect square, a multiple of p); a at m[0..n), b at "
           "m[n..2n)",
           std::nullopt}};
}

}  // namespace

ProgramInfo transpose_naive_program() {
  return {"transpose_naive",
          "b[k][j] <- a[j][k], elements in row-major order (sqrt(n) x sqrt(n) matrices)",
          "Nakano and Matsumae 2013, section III", transpose_params(),
          make_program<Transpose>(Order::naive)};
}

ProgramInfo transpose_diagonal_program() {
  return {"transpose_diagonal",
          "b[k][(j+k) mod sqrt(n)] <- a[(j+k) mod sqrt(n)][k], along diagonals",
          "Nakano and Matsumae 2013, section III", transpose_params(),
          make_program<Transpose>(Order::diagonal)};
}

}  // namespace mmsim
