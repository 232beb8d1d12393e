"""Contiguous access (Nakano 2012, section III) in Python: the twin of the built-in
contiguous_access. In round t, thread i reads m[t*p + i]; every value read is checked (with
checked: false it only reads, as scripts/bench measures the interpreter's part). With
batch: true each warp yields all its rounds at once (warp.reads): the same warp instructions."""

import numpy as np

import mmsim

# What the built-in writes at address a (sw/program/data_pattern.hpp): a value that never
# equals its address, so that a cell read in place of another shows.
PATTERN = np.int64(0x2545F4914F6CDD1D)

# Rounds per yield with batch: true: a few dozen make the interpreter's part small beside the
# simulator's, and keep a batch's tables (addresses, values) small enough to stay in the cache.
BATCH = 64


class ContiguousRead(mmsim.Program):
    """in round t, thread i reads m[t*p + i] (n/p rounds)"""

    params = {"n": mmsim.Param(int, default=4096, doc="array size in words (a multiple of p)"),
              "checked": mmsim.Param(bool, default=True,
                                 doc="keep and check every value read (false: read only)"),
              "batch": mmsim.Param(bool, default=False,
                                   doc="yield every round at once (warp.reads)")}

    def configure(self, machine):
        self.p = machine.threads
        if self.n % self.p:
            raise mmsim.ParamError("n", f"n = {self.n} must be a multiple of p = {self.p}")

    def memory_words(self, machine=None):
        return self.n

    def initialize(self, memory):
        memory[0:self.n] = np.arange(self.n, dtype=np.int64) ^ PATTERN

    def run(self, warp):
        lanes = warp.thread(0) + np.arange(warp.width, dtype=np.int64)
        count = self.n // self.p
        if self.batch:
            # BATCH rounds per yield, issued as the loop below issues them, one warp instruction
            # per round; their values come back as a table, round t of the batch in row t. A
            # batch's addresses are the first batch's plus a multiple of p: one numpy operation.
            first_batch = lanes + self.p * np.arange(BATCH, dtype=np.int64)[:, None]
            for first in range(0, count, BATCH):
                rounds = first_batch[:count - first] + first * self.p
                got = yield warp.reads(rounds)
                if self.checked:
                    self.check(got ^ PATTERN, rounds, f"the values warp {warp.index} read")
            return
        # Every round's addresses at once (one numpy operation, not one per round): rounds[t]
        # holds round t's, thread i reading m[t*p + i].
        rounds = lanes + self.p * np.arange(count, dtype=np.int64)[:, None]
        if not self.checked:
            for addresses in rounds:
                yield warp.read(addresses)
            return
        got = np.empty_like(rounds)
        for t, addresses in enumerate(rounds):
            got[t] = yield warp.read(addresses)
        # Checked all at once: numpy's overhead is per operation, whatever its 32 lanes.
        self.check(got ^ PATTERN, rounds, f"the values warp {warp.index} read")
