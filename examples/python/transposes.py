"""The naive and the diagonal transposes (Nakano and Matsumae 2013, section III) in Python:
twins of the built-in transpose_naive and transpose_diagonal. The sqrt(n) x sqrt(n) matrix a
lies at m[0..n), its transpose b at m[n..2n); each thread moves n/p elements."""

import math

import numpy as np

import mmsim

PATTERN = np.int64(0x2545F4914F6CDD1D)


class NaiveTranspose(mmsim.Program):
    """b[k][j] <- a[j][k], elements in row-major order"""

    params = {"n": mmsim.Param(int, doc="elements of the matrix (a perfect square, a multiple of p)")}
    diagonal = False

    def configure(self, machine):
        self.p = machine.threads
        self.side = math.isqrt(self.n)
        if self.side * self.side != self.n:
            raise mmsim.ParamError("n", f"n = {self.n} is not a perfect square")
        if self.n % self.p:
            raise mmsim.ParamError("n", f"n = {self.n} must be a multiple of p = {self.p}")

    def memory_words(self, machine=None):
        return 2 * self.n

    def initialize(self, memory):
        memory[0:self.n] = np.arange(self.n, dtype=np.int64) ^ PATTERN

    def run(self, warp):
        lanes = warp.thread(0) + np.arange(warp.width, dtype=np.int64)
        for t in range(self.n // self.p):
            element = t * self.p + lanes
            j, k = element // self.side, element % self.side
            row = (j + k) % self.side if self.diagonal else j
            source = row * self.side + k
            values = yield warp.read(source)
            self.check(bool(((values ^ PATTERN) == source).all()), True,
                       f"warp {warp.index} round {t}")
            yield warp.write(self.n + k * self.side + row)  # each lane's register

    def verify(self, memory):
        b = memory[self.n:2 * self.n].reshape(self.side, self.side)
        a = (np.arange(self.n, dtype=np.int64) ^ PATTERN).reshape(self.side, self.side)
        self.check(bool((b == a.T).all()), True, "b = a transposed")


class DiagonalTranspose(NaiveTranspose):
    """b[k][(j+k) mod sqrt(n)] <- a[(j+k) mod sqrt(n)][k], along diagonals"""

    diagonal = True
