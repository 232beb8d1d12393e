// Steps the warps of one block (the p/d threads of a streaming multiprocessor of the
// hierarchical machine) perform together, each warp sending its lanes' requests: block thread
// t = warp.block_thread(lane). Every warp of the block calls a step with the same arguments (the
// steps' barriers wait for all of them); a warp none of whose lanes takes part in an
// instruction skips it.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "hw/pe/task.hpp"
#include "hw/pe/warp.hpp"

namespace mmsim {

// A warp's address buffer, reused by its steps.
struct BlockLanes {
  explicit BlockLanes(unsigned width) : addresses(width) {}
  std::vector<Address> addresses;
};

// addresses[lane] = base + t for the lanes whose thread t = first + lane lies in [from, to),
// kInactive for the others. Returns whether any lane is active.
bool lanes_in_range(std::span<Address> addresses, std::uint64_t first, std::uint64_t from,
                    std::uint64_t to, Address base);

// sums[lane] += the value read by an active lane (wrapping).
void add_read(std::span<Word> sums, std::span<const Word> got, std::span<const Address> addresses);

// sums[lane] += got[lane] for every lane (wrapping): a read whose lanes are all active.
void add_all(std::span<Word> sums, std::span<const Word> got);

// Copies global m[from .. from + count) to shared memory [to .. to + count): block thread t
// moves words t, t + p/d, ...: global reads of consecutive words (coalesced), shared writes of
// consecutive words (conflict-free on the interleaved DMM).
Task copy_to_shared(Warp& warp, BlockLanes& lanes, Address from, Address to, std::uint64_t count);

// A tree of halvings in shared memory over the values of block threads 0 .. size - 1
// (`values[lane]`, the thread's register): while size > keep, with h = ceil(size/2), threads
// h .. size - 1 write their value to scratch[t], a syncthreads follows when those threads span
// several warps (size > w), and threads t < size - h add scratch[t + h] to theirs; size becomes
// h. Every scratch cell is written once and read once. At the end thread t < keep holds the
// sum of the values of threads t, t + keep, t + 2*keep, ... (keep = 1: the total in thread 0);
// size/keep must be a power of two when keep > 1.
Task block_tree(Warp& warp, BlockLanes& lanes, std::span<Word> values, Address scratch,
                std::uint64_t size, std::uint64_t keep);

// The syncthreads block_tree performs: its levels of more than w values.
std::uint64_t block_tree_syncs(std::uint64_t size, std::uint64_t keep, unsigned w);

// The warp dispatches block_tree sends: per level, the warps holding threads h .. size - 1
// (writes) and those holding threads 0 .. size - h - 1 (reads). Each is of consecutive words.
std::uint64_t block_tree_dispatches(std::uint64_t size, std::uint64_t keep, unsigned w);

}  // namespace mmsim
