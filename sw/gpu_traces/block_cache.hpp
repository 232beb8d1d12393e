// Reads of a temporary file through a few cached blocks. Running a trace reads, per CTA, its
// entry, its warps' entries and their records, each a few dozen bytes where CTAs are small (the
// naive transpose: one warp of two instructions): one system call each would cost more than
// the simulation of the CTA. Nearby reads (CTAs run in recorded order, which is the files'
// order) then cost a copy from a block read once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "sw/gpu_traces/scratch_file.hpp"

namespace mmsim {

class BlockCache {
 public:
  // Blocks of `block_bytes` (a power of two), `slots` of them, each block in slot
  // (block number mod slots). The file must hold what is read (flushed) and stay unchanged.
  BlockCache(const ScratchFile& file, std::size_t block_bytes, unsigned slots);

  // Reads `size` bytes at `offset` (all of them exist: throws otherwise).
  void read(std::uint64_t offset, void* out, std::size_t size);
  // Host memory held.
  std::size_t bytes() const { return data_.size(); }

 private:
  const ScratchFile& file_;
  unsigned shift_;                   // log2(block_bytes)
  std::vector<std::uint64_t> held_;  // per slot: its block's number, or kNone
  std::vector<unsigned char> data_;  // slot after slot
};

}  // namespace mmsim
