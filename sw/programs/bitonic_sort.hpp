// Batcher's bitonic sort (bitonic_network.hpp) of n = 2^m keys in place at m[0 .. n):
// - on a flat machine (DMM, UMM, ...): the whole network on global memory, one warp-synchronous
//   network with a syncthreads only where a step crosses warps; `layout: conflict_free` swizzles
//   the keys so that every access of a DMM is free of bank conflicts;
// - on the hierarchical machine: each multiprocessor sorts blocks in its shared memory (the
//   phases up to the block size), then every later phase runs its steps of distance >= block
//   through global memory (a grid_sync after each) and its last steps again block by block in
//   shared memory.
#pragma once

#include "sw/program/program_info.hpp"

namespace mmsim {

ProgramInfo bitonic_sort_program();

}  // namespace mmsim
