// Bit permutations (transpose, perfect shuffle, bit reversal: the destination of index i is i
// with its bits moved), and how one pass through the hierarchical machine's shared memories
// performs one with every global access coalesced and every shared access conflict-free
// (Kasagi, Nakano and Ito 2014, the special permutations).
//
// n = 2^m words, w = 2^lw lanes and banks; a chunk of 2^f elements goes to one SM at a time.
// L = the lane bits 0 .. lw-1, D = the source bits that become destination lane bits. The
// chunk's free bits F hold L and D (and the lowest other bits up to f); the other bits number the
// chunk. Local element u of chunk c is the source with u's bits at F and c's at the others, so
// the w consecutive u = k*w .. k*w + w - 1 are w consecutive words of the source (one global
// access of warp k) and, on the other side, the w sources of one destination row lie in the
// chunk too. In shared memory the element from source i lies in row u div w, bank
// (i mod w) xor s(i), where the swizzle s moves the bits of D outside L onto the bits of L outside
// D: a source row keeps its w distinct lane bits, and the w sources of a destination row, which
// differ exactly in D, land in w distinct banks.
#pragma once

#include <cstdint>
#include <vector>

#include "hw/support/types.hpp"

namespace mmsim {

class BitPermutation {
 public:
  // Destination bit to[b] receives source bit b; `to` must be a permutation of 0 .. m-1.
  explicit BitPermutation(std::vector<unsigned> to);
  // m even: index i*2^(m/2) + j of a 2^(m/2) x 2^(m/2) matrix goes to j*2^(m/2) + i.
  static BitPermutation transpose(unsigned m);
  // The perfect shuffle: i goes to 2i (i < n/2) or 2(i - n/2) + 1, the bits rotated left by one.
  static BitPermutation shuffle(unsigned m);
  static BitPermutation bit_reversal(unsigned m);

  unsigned bits() const { return static_cast<unsigned>(to_.size()); }
  unsigned to(unsigned bit) const { return to_[bit]; }
  std::uint64_t operator()(std::uint64_t source) const;
  std::uint64_t inverse(std::uint64_t destination) const;

 private:
  std::vector<unsigned> to_;
};

class BitStaging {
 public:
  // The smallest chunk the pass needs for sigma with lanes of lw bits: 2^|L u D|.
  static std::uint64_t smallest_chunk(const BitPermutation& sigma, unsigned lw);
  // Chunks of 2^f elements, f at least log2 of smallest_chunk (checked by the caller).
  BitStaging(BitPermutation sigma, unsigned lw, unsigned f);

  std::uint64_t chunk_size() const { return std::uint64_t{1} << free_.size(); }
  // The source index of local element u of chunk c (a multiple of w for u a multiple of w: the
  // next w elements are the next w words).
  std::uint64_t source(std::uint64_t c, std::uint64_t u) const;
  // The destination index of chunk c's local destination v (likewise consecutive in v).
  std::uint64_t destination(std::uint64_t c, std::uint64_t v) const;
  std::uint64_t source_of(std::uint64_t destination) const { return sigma_.inverse(destination); }
  // Where the element from source index i lies in its chunk's shared buffer.
  Address slot(std::uint64_t i) const;

 private:
  BitPermutation sigma_;
  unsigned lw_;
  std::vector<unsigned> free_;          // F, increasing: L first
  std::vector<unsigned> chunk_bits_;    // the others, increasing
  std::vector<unsigned> free_to_;       // sigma(F), increasing: L first
  std::vector<unsigned> swizzle_from_;  // D outside L, increasing
  std::vector<unsigned> swizzle_to_;    // L outside D, increasing
};

}  // namespace mmsim
