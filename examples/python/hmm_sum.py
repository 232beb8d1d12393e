"""The sum on the hierarchical machine (Nakano 2013) in Python: the twin of the built-in
hmm_sum. Every thread adds up m[g], m[g + p], ... in its register (coalesced global reads);
each SM adds up its threads' sums in a tree in its shared memory; with several SMs, thread 0
of each writes its partial sum to global memory, all meet at a grid_sync, and SM 0 adds the
partial sums up the same way."""

import numpy as np

import mmsim


def align(words, unit):
    return (words + unit - 1) // unit * unit


class HmmSum(mmsim.Program):
    """the sum of n numbers on the HMM: registers, a shared-memory tree per SM, a grid_sync"""

    params = {
        "n": mmsim.Param(int, doc="numbers to add"),
        "seed": mmsim.Param(int, default=1, doc="the numbers are drawn in [0, 1000) with it"),
    }

    def configure(self, machine):
        if machine.model != "hmm":
            raise mmsim.ParamError("n", "HmmSum runs on the hierarchical machine (model hmm)")
        self.p, self.d = machine.threads, machine.multiprocessors
        self.block_threads = self.p // self.d
        unit = np.lcm(machine.width, machine.global_width)
        self.summing = min(self.d, -(-self.n // self.block_threads))
        self.partials = align(self.n, unit)
        self.result = align(self.partials + (self.summing if self.summing > 1 else 0), unit)
        self.values = np.random.default_rng(self.seed).integers(0, 1000, self.n, dtype=np.int64)

    def memory_words(self, machine=None):
        return self.result + 1

    def shared_words(self, machine=None):
        return self.block_threads

    def initialize(self, memory):
        memory[0:self.n] = self.values

    @staticmethod
    def lanes_in_range(first, width, low, high, base):
        """Lane addresses base + t for threads t = first + lane in [low, high), else None."""
        return [base + t if low <= t < high else None for t in range(first, first + width)]

    def block_tree(self, warp, sums, size):
        """Adds up `size` values of the block's threads' registers into block thread 0's."""
        first = warp.block_thread(0)
        z = size
        while z > 1:
            h = (z + 1) // 2
            lanes = self.lanes_in_range(first, warp.width, h, z, 0)
            if any(a is not None for a in lanes):
                yield warp.write(lanes, sums, space="shared")
            if z > warp.width:  # thread t reads what thread t + h wrote: another warp's
                yield warp.syncthreads()
            lanes = self.lanes_in_range(first, warp.width, 0, z - h, h)
            if any(a is not None for a in lanes):
                got = yield warp.read(lanes, space="shared")
                sums += np.where([a is not None for a in lanes], got, 0)
            z = h

    def write_thread_zero(self, warp, at, value):
        if warp.warp_in_block == 0:
            yield warp.write([at] + [None] * (warp.width - 1), [value] * warp.width)

    def run(self, warp):
        sums = np.zeros(warp.width, dtype=np.int64)
        for start in range(0, self.n, self.p):
            lanes = self.lanes_in_range(warp.thread(0), warp.width, 0, self.n - start, start)
            if all(a is None for a in lanes):
                break
            got = yield warp.read(lanes)
            sums += np.where([a is not None for a in lanes], got, 0)
        before = warp.block * self.block_threads
        held = min(self.block_threads, self.n - before) if self.n > before else 0
        yield from self.block_tree(warp, sums, held)
        if self.summing == 1:
            if warp.block == 0:
                yield from self.write_thread_zero(warp, self.result, sums[0])
            return
        if warp.block < self.summing:
            yield from self.write_thread_zero(warp, self.partials + warp.block, sums[0])
        yield warp.grid_sync()  # the partial sums cross blocks: a kernel boundary
        if warp.block != 0:
            return
        sums[:] = 0
        for done in range(0, self.summing, self.block_threads):
            lanes = self.lanes_in_range(warp.block_thread(0), warp.width, 0, self.summing - done,
                                        self.partials + done)
            if all(a is None for a in lanes):
                break
            got = yield warp.read(lanes)
            sums += np.where([a is not None for a in lanes], got, 0)
        yield from self.block_tree(warp, sums, min(self.summing, self.block_threads))
        yield from self.write_thread_zero(warp, self.result, sums[0])

    def verify(self, memory):
        self.check(memory[self.result], int(self.values.sum()), f"the sum (m[{self.result}])")
