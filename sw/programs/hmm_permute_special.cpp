#include <optional>

#include "sw/programs/hmm_permutation_program.hpp"
#include "sw/programs/hmm_permutation_programs.hpp"

namespace mmsim {
namespace {

// A special permutation: its spec (the reference the result is checked against, made by
// sw/planning) and its bit permutation (what the passes run).
struct Kind {
  std::string name;
  planning::PermutationSpec::Kind spec;
  BitPermutation (*bits)(unsigned m);
};

Kind kind_named(const std::string& name) {
  using K = planning::PermutationSpec::Kind;
  if (name == "transpose") return {name, K::transpose, &BitPermutation::transpose};
  if (name == "shuffle") return {name, K::stride, &BitPermutation::shuffle};
  if (name == "bit_reversal") return {name, K::bit_reversal, &BitPermutation::bit_reversal};
  throw ParamError("kind", "expected transpose, shuffle or bit_reversal, got '" + name + "'");
}

// The permutation spec of a kind for n elements: the perfect shuffle is stride n/2.
planning::PermutationSpec spec_of(const Kind& kind, std::uint64_t n) {
  planning::PermutationSpec spec;
  spec.kind = kind.spec;
  if (kind.spec == planning::PermutationSpec::Kind::stride) spec.stride = n / 2;
  return spec;
}

// Transpose, shuffle and bit reversal in one pass through shared memory (bit_staging.hpp): SM j
// takes chunk t*d + j in batch t; a at m[0..n), b one stride on.
class HmmPermuteSpecial final : public HmmPermutationProgram {
 public:
  HmmPermuteSpecial(const ProgramArgs& args, const Kind& kind)
      : HmmPermutationProgram("hmm_permute_special", args, spec_of(kind, args.params.count("n"))),
        kind_(kind) {}

  void configure(const MachineConfig& machine) override {
    HmmPermutationProgram::configure(machine);
    require_powers_of_two("the " + kind_.name + " permutation moves the bits of the index");
    if (kind_.name == "transpose" && log2_n() % 2 != 0)
      throw ParamError("n", "the transpose of a 2^k x 2^k matrix needs n = 4^k; " +
                                std::to_string(n_ / 2) + " or " + std::to_string(2 * n_) +
                                " would be");
    staging_.emplace(staging_of(kind_.bits(log2_n()), kind_.name));
  }

  std::uint64_t memory_words() const override { return 2 * stride(); }
  std::uint64_t shared_words() const override { return block_threads(); }

  Task run(Warp& warp) override {
    RoundEnds ends = round_ends(warp);
    co_await staged_pass(warp, *staging_, 0, stride(), ends, Need::nothing);
  }

  std::vector<Bound> bounds(const MachineConfig& m, const RunResult&) const override {
    const double n = static_cast<double>(n_);
    return round_bounds(
        m,
        {.global_rounds = 2 * batches(),
         .global_stages = 2 * array_groups(),
         .shared_rounds = 2 * batches(),
         .shared_dispatches = 2 * batches() * (block_threads() / w())},
        {.formula = "2n/w + 2n/(kw) + 2L - 2",
         .value = 2 * n / w() + 2 * n / (static_cast<double>(d()) * w()) + 2.0 * l() - 2,
         .source = "Kasagi, Nakano and Ito 2014, transpose, shuffle and bit reversal"},
        // One after each batch's shared writes, one between batches (the next overwrites the
        // chunk).
        {.syncthreads = {.formula = "2n/p - 1",
                         .value = block_threads() > w() ? 2 * batches() - 1 : 0},
         .grid_syncs = {}});
  }

 private:
  std::uint64_t rounds() const override { return 4 * batches(); }

  Kind kind_;
  std::optional<BitStaging> staging_;
};

}  // namespace

ProgramInfo hmm_permute_special_program() {
  return {
      "hmm_permute_special",
      "transpose, perfect shuffle or bit reversal on the hierarchical machine in one pass "
      "through shared memory: global reads and writes of whole rows (coalesced), shared "
      "accesses conflict-free by an xor of the index bits; a at m[0..n), b after it",
      "Kasagi, Nakano and Ito 2014",
      {
          {"n", ParamType::integer, "array size in words (a power of two; 4^k for transpose)",
           std::nullopt},
          {"kind", ParamType::string,
           "transpose (of a 2^k x 2^k matrix), shuffle (i to 2i, or 2(i - n/2) + 1: the index "
           "bits rotated left) or bit_reversal",
           std::nullopt},
          HmmPermutationProgram::rounds_param(),
      },
      [](const ProgramArgs& args) -> std::unique_ptr<WarpProgram> {
        return std::make_unique<HmmPermuteSpecial>(args, kind_named(args.params.string("kind")));
      },
  };
}

}  // namespace mmsim
