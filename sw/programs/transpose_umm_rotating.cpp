#include "sw/programs/transpose_umm_rotating.hpp"
#include "hw/machine/machine_models.hpp"

#include <optional>
#include <vector>

#include "hw/support/errors.hpp"
#include "sw/program/data_pattern.hpp"
#include "sw/program/square_matrix.hpp"
#include "sw/programs/rotating_transpose.hpp"

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
    transpose_.emplace(side_, w_);
  }

  std::uint64_t memory_words() const override { return n_; }
  std::uint64_t local_words() const override { return w_; }

  void initialize(Mmu& memory) override {
    for (Address a = 0; a < n_; ++a) memory.poke(a, data_pattern(a));
  }

  Task run(Warp& warp) override {
    for (std::uint64_t k = warp.index(); k < transpose_->pairs(); k += warp.count())
      co_await transpose_->run(warp, 0, k);
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
    std::vector<Bound> out = {
        {"time_order", "transpose on the UMM with w words of local memory per PE", "n/w + n*l/p",
         n / w + n * l / p, Bound::Kind::order, Bound::Measure::cycles, "seed 000, Lemma 3"},
    };
    if (machine_model(m).memory.splitting != Splitting::banked ||
        (m.super_warp == 1 && address_map_of(m).identity))
      out.push_back({"congestion_exact",
                     "every warp access stays in one address group and w banks: 2w per block, "
                     "4w per swapped pair",
                     "4n/w - 2*sqrt(n)", static_cast<double>(transpose_->stages()),
                     Bound::Kind::exact, Bound::Measure::stages, "seed 000, Lemma 3"});
    return out;
  }

 private:
  std::uint64_t n_;
  std::uint64_t side_;
  unsigned w_ = 1;
  std::optional<RotatingTranspose> transpose_;
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
