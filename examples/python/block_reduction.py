"""A block reduction on the hierarchical machine, as a CUDA kernel writes it: every thread adds
up its numbers m[g], m[g + p], ... (g its global number) in its register; each SM (a CUDA
block) then adds up its threads' sums in its shared memory, half of the threads adding the
other half's at each step (sequential addressing: thread t adds s[t + h] to s[t]), with a
syncthreads before each step, and thread 0 writes the block's sum after the numbers. The C++
form, examples/cpp/block_reduction.cpp, takes the same cycles."""

import numpy as np

import mmsim


class BlockReduction(mmsim.Program):
    """each SM adds up its threads' numbers in shared memory; thread 0 writes the block's sum"""

    params = {"n": mmsim.Param(int, default=4096, doc="numbers to add (a multiple of p)")}

    def configure(self, machine):
        if machine.model != "hmm":
            raise mmsim.ParamError("n", "BlockReduction runs on the hierarchical machine "
                                        "(model hmm)")
        self.p, self.blocks = machine.threads, machine.multiprocessors
        if self.n % self.p:
            raise mmsim.ParamError("n", f"n = {self.n} must be a multiple of p = {self.p}")

    def memory_words(self, machine=None):
        return self.n + self.blocks  # the numbers, then the blocks' sums

    def shared_words(self, machine=None):
        return self.p // self.blocks  # a word per thread of the block

    def initialize(self, memory):
        memory[0:self.n] = np.arange(self.n, dtype=np.int64) * 7 % 1000

    def run(self, warp):
        lanes = np.arange(warp.width, dtype=np.int64)
        threads = warp.block_thread(0) + lanes  # the lanes' threads t in the block
        sums = np.zeros(warp.width, dtype=np.int64)
        for start in range(0, self.n, self.p):  # p consecutive words a round: coalesced
            got = yield warp.read(start + warp.thread(0) + lanes)
            sums += got
        yield warp.write(threads, sums, space="shared")  # s[t] = the thread's sum
        size = warp.block_threads
        while size > 1:
            half = (size + 1) // 2
            yield warp.syncthreads()  # s[t + half] was written by another warp
            # Threads t < size - half add s[t + half] to s[t]; the others' lanes are inactive.
            active = threads < size - half
            got = yield warp.read([t + half if on else None for t, on in zip(threads, active)],
                                  space="shared")
            sums += np.where(active, got, 0)
            yield warp.write([t if on else None for t, on in zip(threads, active)], sums,
                             space="shared")
            size = half
        if warp.warp_in_block == 0:  # thread 0 writes the block's sum
            yield warp.write([self.n + warp.block] + [None] * (warp.width - 1), sums)

    def verify(self, memory):
        numbers = np.arange(self.n, dtype=np.int64) * 7 % 1000
        # m[a] was added up by thread a mod p, of block (a mod p) / (p / d).
        expected = numbers.reshape(self.n // self.p, self.blocks, -1).sum(axis=(0, 2))
        for block in range(self.blocks):
            at = self.n + block
            self.check(int(memory[at]), int(expected[block]), f"block {block}'s sum (m[{at}])")
