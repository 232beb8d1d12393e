"""Contiguous access (Nakano 2012, section III) in Python: the twin of the built-in
contiguous_access. In round t, thread i reads m[t*p + i]; every value read is checked (with
checked: false it only reads, as scripts/bench measures the interpreter's part). With
batch: true each warp yields its rounds BATCH at a time (warp.reads, each round's first address
and each lane's offset from it): the same warp instructions."""

import numpy as np

import mmsim

# What the built-in writes at address a (sw/program/data_pattern.hpp): a value that never
# equals its address, so that a cell read in place of another shows.
PATTERN = np.int64(0x2545F4914F6CDD1D)

# Rounds checked at once (and yielded at once with batch: true): a few dozen make the
# interpreter's part small beside the simulator's. The tables of values mmsim returns for a
# batch are filled by all warps as one stream, however many rounds they hold; the table of
# addresses the loop below makes (one numpy operation a batch) is made and read at once.
BATCH = 64


class ContiguousRead(mmsim.Program):
    """in round t, thread i reads m[t*p + i] (n/p rounds)"""

    params = {"n": mmsim.Param(int, default=4096, doc="array size in words (a multiple of p)"),
              "checked": mmsim.Param(bool, default=True,
                                 doc="keep and check every value read (false: read only)"),
              "batch": mmsim.Param(bool, default=False,
                                   doc="yield the rounds BATCH at a time (warp.reads)")}

    def configure(self, machine):
        self.p = machine.threads
        if self.n % self.p:
            raise mmsim.ParamError("n", f"n = {self.n} must be a multiple of p = {self.p}")
        # Where lane i reads in round t of a batch, from the batch's first address: t*p + i,
        # the same table for every warp; and each lane's offset from its round's first address.
        self.offsets = (self.p * np.arange(BATCH, dtype=np.int64)[:, None]
                        + np.arange(machine.width, dtype=np.int64))
        self.lanes = range(machine.width)

    def memory_words(self, machine=None):
        return self.n

    def initialize(self, memory):
        memory[0:self.n] = np.arange(self.n, dtype=np.int64) ^ PATTERN

    def run(self, warp):
        count = self.n // self.p
        if not (self.checked or self.batch):
            # Only reading, a round at a time: each round's first address and the lanes'
            # offsets from it (range(w), made once), a run of consecutive addresses that needs
            # no numpy.
            first, lanes = warp.thread(0), self.lanes
            for a in range(first, first + count * self.p, self.p):
                yield warp.read(a, offsets=lanes)
            return
        # BATCH rounds at a time, first .. last - 1: round t's lane i reads t*p + T(0) + i.
        start, p = warp.thread(0), self.p
        for first in range(0, count, BATCH):
            last = min(first + BATCH, count)
            if self.batch:
                # Every round of the batch in one yield, issued as the loop below issues them,
                # one warp instruction per round: each round's first address (a range, made
                # without numpy) and each lane's offset from it. The values come back as a
                # table, round t in row t.
                got = yield warp.reads(range(start + first * p, start + last * p, p),
                                       offsets=self.lanes)
            else:
                # The batch's addresses in one numpy operation (the offsets plus the batch's
                # first address), not one per round; rows by index: `for addresses in rounds`
                # would end each batch with numpy's IndexError, a formatted message.
                rounds = self.offsets[:last - first] + (start + first * p)
                got = np.empty_like(rounds)
                for t in range(len(rounds)):
                    got[t] = yield warp.read(rounds[t])
            if self.checked:
                # Checked a batch at once: numpy's overhead is per operation, whatever its lanes.
                self.check(got ^ PATTERN, self.offsets[:last - first] + (start + first * p),
                           f"the values warp {warp.index} read")
            # Let go of the values before the next yield: mmsim fills an array that nothing holds
            # again for the next reads, rather than making a new one.
            del got
