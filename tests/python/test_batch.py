"""warp.reads and warp.writes (docs/own_programs.md, "Many instructions in one yield"): a
program that yields its rounds as batches, of tables of addresses or of each round's base and
each lane's offset, runs cycle for cycle as the same program yielding them one by one, under
every dispatch policy, on the dmm, umm, sdmm and hmm: the same statistics, profile and timeline
(each site named by what it marks), waveform and race check; and a batch's mistakes are located
at the user's line, as warp.read's are."""

import json
import os
import re
import unittest

import mmsim
from support import EXAMPLES, machine_statistics, run_user_file, scratch

# Each warp reads a table of rounds (a few lanes inactive in one round), writes the values it
# read plus one (values given) and its registers (values left out), waits at the block's barrier,
# reads again and writes its shared memory (on a flat machine, global memory): by batches of
# tables (form: table), by batches of bases and offsets where every lane is active (form:
# offsets) or one instruction at a time (form: one). Rounds in `rounds` are its own cells in
# another order than its lanes' (offsets `turned` from each of `bases`), rounds in `plain` runs
# (lane i addresses first + i, which a batch keeps as one address per round). `# site: NAME`
# marks the lines that make instructions: a batch's line and the loop's line it stands for share
# a name.
PROGRAM = '''\
import numpy as np
import mmsim


class Rounds(mmsim.Program):
    params = {"form": mmsim.Param(str, default="table")}

    def memory_words(self, machine=None):
        return 4 * machine.threads

    def shared_words(self, machine=None):
        return machine.threads

    def initialize(self, memory):
        memory[0:len(memory)] = np.arange(len(memory), dtype=np.int64) * 7 + 3

    def run(self, warp):
        w, p = warp.width, warp.threads
        lanes = warp.thread(0) + np.arange(w, dtype=np.int64)
        # Four rounds over the whole memory, rotated by the warp's index so that warps collide.
        plain = lanes + p * np.arange(4)[:, None]
        turned = (np.arange(w) + warp.index + 1) % w
        rounds = lanes[turned] + p * np.arange(4)[:, None]
        bases = range(warp.thread(0), warp.thread(0) + 4 * p, p)
        with_inactive = [list(map(int, r)) for r in rounds]
        with_inactive[1][1:3] = [None, None]
        space = "shared" if warp.blocks > 1 else "global"
        local = warp.block_thread(0) + np.arange(w, dtype=np.int64)
        if self.form == "table":
            got = yield warp.reads(with_inactive)  # site: read
            yield warp.writes(rounds, got + 1)  # site: write values
            yield warp.writes(plain[:2])  # site: write registers
            yield warp.syncthreads()  # site: sync
            again = yield warp.reads(plain)  # site: read again
            yield warp.writes(local[None, :], again[:1], space=space)  # site: shared
        elif self.form == "offsets":
            got = yield warp.reads(with_inactive)  # site: read
            yield warp.writes(bases, got + 1, offsets=turned)  # site: write values
            yield warp.writes(bases[:2], offsets=range(w))  # site: write registers
            yield warp.syncthreads()  # site: sync
            again = yield warp.reads(list(bases), offsets=list(range(w)))  # site: read again
            first = np.array([warp.block_thread(0)])
            yield warp.writes(first, again[:1], space=space, offsets=np.arange(w))  # site: shared
        else:
            got = np.empty((4, w), dtype=np.int64)
            for t in range(4):
                got[t] = yield warp.read(with_inactive[t])  # site: read
            for t in range(4):
                yield warp.write(rounds[t], got[t] + 1)  # site: write values
            for t in range(2):
                yield warp.write(plain[t])  # site: write registers
            yield warp.syncthreads()  # site: sync
            again = np.empty((4, w), dtype=np.int64)
            for t in range(4):
                again[t] = yield warp.read(plain[t])  # site: read again
            yield warp.write(local, again[0], space=space)  # site: shared
        self.check(got[0], rounds[0] * 7 + 3, f"warp {warp.index} round 0")
        self.check(np.sort(again[2]), np.sort(got[2] + 1), f"warp {warp.index} round 2 again")
        self.check(again[3], plain[3] * 7 + 4, f"warp {warp.index} round 3 again")
'''

MACHINES = {
    "dmm": {"model": "dmm", "width": 4, "latency": 3, "threads": 32},
    "umm": {"model": "umm", "width": 4, "latency": 3, "threads": 32},
    "sdmm": {"model": "sdmm", "width": 4, "latency": 3, "threads": 32, "super_warp": 2},
    "hmm": {"model": "hmm", "multiprocessors": 2, "width": 4, "latency": 6, "threads": 32,
            "shared": {"latency": 2}},
}


def run_on_one_warp(name, code, cls):
    """Runs class `cls` of the program `code` (file `name`) on one warp of 4 lanes (a DMM,
    l = 2): its exit status, its output and the files it left."""
    return run_user_file(name, code, "machine: {model: dmm, width: 4, latency: 2, threads: 4}\n"
                                     f"program: {{file: {name}, class: {cls}}}\n")


def sixteen_words(run):
    """The file of a program T over 16 words, m[a] = 10a, whose run(warp) is `run` (indented)."""
    return ("import numpy as np\nimport mmsim\n"
            "class T(mmsim.Program):\n"
            "    def memory_words(self, machine=None):\n        return 16\n"
            "    def initialize(self, memory):\n"
            "        memory[0:16] = np.arange(16) * 10\n"
            "    def run(self, warp):\n" + run)


def site_names(source, path):
    """{"path:line": name} for the lines marked `# site: name`."""
    names = {}
    for number, line in enumerate(source.splitlines(), 1):
        marked = re.search(r"# site: (.*)$", line)
        if marked:
            names[f"{path}:{number}"] = marked.group(1)
    return names


def named(text, names):
    """`text` with every site's path:line replaced by its name."""
    return re.sub(r"[^\s\"]+\.py:\d+", lambda m: names.get(m.group(0), m.group(0)), text)


def named_profile(profile, names):
    """The statistics' profile with each site (file and line) replaced by its name."""
    sites = [names[f"{site['file']}:{site['line']}"] for site in profile["sites"]]
    return dict(profile, sites=sites)


class Batch(unittest.TestCase):
    def assert_checks(self, code, elements, dispatches=None):
        """Runs T of `code` on one warp: it ends well, having checked `elements` values (and
        issued `dispatches` warp instructions)."""
        status, out, _ = run_on_one_warp("t.py", code, "T")
        self.assertEqual(status, 0, out)
        self.assertRegex(out, rf"data\s+{elements} elements checked, all correct")
        if dispatches is not None:
            self.assertRegex(out, rf"dispatches\s+{dispatches}\n")

    def test_a_batch_runs_as_its_rounds_one_by_one(self):
        compared = 0
        with scratch() as folder:
            path = os.path.join(folder, "rounds.py")
            with open(path, "w") as f:
                f.write(PROGRAM)
            names = site_names(PROGRAM, path)
            for model, machine in MACHINES.items():
                for policy in mmsim.policies():
                    with self.subTest(model=model, policy=policy["name"]):
                        runs = []
                        for form in ("table", "offsets", "one"):
                            timeline = os.path.join(folder, f"{form}.json")
                            vcd = os.path.join(folder, f"{form}.vcd")
                            result = mmsim.run({
                                "machine": dict(machine, dispatch=policy["name"], seed=5,
                                                race_check=True),
                                "program": {"file": path, "class": "Rounds",
                                            "params": {"form": form}},
                                "outputs": {"profile": True, "timeline": timeline, "vcd": vcd}})
                            self.assertTrue(result.verified)
                            with open(timeline) as f, open(vcd) as w:
                                runs.append((machine_statistics(result.stats),
                                             named_profile(result.stats["profile"], names),
                                             named(f.read(), names),
                                             re.sub(r"\$date.*?\$end", "", w.read(), flags=re.S)))
                        tables, offsets, one_by_one = runs
                        for got, expected in zip(tables, one_by_one):
                            self.assertEqual(got, expected)
                        for got, expected in zip(offsets, one_by_one):
                            self.assertEqual(got, expected)
                        # 4 + 4 + 2 + 4 rounds and the shared write of each of the 8 warps
                        # (the sdmm dispatches a super warp of 2).
                        self.assertEqual(tables[0]["dispatches"],
                                         8 * 15 // machine.get("super_warp", 1))
                        compared += 1
        self.assertEqual(compared, 4 * len(mmsim.policies()))
        self.assertGreaterEqual(len(mmsim.policies()), 5)

    def test_the_values_of_every_round_come_back_in_a_table(self):
        code = sixteen_words(
                "        got = yield warp.reads(np.array([[3, 2, 1, 0], [4, 5, 6, 7]]))\n"
                "        self.check(got, np.array([[30, 20, 10, 0], [40, 50, 60, 70]]), 'got')\n"
                "        # Inactive lanes keep what they read last, as warp.read's do.\n"
                "        got = yield warp.reads([[8, None, 9, None], [None, None, 15, 14]])\n"
                "        self.check(got, np.array([[80, 50, 90, 70], [80, 50, 150, 140]]),\n"
                "                   'inactive')\n"
                "        empty = yield warp.reads(np.zeros((0, 4), dtype=np.int64))\n"
                "        self.check(empty.shape, (0, 4), 'no rounds')\n"
                "        yield warp.writes(np.array([[0, 1, 2, 3]], dtype=np.uint16),\n"
                "                          [[5, 6, 7, 8]])\n"
                "        got = yield warp.reads(np.arange(4)[None, :])\n"
                "        self.check(got, np.array([[5, 6, 7, 8]]), 'written')\n")
        # Checked: 8 + 8 + 1 (the shape) + 4 elements.
        # Issued: 2 + 2 + 0 + 1 + 1 warp instructions.
        self.assert_checks(code, 21, 6)

    def test_with_offsets_each_round_reads_its_base_plus_each_lanes_offset(self):
        code = sixteen_words(
                "        got = yield warp.reads(range(0, 12, 4), offsets=[3, 2, 1, 0])\n"
                "        self.check(got, np.array([[30, 20, 10, 0], [70, 60, 50, 40],\n"
                "                                  [110, 100, 90, 80]]), 'reversed')\n"
                "        got = yield warp.reads([8, 1], offsets=np.arange(4))\n"
                "        self.check(got, np.array([[80, 90, 100, 110], [10, 20, 30, 40]]), 'runs')\n"
                "        got = yield warp.reads(np.array([15], dtype=np.uint8),\n"
                "                               offsets=range(0, -8, -2))\n"
                "        self.check(got, np.array([[150, 130, 110, 90]]), 'downwards')\n"
                "        empty = yield warp.reads(range(0), offsets=range(4))\n"
                "        self.check(empty.shape, (0, 4), 'no rounds')\n"
                "        yield warp.writes(range(0, 8, 4), [[1, 2, 3, 4], [5, 6, 7, 8]],\n"
                "                          offsets=range(4))\n"
                "        got = yield warp.reads(range(0, 8, 4), offsets=range(4))\n"
                "        self.check(got, np.array([[1, 2, 3, 4], [5, 6, 7, 8]]), 'written')\n"
                "        # Values left out: each lane's register, what it read last.\n"
                "        yield warp.writes([12], offsets=[3, 2, 1, 0])\n"
                "        got = yield warp.reads([12], offsets=range(4))\n"
                "        self.check(got, np.array([[8, 7, 6, 5]]), 'registers')\n")
        # Checked: 12 + 8 + 4 + 1 (the shape) + 8 + 4 elements.
        # Issued: 3 + 2 + 1 + 0 + 2 + 2 + 1 + 1 warp instructions.
        self.assert_checks(code, 37, 12)

    def test_a_table_is_filled_again_only_once_nothing_refers_to_it(self):
        code = sixteen_words(
                "        first = yield warp.reads(range(0, 8, 4), offsets=range(4))\n"
                "        words = first.__array_interface__['data'][0]\n"
                "        del first\n"
                "        got = yield warp.reads(range(0, 8, 4), offsets=range(4))\n"
                "        self.check(got.__array_interface__['data'][0], words, 'filled again')\n"
                "        # A row of it, a table, a transposed view: kept, never filled again.\n"
                "        row = got[1]\n"
                "        del got\n"
                "        kept = yield warp.reads(range(8, 16, 4), offsets=range(4))\n"
                "        turned = (yield warp.reads([12], offsets=range(4))).T\n"
                "        again = yield warp.reads(range(0, 8, 4), offsets=[3, 2, 1, 0])\n"
                "        self.check(row, np.array([40, 50, 60, 70]), 'a row')\n"
                "        self.check(kept, np.array([[80, 90, 100, 110], [120, 130, 140, 150]]),\n"
                "                   'a table')\n"
                "        self.check(turned, np.array([[120], [130], [140], [150]]), 'a view')\n"
                "        self.check(again, np.array([[30, 20, 10, 0], [70, 60, 50, 40]]), 'again')\n")
        # Checked: 1 + 4 + 8 + 4 + 8 elements.
        self.assert_checks(code, 25)

    def test_mistakes_are_located_at_the_users_line(self):
        cases = [
            ("warp.reads(np.zeros((2, 3), dtype=np.int64))",
             "ValueError: warp.reads: addresses of shape (2, 3) given: expected rounds x 4 "
             "lanes, two dimensions"),
            ("warp.reads(np.zeros(4, dtype=np.int64))",
             "ValueError: warp.reads: addresses of shape (4,) given: expected rounds x 4 lanes, "
             "two dimensions"),
            ("warp.reads(np.array([[0, 1, 2, 3], [4, 5, 6, 64]]))",
             "IndexError: warp.reads: round 1: lane 3: address 64 is outside the global memory "
             "of 64 words"),
            ("warp.reads(np.arange(4)[None, :] + np.array([[0], [61]]))",
             "IndexError: warp.reads: round 1: lane 3: address 64 is outside the global memory "
             "of 64 words"),
            ("warp.reads(np.arange(4)[None, :] - 2)",
             "IndexError: warp.reads: round 0: lane 0: address -2 is outside the global memory "
             "of 64 words"),
            ("warp.reads([[0, 1, 2, 3], [0, None, 2.5, 3]])",
             "TypeError: warp.reads: round 1: lane 2: expected an address (an integer or None), "
             "got 2.5"),
            ("warp.reads([[0, 1, 2, 3], [0, 1, 2]])",
             "ValueError: warp.reads: round 1: 3 lanes given, the warp has 4"),
            ("warp.reads(np.zeros((2, 4)))",
             "TypeError: warp.reads: an address of dtype float64: expected integers"),
            ("warp.reads(np.zeros((2, 4), dtype=bool))",
             "TypeError: warp.reads: an address of dtype bool: booleans are not addresses"),
            ("warp.reads(7)",
             "TypeError: warp.reads: expected addresses as a 2-D numpy array (rounds x 4 lanes) "
             "or a list of rounds, got 7"),
            ("warp.writes([[0, 1, 2, 3]], [[1, 2, 3, 4], [5, 6, 7, 8]])",
             "ValueError: warp.writes: 2 rounds of values for 1 rounds of addresses"),
            ("warp.writes([[0, 1, 2, 3]], [[1, None, 3, 4]])",
             "TypeError: warp.writes: round 0: lane 1: None is not a value"),
            ("warp.writes(np.arange(4)[None, :], np.array([[1.5, 2, 3, 4]]))",
             "TypeError: warp.writes: a value of dtype float64: expected integers"),
            ("warp.reads(np.arange(4)[None, :], space='local')",
             "ValueError: warp.reads: space 'local': expected 'global' or 'shared'"),
            ("warp.reads(np.zeros((2, 4), dtype=np.int64), offsets=range(4))",
             "ValueError: warp.reads: bases of shape (2, 4) given: with offsets, expected one "
             "base per round, one dimension"),
            ("warp.reads(7, offsets=range(4))",
             "TypeError: warp.reads: with offsets, expected each round's base as a range, a 1-D "
             "numpy array or a list of integers, got 7"),
            ("warp.reads([0, None], offsets=range(4))",
             "TypeError: warp.reads: round 1: expected a base (an integer), got None"),
            ("warp.reads([0, True], offsets=range(4))",
             "TypeError: warp.reads: round 1: True is not a base (an integer)"),
            ("warp.reads([2**64], offsets=range(4))",
             "ValueError: warp.reads: round 0: 18446744073709551616 does not fit a 64-bit word"),
            ("warp.reads(range(2), offsets=range(3))",
             "ValueError: warp.reads: 3 lanes given, the warp has 4"),
            ("warp.reads(range(2), offsets=[0, None, 1, 2])",
             "TypeError: warp.reads: lane 1: None is not an offset (every lane of the offsets "
             "form is active)"),
            ("warp.reads(range(0, 64, 61), offsets=range(4))",
             "IndexError: warp.reads: round 1: lane 3: address 64 is outside the global memory "
             "of 64 words"),
            ("warp.reads([5, 2], offsets=[0, -1, -2, -3])",
             "IndexError: warp.reads: round 1: lane 3: address -1 is outside the global memory "
             "of 64 words"),
            ("warp.reads([2**63 - 1], offsets=[1, 0, 0, 0])",
             "IndexError: warp.reads: round 0: lane 0: address 9223372036854775807 + 1 is "
             "outside the global memory of 64 words"),
            ("warp.read([0, 1, 2, 3], offsets=range(4))",
             "TypeError: warp.read: with offsets, expected the base as an integer, got "
             "[0, 1, 2, 3]"),
            ("warp.read(0, offsets=range(-2**63 + 1, 2**63 - 1, 2**62))",
             "IndexError: warp.read: lane 0: address -9223372036854775807 is outside the global "
             "memory of 64 words"),
            ("warp.read(62, offsets=range(4))",
             "IndexError: warp.read: lane 2: address 64 is outside the global memory of 64 "
             "words"),
            ("warp.write(2**64, offsets=range(4))",
             "ValueError: warp.write: the base 18446744073709551616 does not fit a 64-bit word"),
            ("warp.read(0, offsets=[0, None, 1, 2])",
             "TypeError: warp.read: lane 1: None is not an offset (every lane of the offsets "
             "form is active)"),
            ("warp.write(0, [1, None, 3, 4], offsets=range(4))",
             "TypeError: warp.write: lane 1: None is not a value"),
            ("warp.writes(range(2), [[1, 2, 3, 4]], offsets=range(4))",
             "ValueError: warp.writes: 1 rounds of values for 2 rounds of addresses"),
            ("warp.writes(range(1), [[1, None, 3, 4]], offsets=range(4))",
             "TypeError: warp.writes: round 0: lane 1: None is not a value"),
        ]
        for call, message in cases:
            with self.subTest(call=call):
                code = ("import numpy as np\nimport mmsim\n"
                        "class Bad(mmsim.Program):\n"
                        "    def memory_words(self, machine=None):\n        return 64\n"
                        "    def run(self, warp):\n"
                        f"        yield {call}\n")
                status, out, left = run_on_one_warp("bad.py", code, "Bad")
                self.assertEqual(status, 1, out)
                self.assertIn('bad.py", line 7, in run', out)
                self.assertIn(message, out)
                self.assertEqual(left, [])

    def test_a_batch_made_and_never_yielded_was_forgotten(self):
        code = ("import mmsim\n"
                "class Forgets(mmsim.Program):\n"
                "    def memory_words(self, machine=None):\n        return 8\n"
                "    def run(self, warp):\n"
                "        warp.reads([[0, 1, 2, 3]])\n"
                "        yield warp.read([0, 1, 2, 3])\n")
        status, out, _ = run_on_one_warp("f.py", code, "Forgets")
        self.assertEqual(status, 1, out)
        self.assertIn("f.py:6: an instruction made here in warp 0 was never yielded", out)

    def test_tables_written_past_the_caches_hold_every_value(self):
        # 512 warps of 32 lanes, batches of 64 rounds: 8 MiB of rows per batch of every warp,
        # more than the 4 MiB from which they are written past the caches.
        result = mmsim.run({"machine": {"model": "dmm", "width": 32, "latency": 8,
                                        "threads": 16384},
                            "program": {"file": os.path.join(EXAMPLES, "contiguous_access.py"),
                                        "class": "ContiguousRead",
                                        "params": {"n": 16384 * 64, "batch": True}}})
        self.assertTrue(result.verified, result.report)
        self.assertEqual(result.stats["verification"]["elements_checked"], 16384 * 64)
        self.assertEqual(result.dispatches, 16384 * 64 // 32)

    def test_the_batch_example_meets_its_expectations(self):
        result = mmsim.run(os.path.join(EXAMPLES, "contiguous_batch.yaml"))
        self.assertTrue(result.verified)
        # n / w = 65536 / 32 warp instructions of one stage each, one after the other:
        # 2048 + l - 1 = 2063 time units (as the built-in contiguous_access).
        self.assertEqual((result.dispatches, result.stages, result.cycles), (2048, 2048, 2063))


if __name__ == "__main__":
    unittest.main()
