// What the programs of the hierarchical machine (model hmm) share: the machine's parameters
// (d multiprocessors, w lanes and banks, global width w_g, latencies l and l_s, p threads, p/d
// per block), the refusal of flat machines and of super warps, and the address groups a
// coalesced access touches, from which their exact figures follow.
#pragma once

#include <cstdint>
#include <string>

#include "sw/program/warp_program.hpp"

namespace mmsim {

// WarpProgram is a virtual base: a program may also be a PermutationProgram.
class HmmProgram : public virtual WarpProgram {
 public:
  // `name` appears in messages.
  explicit HmmProgram(std::string name) : name_(std::move(name)) {}

  // None on the hierarchical machine (the testbench says); on a flat machine any valid count,
  // so that configure() can say what is wrong.
  std::uint64_t default_threads(const MachineConfig& machine) const override;
  // Throws ConfigError on `model` for a flat machine and on `super_warp` for super warps; keeps
  // the parameters. Derived programs call it first.
  void configure(const MachineConfig& machine) override;

 protected:
  // Address groups of global memory a block's warps touch when they access [start, start +
  // count) with consecutive lanes on consecutive words, warp k of the access taking words
  // start + k*w .. start + k*w + w - 1: the stage groups the timing rules give those dispatches
  // (count/w_g when w_g divides w and start is a multiple of w_g).
  std::uint64_t coalesced_groups(Address start, std::uint64_t count) const;
  // Whether every shared-memory dispatch of consecutive words (or of one word) takes one stage:
  // a banked shared memory with the interleaved map, or a crossbar (pram).
  bool contiguous_shared_is_conflict_free(const MachineConfig& machine) const;
  // `words` rounded up to a multiple of lcm(w, w_g): arrays placed there start a warp's access
  // and an address group.
  std::uint64_t align(std::uint64_t words) const;
  // `words` rounded up to a multiple of w: shared-memory arrays placed there start in bank 0.
  std::uint64_t align_to_banks(std::uint64_t words) const;

  const std::string& name() const { return name_; }
  unsigned d() const { return d_; }
  unsigned w() const { return w_; }
  unsigned w_g() const { return w_g_; }
  unsigned l() const { return l_; }
  unsigned l_s() const { return l_s_; }
  std::uint64_t p() const { return p_; }
  // Threads of one block (streaming multiprocessor): p/d.
  std::uint64_t block_threads() const { return p_ / d_; }

 private:
  std::string name_;
  unsigned d_ = 1;
  unsigned w_ = 1;
  unsigned w_g_ = 1;
  unsigned l_ = 1;
  unsigned l_s_ = 1;
  std::uint64_t p_ = 1;
};

}  // namespace mmsim
