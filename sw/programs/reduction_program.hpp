// What the sum and prefix-sum programs of Nakano 2012 (asynchronous) share: their n input numbers
// (params n, seed, file), the thread count each algorithm uses (machine.threads, when given, must
// be that one), a memory layout whose arrays start at address-group boundaries, the check of the
// result, and the paper's figures (Table 1) next to the measurement.
#pragma once

#include <bit>
#include <optional>
#include <string>
#include <vector>

#include "sw/program/input_values.hpp"
#include "sw/program/powers.hpp"
#include "sw/program/program_info.hpp"
#include "sw/program/warp_program.hpp"
#include "sw/programs/warp_steps.hpp"

namespace mmsim {

// An array in memory: its element 0 and its size.
struct Region {
  Address base;
  std::uint64_t size;
};

// The five algorithms of Nakano 2012 (asynchronous), each with a sum (section 4) and a prefix-sum
// (section 5) program: a pair shares the threads it uses, the numbers it takes, and Table 1's
// orders of its time and barrier steps.
enum class ReductionAlgorithm { simple, one_warp, tree, simple_tree, hybrid };

// What a family's programs say where n does not fit One-Warp or Hybrid.
struct ReductionWording {
  std::string one_warp_needs_power;  // why One-Warp takes a power of two: "halves the array"
  std::string one_warp_takes;        // "sums at most w numbers (sum_simple takes more)"
  std::string hybrid_threads_do;     // "add up a column of the n/(w*l) x w*l array"
};

class ReductionProgram : public WarpProgram {
 public:
  // `name` appears in messages; `source` is the paper's result the program implements
  // ("Nakano 2012 (asynchronous), Lemma 2").
  ReductionProgram(const ProgramArgs& args, std::string name, ReductionAlgorithm algorithm,
                   std::string source, const ReductionWording& wording);

  std::uint64_t default_threads(const MachineConfig& machine) const override;
  void configure(const MachineConfig& machine) override;
  std::uint64_t memory_words() const override { return next_free_; }
  // The n numbers, made by prepare().
  std::uint64_t host_bytes() const override { return input_.bytes(); }
  void prepare() override { values_ = input_.make(); }
  void initialize(Mmu& memory) override;
  Task run(Warp& warp) final;
  // The paper's figures for a run: the lower bound, Table 1's time (the UMM's, which holds on
  // the DMM family too; with l = 1 on the BPRAM; the PRAM's own sum bound) and barrier steps
  // with constant 1, and the exact number of barrier steps the algorithm performs.
  std::vector<Bound> bounds(const MachineConfig& m, const RunResult&) const final;

 protected:
  // The barrier steps the algorithm performs: a formula in n, w, l and r = ceil(log2(log2(w)))
  // (uses_r: it has r in it), and their number.
  struct BarrierSteps {
    std::string formula;
    std::uint64_t count;
    bool uses_r = false;
  };
  virtual BarrierSteps barrier_steps() const = 0;
  // Places the work arrays (allocate()); the input lies at 0 .. n.
  virtual void layout() = 0;
  // The algorithm, for one warp with its buffers (run() makes them).
  virtual Task run_with(Warp& warp, Lanes& lanes) = 0;

  // `words` of memory starting at an address-group boundary.
  Address allocate(std::uint64_t words);
  // The levels of a w-ary tree over `leaves`: leaves first, then ceil(size/w) sums per level
  // (allocated) down to one.
  std::vector<Region> tree_layout(Region leaves);

  const std::vector<Word>& values() const { return values_; }
  std::uint64_t n() const { return input_.size(); }
  unsigned w() const { return w_; }
  unsigned l() const { return l_; }

 private:
  // Why the algorithm cannot take these n numbers on this machine (nullopt: it can).
  std::optional<std::string> unfit(const MachineConfig& machine) const;
  // The threads the algorithm uses.
  std::uint64_t threads(const MachineConfig& machine) const;

  InputValues input_;
  std::vector<Word> values_;  // made by prepare()
  std::string name_;
  ReductionAlgorithm algorithm_;
  std::string source_;
  const ReductionWording& wording_;
  unsigned w_ = 1;
  unsigned l_ = 1;
  Address next_free_ = 0;
};

// Sum programs: the sum of the inputs ends in one cell.
class SumProgram : public ReductionProgram {
 public:
  SumProgram(const ProgramArgs& args, std::string name, ReductionAlgorithm algorithm,
             std::string source);
  void verify(const Mmu& memory) override;

 protected:
  Address result_ = 0;  // where the sum ends (set by layout())
};

// Prefix-sum programs: the inputs at 0 .. n become their prefix sums in place.
class PrefixProgram : public ReductionProgram {
 public:
  PrefixProgram(const ProgramArgs& args, std::string name, ReductionAlgorithm algorithm,
                std::string source);
  void verify(const Mmu& memory) override;
};

// `simple` when w is a power of two, else `general` (a formula in log2(w) holds only then).
inline std::string power_of_two_formula(unsigned w, std::string simple, std::string general) {
  return std::has_single_bit(w) ? simple : general;
}

// The catalogue entry of a sum or prefix-sum program: the input parameters, then `extra`.
template <class Program>
ProgramInfo reduction_program_info(std::string name, std::string summary, std::string source,
                                   std::vector<ParamSpec> extra = {}) {
  std::vector<ParamSpec> params = input_value_params();
  params.insert(params.end(), extra.begin(), extra.end());
  return {std::move(name), std::move(summary), std::move(source), std::move(params),
          make_program<Program>()};
}

}  // namespace mmsim
