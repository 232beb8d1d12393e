#include "sw/programs/transpose_umm_rotating.hpp"

#include <vector>

#include "hw/errors.hpp"
#include "sw/program/data_pattern.hpp"
#include "sw/program/square_matrix.hpp"

namespace mmsim {
namespace {

class TransposeUmmRotating final : public WarpProgram {
 public:
  explicit TransposeUmmRotating(const ParamValues& params) : n_(params.count("n")) {
    side_ = square_side(n_, "n");
  }

  // One warp per pair of blocks {A[i][j], A[j][i]} (i <= j): the work of the whole matrix.
  std::uint64_t default_threads(const MachineConfig& machine) const override {
    const unsigned width = machine.width;
    if (side_ % width != 0) return width;  // configure() reports the real problem
    const std::uint64_t blocks = side_ / width;
    return width * (blocks * (blocks + 1) / 2);
  }

  void configure(const MachineConfig& machine) override {
    w_ = machine.width;
    if (side_ % w_ != 0)
      throw ParamError("n", "sqrt(n) = " + std::to_string(side_) + " must be a multiple of w = " +
                                std::to_string(w_) + " (the matrix is cut into w x w blocks)");
    blocks_ = side_ / w_;
    for (std::uint64_t i = 0; i < blocks_; ++i)
      for (std::uint64_t j = i; j < blocks_; ++j) pairs_.emplace_back(i, j);
  }

  std::uint64_t memory_words() const override { return n_; }
  std::uint64_t local_words() const override { return w_; }

  void initialize(Mmu& memory) override {
    for (Address a = 0; a < n_; ++a) memory.poke(a, data_pattern(a));
  }

  Task run(Warp& warp) override {
    std::vector<Address> addresses(w_);
    std::vector<Address> partner(w_);
    std::vector<Word> values(w_);
    for (std::uint64_t k = warp.index(); k < pairs_.size(); k += warp.count()) {
      const auto [i, j] = pairs_[k];
      co_await transpose_block(warp, i, j, addresses, values);
      if (i == j) continue;
      co_await transpose_block(warp, j, i, addresses, values);
      // Swap A[i][j] and A[j][i] row by row: each access is one address group.
      for (std::uint64_t r = 0; r < w_; ++r) {
        for (unsigned lane = 0; lane < w_; ++lane) {
          addresses[lane] = cell(i, j, r, lane);
          partner[lane] = cell(j, i, r, lane);
        }
        const auto upper = co_await warp.read(addresses);
        values.assign(upper.begin(), upper.end());
        const auto lower = co_await warp.read(partner);
        co_await warp.write(addresses, lower);
        co_await warp.write(partner, values);
      }
    }
  }

  void verify(const Mmu& memory) override {
    for (std::uint64_t r = 0; r < side_; ++r)
      for (std::uint64_t c = 0; c < side_; ++c)
        verification().expect_equal(memory.peek(r * side_ + c), data_pattern(c * side_ + r), [=] {
          return "a[" + std::to_string(r) + "][" + std::to_string(c) + "]";
        });
  }

  std::vector<Bound> bounds(const MachineConfig& m, const RunResult&) const override {
    const double n = static_cast<double>(n_);
    const double w = m.width;
    const double l = m.latency;
    const double p = static_cast<double>(m.threads);
    const double side = static_cast<double>(side_);
    std::vector<Bound> out = {
        {"time_order", "transpose on the UMM with w words of local memory per PE",
         "n/w + n*l/p", n / w + n * l / p, Bound::Kind::order, Bound::Measure::cycles,
         "seed 000, Lemma 3"},
    };
    if (m.model == "umm")
      out.push_back({"congestion_exact",
                     "every warp access stays in one address group: 2w per block, 4w per swapped pair",
                     "4n/w - 2*sqrt(n)", 4 * n / w - 2 * side, Bound::Kind::exact,
                     Bound::Measure::stages, "seed 000, Lemma 3"});
    return out;
  }

 private:
  // Address of element (row r, column c) of block A[bi][bj].
  Address cell(std::uint64_t bi, std::uint64_t bj, std::uint64_t r, std::uint64_t c) const {
    return (bi * w_ + r) * side_ + bj * w_ + c;
  }

  // The rotating technique on block A[bi][bj], in place, through the PEs' local memories.
  Task transpose_block(Warp& warp, std::uint64_t bi, std::uint64_t bj,
                       std::vector<Address>& addresses, std::vector<Word>& values) {
    const unsigned w = w_;
    for (unsigned t = 0; t < w; ++t) {
      for (unsigned lane = 0; lane < w; ++lane) addresses[lane] = cell(bi, bj, t, (t + lane) % w);
      const auto got = co_await warp.read(addresses);
      for (unsigned lane = 0; lane < w; ++lane) warp.local(lane)[t] = got[lane];
    }
    for (unsigned t = 0; t < w; ++t) {
      for (unsigned lane = 0; lane < w; ++lane) {
        const unsigned column = (t + w - lane) % w;
        addresses[lane] = cell(bi, bj, t, column);
        values[lane] = warp.local(lane)[column];
      }
      co_await warp.write(addresses, values);
    }
  }

  std::uint64_t n_;
  std::uint64_t side_;
  unsigned w_ = 1;
  std::uint64_t blocks_ = 0;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> pairs_;
};

}  // namespace

ProgramInfo transpose_umm_rotating_program() {
  return {
      "transpose_umm_rotating",
      "transposes a sqrt(n) x sqrt(n) matrix in place: w x w blocks by the rotating technique "
      "through w words of local memory per PE, then block swaps",
      "seed 000, Lemma 3",
      {{"n", ParamType::integer, "matrix size: a perfect square with sqrt(n) a multiple of w",
        std::nullopt}},
      [](const ProgramArgs& args) -> std::unique_ptr<WarpProgram> {
        return std::make_unique<TransposeUmmRotating>(args.params);
      },
  };
}

}  // namespace mmsim
