#include <vector>

#include "sw/program/model_bounds.hpp"
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
    const auto same = [](std::uint64_t i) { return i; };
    const auto in_b = [this](std::uint64_t i) { return n_ + i; };
    const auto destination = [this](std::uint64_t i) { return p_[i]; };
    if (!in_place_) {  // b[P(i)] <- a[i]
      co_await move_rounds(warp, same, [this](std::uint64_t i) { return n_ + p_[i]; });
      co_return;
    }
    co_await move_rounds(warp, same, in_b);         // b[i] <- a[i]
    co_await warp.sync();                           // b is complete before a is overwritten
    co_await move_rounds(warp, in_b, destination);  // a[P(i)] <- b[i]
  }

  std::vector<Bound> bounds(const MachineConfig& m, const RunResult&) const override {
    const double n = static_cast<double>(n_);
    const double w = m.width;
    const double p = static_cast<double>(threads_);
    const double passes = in_place_ ? 2 : 1;  // each a read and a write per word
    std::vector<Bound> out = {
        time_lower_bound(m, {in_place_ ? "4n" : "2n", 2 * passes * n, in_place_ ? "4n/p" : "2n/p",
                             2 * passes * n / p})};
    const TimeOrder worst{"worst case: every warp's writes in one bank (DMM) or w groups (UMM)",
                          "n + n*l/p", n + n * m.latency / p, "Nakano 2012, section V"};
    OrdersByColumn orders =
        orders_everywhere(m, n, "straightforward permutation", "Nakano 2012, section V", worst);
    orders.rsdmm = random_shift_order(m, n, "Nakano and Matsumae 2013, Theorem 6");
    add_time_order(out, m, orders);
    if (machine_model(m).memory.splitting == Splitting::crossbar) {
      out.push_back({"congestion_exact", "one stage group per dispatch of the one unit",
                     in_place_ ? "4n/p" : "2n/p", 2 * passes * n / p, Bound::Kind::exact,
                     Bound::Measure::stages, "docs/semantics.md §3"});
      return out;
    }
    // The reads and the copy are contiguous; the scattered writes cost what P makes them.
    if (const auto writes = scatter_stages(m, [this](std::uint64_t i) { return p_[i]; }))
      out.push_back({"congestion_exact", "contiguous accesses plus the scattered writes to P(i)",
                     in_place_ ? "3n/w + writes(P)" : "n/w + writes(P)",
                     (in_place_ ? 3 : 1) * n / w + static_cast<double>(*writes), Bound::Kind::exact,
                     Bound::Measure::stages, "Nakano 2012, section V"});
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
      "Nakano 2012, section V",
      PermutationProgram::params(
          {{"in_place", ParamType::boolean,
            "true: the paper's two passes through b, result in a; false: one pass, result in b",
            "true"}}),
      make_program<PermuteStraightforward>(),
  };
}

}  // namespace mmsim
