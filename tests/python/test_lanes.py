"""Every way a Python program may give its lanes makes the same instruction, and every read's
values are its own (docs/own_programs.md, "What a Python program sees"): lists, tuples, numpy
arrays of any integer dtype, byte order and stride, keywords, a base and each lane's offset; a
values array the program keeps is never refilled by a later read."""

import os
import unittest

import mmsim
from support import scratch

# m[a] = 1000 + a on a DMM of w = 4 lanes and p = 8 threads: two warps. Each program checks
# every value it reads against 1000 + its address (self.check, counted in the report).
PROGRAMS = """\
import numpy as np

import mmsim


class Base(mmsim.Program):
    def memory_words(self, machine=None):
        return 64

    def initialize(self, memory):
        memory[0:64] = 1000 + np.arange(64)


class EveryForm(Base):
    def run(self, warp):
        first = 4 * warp.index
        mine = [first + lane for lane in range(4)]
        table = np.array([[0, a, 0] for a in mine], dtype=np.int64)
        forms = [
            mine,                                          # a list of ints
            tuple(mine),                                   # a tuple
            [np.int64(a) for a in mine],                   # numpy integers in a list
            np.array(mine, dtype=np.int64),                # int64, contiguous
            np.array(mine, dtype=np.int32),                # int32 (converted)
            np.array(mine, dtype=np.uint8),                # unsigned (converted)
            np.array(mine, dtype=">i8"),                   # big-endian int64 (converted)
            table[:, 1],                                   # a column: stride 24 bytes
            np.array(mine[::-1], dtype=np.int64)[::-1],    # a negative stride
            range(first, first + 4),                       # a range: a run without numpy
        ]
        for i, addresses in enumerate(forms):
            values = yield warp.read(addresses)
            self.check(values, 1000 + np.array(mine), f"form {i}")
        values = yield warp.read(addresses=mine, space="global")  # keywords
        self.check(values, 1000 + np.array(mine), "keywords")
        # Inactive lanes (None) read nothing: their registers keep what they read last.
        values = yield warp.read([mine[0] + 32, None, mine[2] + 32, None])
        self.check(values, 1000 + np.array(mine) + [32, 0, 32, 0], "inactive lanes")
        # A range with another step than 1 is no run: read lane by lane.
        values = yield warp.read(range(first + 3, first - 1, -1))
        self.check(values, 1000 + np.array(mine[::-1]), "a descending range")
        # A base and each lane's offset from it: a range (a run), a list, a numpy array; offsets
        # out of order, negative ones among them; a numpy base and offsets from 1.
        for i, offsets in enumerate([range(4), [0, 1, 2, 3], np.arange(4)]):
            values = yield warp.read(first, offsets=offsets)
            self.check(values, 1000 + np.array(mine), f"offsets {i}")
        values = yield warp.read(first + 3, offsets=[-3, -1, -2, 0])
        self.check(values, 1000 + np.array(mine)[[0, 2, 1, 3]], "turned offsets")
        values = yield warp.read(np.int64(first - 1), offsets=range(1, 5))
        self.check(values, 1000 + np.array(mine), "a numpy base")


class Writes(Base):
    def run(self, warp):
        mine = np.arange(4 * warp.index, 4 * warp.index + 4)
        yield warp.write(mine, values=[7, 8, 9, 10])                 # a list of values
        yield warp.write(mine + 8, np.array([7, 8, 9, 10], dtype=np.int16))
        yield warp.write(values=np.arange(4) + 7, addresses=mine + 16, space="global")
        yield warp.read(mine)                                       # registers: 7, 8, 9, 10
        yield warp.write(mine + 24)                                 # the registers
        yield warp.write(range(mine[0] + 32, mine[0] + 36), [7, 8, 9, 10])  # a range
        yield warp.write(mine[0] + 43, [10, 9, 8, 7], offsets=[0, -1, -2, -3])  # offsets
        yield warp.write(mine[0] + 48, offsets=range(4))            # offsets, the registers

    def verify(self, memory):
        for base in (0, 8, 16, 24, 32, 40, 48):
            self.check(memory[base:base + 8], np.tile(np.arange(7, 11), 2), f"m[{base}:]")


class KeepsEveryRead(Base):
    def run(self, warp):
        kept = []
        for t in range(8):
            kept.append((yield warp.read(8 * t + np.arange(4) + 4 * warp.index)))
        for t, values in enumerate(kept):
            self.check(values, 1000 + 8 * t + np.arange(4) + 4 * warp.index, f"round {t}")


class KeepsSomeDropsOthers(Base):
    # Values and tables kept by one warp while the other lets its own go (which later reads of
    # either warp may get filled again): what is kept never changes.
    def run(self, warp):
        mine = np.arange(4) + 4 * warp.index
        kept = []
        for t in range(6):
            values = yield warp.read(mine + 8 * t)
            table = yield warp.reads(np.stack([mine + 8 * t, mine + 8 * (t + 1) % 64]))
            if (t + warp.index) % 2:
                kept.append((t, values, table))
            del values, table
        for t, values, table in kept:
            self.check(values, 1000 + mine + 8 * t, f"round {t}'s values")
            self.check(table[0], 1000 + mine + 8 * t, f"round {t}'s table, row 0")
            self.check(table[1], 1000 + (mine + 8 * (t + 1)) % 64, f"round {t}'s table, row 1")


class DropsAndReshapes(Base):
    def run(self, warp):
        mine = np.arange(4) + 4 * warp.index
        for t in range(6):
            values = yield warp.read(mine + 8 * t)
            self.check(values, 1000 + mine + 8 * t, f"round {t}")
            if t == 1:
                values.shape = (2, 2)      # let go of reshaped: never handed out again as is
            if t == 3:
                values.flags.writeable = False
            earlier = values
        self.check(earlier.shape, (4,), "the last values' shape")


class LocalAndRegisters(Base):
    # warp.local and warp.registers while the warp runs: read, written, taken by numpy.

    def local_words(self, machine=None):
        return 3

    def run(self, warp):
        mine = np.arange(4) + 4 * warp.index
        self.check(warp.local.shape, (4, 3), "local's shape")
        self.check(np.asarray(warp.local), np.zeros((4, 3), dtype=np.int64), "local at first")
        warp.local[:, 0] = mine + 10                   # a column
        warp.local[2, 1] = 50                          # one word
        warp.local += 1                                # written back
        self.check(warp.local[:, 0], mine + 11, "column 0")
        self.check(int(warp.local[2, 1]), 51, "one word")
        self.check((warp.local == 1).sum(), 4 * 3 - 4 - 1, "words still 1")
        row = warp.local[2]                            # a copy, read-only
        self.check(row.flags.writeable, False, "a row is a read-only copy")
        yield warp.read(mine)
        self.check(warp.registers[:], 1000 + mine, "registers after the read")
        self.check(warp.registers.sum(), int((1000 + mine).sum()), "their sum")
        try:
            warp.registers[0] = 5
        except TypeError as e:
            self.check(str(e), "warp.registers is read-only (a read sets the registers)", "")
"""


class Lanes(unittest.TestCase):
    def run_class(self, cls):
        with scratch() as folder:
            path = os.path.join(folder, "lanes.py")
            with open(path, "w") as f:
                f.write(PROGRAMS)
            testbench = {"machine": {"model": "dmm", "width": 4, "latency": 2, "threads": 8},
                         "program": {"file": path, "class": cls}}
            return mmsim.run(testbench)

    def assert_checked(self, result, elements):
        self.assertTrue(result.verified, result.report)
        self.assertEqual(result.stats["verification"]["elements_checked"], elements)

    def test_every_form_of_addresses_reads_the_same_cells(self):
        # 2 warps x (10 forms + keywords + a descending range + 5 of offsets) x 4 lanes, and
        # the 4 lanes of the inactive read.
        result = self.run_class("EveryForm")
        self.assert_checked(result, 2 * 17 * 4 + 2 * 4)
        # 2 x 18 reads, one stage each on the DMM (every lane in its own bank).
        self.assertEqual(result.stats["dispatches"], 36)

    def test_every_form_of_values_writes_the_same_words(self):
        self.assert_checked(self.run_class("Writes"), 7 * 8)

    def test_values_kept_are_never_refilled(self):
        self.assert_checked(self.run_class("KeepsEveryRead"), 2 * 8 * 4)

    def test_values_kept_stay_while_others_are_let_go_of(self):
        # Per warp, 3 of 6 rounds kept: 3 x (4 values + 4 + 4 in the table).
        self.assert_checked(self.run_class("KeepsSomeDropsOthers"), 2 * 3 * 12)

    def test_values_let_go_of_come_back_as_new(self):
        self.assert_checked(self.run_class("DropsAndReshapes"), 2 * 6 * 4 + 2)

    def test_local_memory_and_registers(self):
        # Per warp: 2 shape and start checks, 4 + 1 + 1 local checks, 1 read-only row, 4
        # registers, their sum, the message: 1 + 12 + 4 + 1 + 1 + 1 + 4 + 1 + 1 = 26.
        self.assert_checked(self.run_class("LocalAndRegisters"), 2 * 26)


if __name__ == "__main__":
    unittest.main()
