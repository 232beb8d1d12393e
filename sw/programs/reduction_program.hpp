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

namespace mmsim {

// An array in memory: its element 0 and its size.
struct Region {
  Address base;
  std::uint64_t size;
};

class ReductionProgram : public WarpProgram {
 public:
  // `name` and `threads_formula` ("n/2", "w*l", ...) appear in messages.
  ReductionProgram(const ProgramArgs& args, std::string name, std::string threads_formula);

  std::uint64_t default_threads(const MachineConfig& machine) const override;
  void configure(const MachineConfig& machine) override;
  std::uint64_t memory_words() const override { return next_free_; }
  // The n numbers, made by prepare().
  std::uint64_t host_bytes() const override { return input_.bytes(); }
  void prepare() override { values_ = input_.make(); }
  void initialize(Mmu& memory) override;

 protected:
  // Why the algorithm cannot take these n numbers on this machine (nullopt: it can).
  virtual std::optional<std::string> unfit(const MachineConfig& machine) const = 0;
  // The threads the algorithm uses.
  virtual std::uint64_t threads(const MachineConfig& machine) const = 0;
  // Places the work arrays (allocate()); the input lies at 0 .. n.
  virtual void layout() = 0;

  // `words` of memory starting at an address-group boundary.
  Address allocate(std::uint64_t words);
  // The levels of a w-ary tree over `leaves`: leaves first, then ceil(size/w) sums per level
  // (allocated) down to one.
  std::vector<Region> tree_layout(Region leaves);

  // The paper's figures for a run: the lower bound, Table 1's time (the UMM's, which holds on
  // the DMM family too; with l = 1 on the BPRAM; the PRAM's own sum bound) and barrier steps
  // with constant 1, and the exact number of barrier steps the algorithm performs.
  struct PaperFigures {
    std::string time_formula;
    double time;
    std::string sync_order_formula;  // "" where Table 1 gives none
    double sync_order;
    std::string sync_formula;  // in n, w, l and r = ceil(log2(log2(w)))
    std::uint64_t syncs;
    std::string source;   // "Nakano 2012 (asynchronous), Lemma 2"
    bool uses_r = false;  // sync_formula has r in it
  };
  std::vector<Bound> paper_bounds(const MachineConfig& m, const PaperFigures& figures) const;

  const std::vector<Word>& values() const { return values_; }
  std::uint64_t n() const { return input_.size(); }
  unsigned w() const { return w_; }
  unsigned l() const { return l_; }

 private:
  InputValues input_;
  std::vector<Word> values_;  // made by prepare()
  std::string name_;
  std::string threads_formula_;
  unsigned w_ = 1;
  unsigned l_ = 1;
  Address next_free_ = 0;
};

// Sum programs: the sum of the inputs ends in one cell.
class SumProgram : public ReductionProgram {
 public:
  using ReductionProgram::ReductionProgram;
  void verify(const Mmu& memory) override;

 protected:
  Address result_ = 0;  // where the sum ends (set by layout())
};

// Prefix-sum programs: the inputs at 0 .. n become their prefix sums in place.
class PrefixProgram : public ReductionProgram {
 public:
  using ReductionProgram::ReductionProgram;
  void verify(const Mmu& memory) override;
};

// Why n is not a power of two of at least 2w, which `algorithm` (halving, with n/2 threads
// filling whole warps) needs; nullopt when it is.
std::optional<std::string> unfit_halving(std::uint64_t n, unsigned w, const std::string& algorithm);

// Why n does not suit a w-ary tree with n threads (Tree's groups of w); nullopt when it does.
std::optional<std::string> unfit_tree(std::uint64_t n, unsigned w);

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
          [](const ProgramArgs& args) -> std::unique_ptr<WarpProgram> {
            return std::make_unique<Program>(args);
          }};
}

}  // namespace mmsim
