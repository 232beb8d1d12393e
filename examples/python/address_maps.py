"""Address maps of one's own in Python (docs/own_maps.md): each class gives the banks of the w
columns of a row, a permutation of 0..w-1. Xor and Skew are the twins of the built-in xor and
skew; XorTable is Xor again, each row's answer looked up rather than computed; XorBlock is Xor
once more, 1024 rows a call (banks_block), the fast form; RandomPermutation draws every row's
permutation on its own (a map no built-in gives)."""

import numpy as np

import mmsim


class Xor(mmsim.AddressMap):
    """bank k xor (j mod w), the built-in xor's twin (w a power of two)"""

    def banks(self, row):
        return [k ^ (row % self.width) for k in range(self.width)]


class XorTable(mmsim.AddressMap):
    """Xor with its w distinct rows made once, as numpy arrays"""

    def banks(self, row):
        if not hasattr(self, "_rows"):
            columns = np.arange(self.width)
            self._rows = [columns ^ j for j in range(self.width)]
        return self._rows[row % self.width]


class XorBlock(mmsim.AddressMap):
    """Xor for a block of rows at a time: row j of the block, bank k xor (j mod w)"""

    def banks_block(self, first, count):
        rows = np.arange(first, first + count) % self.width
        return rows[:, np.newaxis] ^ np.arange(self.width)


class Skew(mmsim.AddressMap):
    """bank (k + j) mod w, the built-in skew's twin"""

    def banks(self, row):
        return (np.arange(self.width) + row) % self.width


class RandomPermutation(mmsim.AddressMap):
    """every row's banks a permutation of its own, drawn from machine.seed and the row"""

    params = {"salt": mmsim.Param(int, default=0, doc="drawn with the seed and this")}

    def banks(self, row):
        return np.random.default_rng([self.seed, self.salt, row]).permutation(self.width)
