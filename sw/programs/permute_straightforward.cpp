#include <vector>

#include "sw/programs/permutation_program.hpp"
#include "sw/programs/permutation_programs.hpp"

namespace mmsim {
namespace {

class PermuteStraightforward final : public PermutationProgram {
 public:
  explicit PermuteStraightforward(const ProgramArgs& args)
      : PermutationProgram(args), in_place_(args.params.boolean("in_place")) {}

  void configure(const MachineConfig& m) override {
    check_rounds(m);
    result_ = in_place_ ? 0 : n_;
  }

  std::uint64_t memory_words() const override { return 2 * n_; }

  Task run(Warp& warp) override {
    const unsigned w = warp.width();
    std::vector<Address> from(w);
    std::vector<Address> to(w);
    const std::uint64_t rounds = n_ / threads_;
    for (std::uint64_t t = 0; t < rounds; ++t) {  // in place: b[i] <- a[i]; else b[P(i)] <- a[i]
      for (unsigned lane = 0; lane < w; ++lane) {
        const std::uint64_t i = t * threads_ + warp.thread(lane);
        from[lane] = i;
        to[lane] = n_ + (in_place_ ? i : p_[i]);
      }
      co_await warp.read(from);
      co_await warp.write(to);
    }
    if (!in_place_) co_return;
    co_await warp.sync();                         // b is complete before a is overwritten
    for (std::uint64_t t = 0; t < rounds; ++t) {  // a[P(i)] <- b[i]
      for (unsigned lane = 0; lane < w; ++lane) {
        const std::uint64_t i = t * threads_ + warp.thread(lane);
        from[lane] = n_ + i;
        to[lane] = p_[i];
      }
      co_await warp.read(from);
      co_await warp.write(to);
    }
  }

  std::vector<Bound> bounds(const MachineConfig& m, const RunResult&) const override {
    const double n = static_cast<double>(n_);
    const double w = m.width;
    std::vector<Bound> out = {
        {"time_order", "worst case: every warp's writes in one bank (DMM) or w groups (UMM)",
         "n + n*l/p", n + n * m.latency / static_cast<double>(threads_), Bound::Kind::order,
         Bound::Measure::cycles, "seed 000, section V"}};
    // The reads and the copy are contiguous; the scattered writes cost what P makes them.
    if (const auto writes = scatter_stages(m, [this](std::uint64_t i) { return p_[i]; }))
      out.push_back({"congestion_exact", "contiguous accesses plus the scattered writes to P(i)",
                     in_place_ ? "3n/w + writes(P)" : "n/w + writes(P)",
                     (in_place_ ? 3 : 1) * n / w + static_cast<double>(*writes), Bound::Kind::exact,
                     Bound::Measure::stages, "seed 000, section V"});
    return out;
  }

 private:
  bool in_place_;
};

}  // namespace

ProgramInfo permute_straightforward_program() {
  return {
      "permute_straightforward",
      "a[P(i)] <- a[i] through b: b[i] <- a[i], then a[P(i)] <- b[i] (in_place: false writes "
      "b[P(i)] <- a[i] directly)",
      "seed 000, section V",
      PermutationProgram::params(
          {{"in_place", ParamType::boolean,
            "true: the paper's two passes through b, result in a; false: one pass, result in b",
            "true"}}),
      [](const ProgramArgs& args) -> std::unique_ptr<WarpProgram> {
        return std::make_unique<PermuteStraightforward>(args);
      },
  };
}

}  // namespace mmsim
