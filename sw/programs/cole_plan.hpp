// The schedule of Cole's pipelined merge sort (Cole 1988; the GPGPU thesis, section 4) on a
// block of 2^b keys in one multiprocessor's shared memory: list sizes, samples and where every
// array lies, stage by stage. Sizes depend on n only, never on the keys, so the whole schedule is
// computed before the run.
//
// A node v at level h (2^h leaves below it) holds a sorted list L_s(v) after stage s; the leaves
// hold their key from stage 0 on. At stage s every node first sends up a sample SUP_s(v) of
// L_{s-1}(v): while v is incomplete, every fourth key (Reduce: z4, z8, ...); once v became
// complete at stage t, every fourth at t+1, every second at t+2 and all of them at t+3. Then
// every incomplete node merges its children's samples, L_s(v) = SUP_s(x) + SUP_s(y), with the
// help of L_{s-1}(v). A node at level h is complete (holds all 2^h keys) at stage 3h, three stages
// after its children: the root at stage 3b.
//
// Every size and divisor is a power of two (a list is 0 keys before it has any): the warps'
// steps multiply by them with shifts.
#pragma once

#include <cstdint>
#include <vector>

#include "hw/support/types.hpp"

namespace mmsim {

// Level h of the tree at stage s: what its nodes hold and where (shared-memory addresses of node
// 0's arrays; node i's lie i strides further, the stride being the array's size per node).
struct ColeLevelStage {
  unsigned level = 0;
  std::uint64_t nodes = 0;             // B / 2^h
  std::uint64_t size = 0;              // |L_s(v)|
  std::uint64_t prev_size = 0;         // |L_{s-1}(v)|
  std::uint64_t half = 0;              // |SUP_s(x)| = |SUP_s(y)| = size / 2
  unsigned divisor = 0;                // SUP_s(x) is every divisor-th key of L_{s-1}(x)
  bool merges = false;                 // phase A: L_s(v) = SUP_s(x) + SUP_s(y)
  bool prepares = false;               // phases B: the ranks the merge at stage s+1 needs
  std::uint64_t next_half = 0;         // |SUP_{s+1}(x)|
  unsigned next_divisor = 0;           // SUP_{s+1}(x) is every next_divisor-th key of L_s(x)
  std::uint64_t child_prev_size = 0;   // |L_{s-1}(x)|
  std::uint64_t child_size = 0;        // |L_s(x)|
  bool child_complete_before = false;  // x complete at s-1: L_s(x) = L_{s-1}(x)

  Address list = 0;             // L_s(v), stride size
  Address child_prev_list = 0;  // L_{s-1}(x), stride child_prev_size
  Address child_list = 0;       // L_s(x), stride child_size
  // Ranks kept between stages (stride per node in brackets):
  // R_{s-1}: of SUP_s(x) then SUP_s(y) in L_{s-1}(v) [2 half];
  // U_{s-1}: of L_{s-1}(v) in SUP_s(x), then in SUP_s(y) [2 prev_size];
  // C: of SUP_s(x) in SUP_s(y), then of SUP_s(y) in SUP_s(x) (phase A's cross ranks) [size];
  // U_s and R_s: as U_{s-1} and R_{s-1} for stage s+1 [2 size], [2 next_half];
  // child U_{s-1}: the children's U_{s-1} [2 child_prev_size], for the ranks L_{s-1}(x) -> L_s(x).
  Address prev_ranks = 0;
  Address prev_help = 0;
  Address cross = 0;
  Address help = 0;
  Address ranks = 0;
  Address child_prev_help = 0;
};

class ColePlan {
 public:
  // A block of B = 2^b keys in shared memory from address 0 on: the complete lists of even levels
  // (the leaves first) at [0, B), of odd levels at [B, 2B), then two arenas for the arrays of
  // even and odd stages (a stage reads the previous stage's arrays and writes its own).
  explicit ColePlan(unsigned b);

  unsigned log_keys() const { return b_; }
  unsigned stages() const { return 3 * b_; }
  // |L_s(v)| for v at level h.
  std::uint64_t size(unsigned h, unsigned s) const;
  // SUP_s of a node at level h takes every divisor-th key of its L_{s-1}: 4, 2 or 1.
  unsigned divisor(unsigned h, unsigned s) const;
  // The levels that merge or prepare at stage s (1 .. stages()).
  const std::vector<ColeLevelStage>& at(unsigned s) const { return stages_[s - 1]; }
  // Where the root's complete list lies after the last stage.
  Address root() const;
  // Words of shared memory the schedule uses.
  std::uint64_t words() const { return words_; }

 private:
  Address complete_list(unsigned h) const;

  unsigned b_;
  std::vector<std::vector<ColeLevelStage>> stages_;
  std::uint64_t words_ = 0;
};

}  // namespace mmsim
