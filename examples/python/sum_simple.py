"""Summing Algorithm Simple (Nakano 2012 (asynchronous), Lemma 2) in Python: the twin of the
built-in sum_simple. n numbers at m[0..n), n/2 threads; in the step on `size` numbers, thread i
< size/2 adds a[i + size/2] to a[i]; a syncthreads follows every step whose size/2 exceeds w
(later steps stay inside one warp). The sum ends at m[0]."""

import numpy as np

import mmsim


class SumSimple(mmsim.Program):
    """sum by halving, syncthreads when the halves span several warps"""

    params = {
        "n": mmsim.Param(int, doc="numbers to add (a power of two, n/2 a multiple of w)"),
        "seed": mmsim.Param(int, default=1, doc="the numbers are drawn in [0, 1000) with it"),
    }

    def default_threads(self, machine):
        return self.n // 2

    def configure(self, machine):
        self.w = machine.width
        if self.n & (self.n - 1) or (self.n // 2) % self.w:
            raise mmsim.ParamError("n", f"n = {self.n}: a power of two with n/2 a multiple of w")
        self.values = np.random.default_rng(self.seed).integers(0, 1000, self.n, dtype=np.int64)

    def memory_words(self, machine=None):
        return self.n

    def initialize(self, memory):
        memory[0:self.n] = self.values

    def run(self, warp):
        threads = [warp.thread(lane) for lane in range(warp.width)]
        size = self.n
        while size > 1:
            h = size // 2
            if threads[0] < h:  # a warp none of whose lanes has work issues nothing
                a = [x if x < h else None for x in threads]
                b = [x + h if x < h else None for x in threads]
                x = yield warp.read(a)
                y = yield warp.read(b)
                yield warp.write(a, x + y)
            if h > self.w:
                yield warp.syncthreads()
            size = h

    def verify(self, memory):
        self.check(memory[0], int(self.values.sum()), "the sum (m[0])")
