// What the offline permutations of the hierarchical machine (Kasagi, Nakano and Ito 2013/2014)
// share: a permutation program (the permutation, a at m[0..n), the result b checked element by
// element) on the hierarchical machine, organised in rounds of memory access (every thread makes
// one access to global or to shared memory), and the figures that follow from the rounds.
//
// The papers count a round of coalesced global accesses by p threads as p/w + L - 1 time units
// and a conflict-free round of shared accesses as p/(kw) (latency 1), and add the rounds up: each
// round starts when the previous one has completed everywhere. `rounds: separated` (the default)
// makes the machine run them so, with a grid_sync after every round, and the time is then exact
// under every dispatch policy. `rounds: overlapped` keeps only the barriers the data needs, and a
// warp's next round starts as soon as its own access has completed: the rounds pipeline.
#pragma once

#include <optional>
#include <string>

#include "sw/programs/bit_staging.hpp"
#include "sw/programs/hmm_program.hpp"
#include "sw/programs/permutation_program.hpp"

namespace mmsim {

class HmmPermutationProgram : public HmmProgram, public PermutationProgram {
 public:
  // Reads n, permutation, seed (and schedule) and rounds.
  HmmPermutationProgram(std::string name, const ProgramArgs& args);
  // A permutation the program names itself.
  HmmPermutationProgram(std::string name, const ProgramArgs& args, planning::PermutationSpec spec);

  // p = n on the hierarchical machine, the papers' thread count.
  std::uint64_t default_threads(const MachineConfig& machine) const override;
  // HmmProgram's checks, then p must divide n (a thread moves n/p elements, in n/p batches).
  void configure(const MachineConfig& machine) override;

  static ParamSpec rounds_param();

 protected:
  // What the data needs after a round: nothing, that the warps of the block see it, or that
  // every warp does.
  enum class Need { nothing, block, grid };

  // The barriers one warp passes after its rounds (see the top of the file).
  class RoundEnds {
   public:
    RoundEnds(bool separated, std::uint64_t rounds, bool other_warps)
        : separated_(separated), rounds_(rounds), other_warps_(other_warps) {}
    // The barrier after the round just issued, if any.
    std::optional<BarrierScope> after(Need need);

   private:
    bool separated_;
    std::uint64_t rounds_;
    bool other_warps_;  // the block has other warps
    std::uint64_t done_ = 0;
  };

  // The rounds of memory access every thread makes.
  virtual std::uint64_t rounds() const = 0;
  RoundEnds round_ends(const Warp& warp) const {
    return RoundEnds(separated_, rounds(), warp.block_warps() > 1);
  }
  Task end_round(Warp& warp, RoundEnds& ends, Need need) const;
  // One pass of a bit permutation through shared memory, chunk batch * d + block of `staging`
  // per batch: a global read (coalesced), a shared write, a shared read (both conflict-free), a
  // global write (coalesced) from the array at `from` to the array at `to`; `after`: what the
  // data needs after the pass.
  Task staged_pass(Warp& warp, const BitStaging& staging, Address from, Address to, RoundEnds& ends,
                   Need after) const;
  // The staging of sigma in chunks of p/d elements; ConfigError on threads unless p/d is a power
  // of two that holds the chunk sigma needs. `what` names the permutation in the message.
  BitStaging staging_of(BitPermutation sigma, const std::string& what) const;

  // Batches: n/p.
  std::uint64_t batches() const { return n_ / p(); }
  bool separated() const { return separated_; }
  const planning::Permutation& permutation() const { return PermutationProgram::p_; }
  // n rounded up so that arrays placed at multiples of it start a warp's access and a group.
  std::uint64_t stride() const { return align(n_); }
  // Global stage groups of an array of n words accessed row by row: w consecutive words per
  // warp (n/w_g when w_g divides w, n/w when w divides w_g).
  std::uint64_t array_groups() const { return coalesced_groups(0, n_); }
  // Throws ParamError on n unless n is a power of two, and ConfigError on width unless w is one;
  // `why` says what needs it.
  void require_powers_of_two(const std::string& why) const;
  unsigned log2_n() const;  // after require_powers_of_two
  unsigned log2_w() const;

  // The traffic of all rounds: global rounds and their stage groups; shared rounds and the
  // dispatches of one SM in them (one stage each when conflict-free).
  struct Traffic {
    std::uint64_t global_rounds = 0;
    std::uint64_t global_stages = 0;
    std::uint64_t shared_rounds = 0;
    std::uint64_t shared_dispatches = 0;  // per SM
  };
  // The papers' time for this program.
  struct PaperTime {
    std::string formula;
    double value = 0;
    std::string source;
  };
  // Barriers under rounds: overlapped, where the data needs them (none with one warp per SM).
  struct Count {
    std::string formula = "0";
    std::uint64_t value = 0;
  };
  struct Barriers {
    Count syncthreads;  // of one SM
    Count grid_syncs;
  };
  // The lower bound from the timing rules, the papers' time (exact where their assumptions hold,
  // else an order), the exact time of separated rounds, and the exact stage and barrier counts.
  std::vector<Bound> round_bounds(const MachineConfig& machine, const Traffic& traffic,
                                  const PaperTime& paper, const Barriers& overlapped) const;

 private:
  // The first of the papers' assumptions that `machine` (with this program's parameters) does
  // not meet, in words, or "" when it meets them all.
  std::string unmet_assumption(const MachineConfig& machine, bool uses_shared) const;

  bool separated_ = true;
};

}  // namespace mmsim
