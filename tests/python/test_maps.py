"""Address maps of one's own (docs/own_maps.md): a Python map equal to the built-in xor or skew
gives the built-in's statistics, byte for byte, on random traces under every model that takes a
map; each row is asked once; the map runs in waveforms, profiles, timelines, sweeps and mmsim
congestion; mistakes are the user's, at their line, exit status 2, no output left."""

import json
import os
import random
import subprocess
import unittest

import mmsim
from support import EXAMPLES, MMSIM, mmsim as command, run_user_file, scratch

MAPS = os.path.join(EXAMPLES, "address_maps.py")

# What differs between a run with a built-in map and one with its twin: the map's name and how
# the testbench names it, the time taken and the provenance.
NAMED = {"address_map", "resolved", "testbench", "wall_seconds", "version", "command", "date",
         "host", "peak_memory_bytes"}


def machine_figures(stats):
    figures = {key: value for key, value in stats.items() if key not in NAMED}
    if "shared" in figures:
        figures["shared"] = {k: v for k, v in figures["shared"].items() if k != "address_map"}
    return figures


def random_trace(seed, warps, width, words, shared_words=0):
    """Per warp, random reads and writes (and a syncthreads), addresses uniform, about one lane
    in ten inactive; with shared_words, about half of the instructions in shared memory (the
    same ones for every warp: the warps of a super warp send one dispatch to one memory)."""
    rng = random.Random(seed)
    shared = [bool(shared_words) and rng.random() < 0.5 for _ in range(12)]
    trace = []
    for _ in range(warps):
        instructions = []
        for i in range(12):
            limit = shared_words if shared[i] else words
            lanes = [rng.randrange(limit) if rng.random() < 0.9 else None for _ in range(width)]
            instruction = {"write" if rng.random() < 0.4 else "read": lanes}
            if shared[i]:
                instruction["space"] = "shared"
            instructions.append(instruction)
            if i == 6:
                instructions.append({"sync": True})
        trace.append(instructions)
    return trace


# The machines that take a map, with where it goes: (label, machine, map key).
MACHINES = [
    ("dmm", {"model": "dmm", "width": 8, "latency": 3, "threads": 32, "memory": 512}, None),
    ("sdmm", {"model": "sdmm", "width": 8, "latency": 4, "threads": 64, "super_warp": 2,
              "memory": 512}, None),
    ("hmm", {"model": "hmm", "multiprocessors": 2, "width": 8, "latency": 6, "threads": 64,
             "memory": 512, "shared": {"latency": 2, "memory": 256, "model": "sdmm"},
             "super_warp": 2, "global": {"width": 8}}, "shared"),
]


def with_map(machine, shared, address_map):
    machine = json.loads(json.dumps(machine))
    (machine["shared"] if shared else machine)["address_map"] = address_map
    return machine


class Twins(unittest.TestCase):
    def test_a_python_xor_and_skew_give_the_built_ins_figures(self):
        for label, machine, shared in MACHINES:
            for built_in, cls in (("xor", "Xor"), ("xor", "XorTable"), ("xor", "XorBlock"),
                                  ("skew", "Skew")):
                for seed in (1, 2, 3):
                    hmm = label == "hmm"
                    trace = random_trace(seed, machine["threads"] // machine["width"],
                                         machine["width"], 512, 256 if hmm else 0)
                    program = {"name": "trace", "warps": trace}
                    for policy in ("round_robin", "random"):
                        config = dict(machine, dispatch=policy, seed=seed)
                        with self.subTest(model=label, map=cls, seed=seed, policy=policy):
                            expected = mmsim.run({"machine": with_map(config, shared, built_in),
                                                  "program": program})
                            got = mmsim.run({"machine": with_map(
                                config, shared, {"file": MAPS, "class": cls}), "program": program})
                            self.assertEqual(machine_figures(got.stats),
                                             machine_figures(expected.stats))
                            names = got.stats["shared"] if hmm else got.stats
                            self.assertEqual(names["address_map"], cls)

    def test_the_short_form_names_the_same_map(self):
        machine = dict(MACHINES[0][1], address_map=f"{MAPS}:Skew")
        program = {"name": "trace", "warps": random_trace(4, 4, 8, 512)}
        got = mmsim.run({"machine": machine, "program": program})
        expected = mmsim.run({"machine": dict(machine, address_map="skew"), "program": program})
        self.assertEqual(machine_figures(got.stats), machine_figures(expected.stats))
        self.assertEqual(got.stats["resolved"]["machine"]["address_map"],
                         {"file": MAPS, "class": "Skew"})

    def test_a_dicts_map_file_is_relative_to_the_current_folder(self):
        machine = MACHINES[0][1]
        program = {"name": "trace", "warps": random_trace(6, 4, 8, 512)}
        expected = mmsim.run({"machine": dict(machine, address_map="skew"), "program": program})
        here = os.getcwd()
        os.chdir(EXAMPLES)
        try:
            for address_map in ("address_maps.py:Skew",
                                {"file": "address_maps.py", "class": "Skew"}):
                got = mmsim.run({"machine": dict(machine, address_map=address_map),
                                 "program": program})
                self.assertEqual(machine_figures(got.stats), machine_figures(expected.stats))
        finally:
            os.chdir(here)

    def test_waveform_profile_and_timeline_as_with_the_built_in(self):
        machine = MACHINES[0][1]
        program = {"name": "trace", "warps": random_trace(5, 4, 8, 512)}
        outputs = {}
        with scratch() as folder:
            for name, address_map in (("built_in", "xor"), ("own", f"{MAPS}:Xor")):
                # The same testbench name in two folders: the trace's sites name it.
                os.mkdir(os.path.join(folder, name))
                testbench = os.path.join(folder, name, "tb.yaml")
                with open(testbench, "w") as f:
                    json.dump({"machine": dict(machine, address_map=address_map),
                               "program": program}, f)
                status, out, err = command("run", "tb.yaml", "--vcd", "trace.vcd", "--profile",
                                           "--timeline", "timeline.json",
                                           cwd=os.path.join(folder, name))
                self.assertEqual(status, 0, err)
                with open(os.path.join(folder, name, "trace.vcd")) as f:
                    waveform = f.read()
                # The report but for the map's name and the time the run took.
                report = [line for line in out.splitlines()
                          if not line.startswith(("  address map", "  wall time"))]
                with open(os.path.join(folder, name, "timeline.json")) as f:
                    outputs[name] = (waveform[waveform.index("$timescale"):], json.load(f),
                                     report)
        self.assertEqual(outputs["own"][0], outputs["built_in"][0])
        self.assertEqual(outputs["own"][1], outputs["built_in"][1])
        self.assertEqual(outputs["own"][2], outputs["built_in"][2])
        self.assertIn("  profile      3 sites", "\n".join(outputs["own"][2]))


RECORDER = """\
import mmsim


class Recorder(mmsim.AddressMap):
    calls = []

    def banks(self, row):
        Recorder.calls.append((row, self.width, self.rows, self.seed, self.salt))
        return [(k + row) % self.width for k in range(self.width)]

    params = {"salt": mmsim.Param(int, default=5, doc="")}
"""


class OncePerRow(unittest.TestCase):
    def test_each_row_is_asked_once_when_needed_and_the_multiprocessors_share_them(self):
        with scratch() as folder:
            path = os.path.join(folder, "recorder.py")
            with open(path, "w") as f:
                f.write(RECORDER)
            # Two SMs, w = 4, 64 words of shared memory each (16 rows): rows 0, 3 and 5 touched,
            # each several times, from both SMs; global memory is a UMM (no map).
            shared = [[{"read": [0, 1, 2, 3], "space": "shared"},
                       {"write": [12, 13, 22, 23], "space": "shared"},
                       {"read": [3, 2, 1, 0], "space": "shared"}, {"read": [0, 1, 2, 3]}]] * 4
            result = mmsim.run({
                "machine": {"model": "hmm", "multiprocessors": 2, "width": 4, "latency": 3,
                            "threads": 16, "memory": 16, "seed": 9,
                            "shared": {"memory": 64, "address_map": {
                                "file": path, "class": "Recorder", "params": {"salt": 7}}},
                            "global": {"width": 4}},
                "program": {"name": "trace", "warps": shared}})
            self.assertTrue(result.verified is None or result.verified)
            from mmsim import _program
            calls = _program.load_class(path, "Recorder", mmsim.AddressMap).calls
        self.assertEqual(calls, [(0, 4, 16, 9, 7), (3, 4, 16, 9, 7), (5, 4, 16, 9, 7)])


class MemoryEstimate(unittest.TestCase):
    def test_the_estimate_a_run_is_checked_against_counts_the_table(self):
        with scratch() as folder:
            testbench = os.path.join(folder, "tb.yaml")
            with open(testbench, "w") as f:
                json.dump({"machine": {"model": "dmm", "width": 32, "latency": 2, "threads": 64,
                                       "memory": 2 ** 20, "address_map": f"{MAPS}:Xor"},
                           "program": {"name": "contiguous_access", "params": {"n": 2 ** 20}}},
                          f)
            done = subprocess.run([MMSIM, "run", testbench], capture_output=True, text=True,
                                  env=dict(os.environ, MMSIM_MEMORY_LIMIT="1"), timeout=120)
        self.assertEqual(done.returncode, 2)
        # 2^20 words: 2 MiB of banks and 32 KiB of flags.
        self.assertIn("the table of map Xor 2.0 MiB", done.stderr)


class Listing(unittest.TestCase):
    def test_the_maps_of_a_file_with_their_parameters(self):
        maps = {m["name"]: m for m in mmsim.address_maps(file=MAPS)}
        self.assertEqual(sorted(maps),
                         ["RandomPermutation", "Skew", "Xor", "XorBlock", "XorTable"])
        self.assertEqual(maps["Xor"]["doc"], "bank k xor (j mod w), the built-in xor's twin "
                                             "(w a power of two)")
        self.assertEqual(maps["RandomPermutation"]["params"],
                         [{"name": "salt", "type": "integer", "default": "0",
                           "doc": "drawn with the seed and this"}])
        self.assertIn("rap", [m["name"] for m in mmsim.address_maps()])
        status, out, _ = command("list", "maps", "--file", MAPS)
        self.assertEqual(status, 0)
        self.assertIn("  Skew                   bank (k + j) mod w, the built-in skew's twin", out)
        self.assertIn("      salt         integer           default 0        drawn with", out)


class Elsewhere(unittest.TestCase):
    def test_the_congestion_experiment_takes_a_python_map(self):
        options = ["congestion", "--width", "4,8", "--super-warp", "1-2", "--array", "64",
                   "--rounds", "3000"]
        status, own, err = command(*options, "--map", f"{MAPS}:Xor")
        self.assertEqual(status, 0, err)
        status, built_in, _ = command(*options, "--map", "xor")
        self.assertEqual(status, 0)
        self.assertEqual(own.replace(f"address map {MAPS}:Xor", "address map xor"), built_in)

    def test_a_sweep_mixes_built_in_maps_and_maps_of_ones_own(self):
        base = os.path.join(os.path.dirname(MAPS), "..", "..", "configs", "transpose_naive_dmm.yaml")
        with scratch() as folder:
            sweep = os.path.join(folder, "sweep.yaml")
            with open(sweep, "w") as f:
                f.write(f"testbench: {base}\n"
                        f'grid:\n  machine.address_map: [xor, "{MAPS}:Xor", skew, "{MAPS}:Skew"]\n'
                        "columns: [cycles, stages]\n")
            records = mmsim.sweep(sweep, set={"program.params.n": 1024, "machine.threads": 256,
                                              "expect": {}}, jobs=2)
        if not isinstance(records, list):
            records = records.to_dict("records")
        stages = {r["values"]["machine.address_map"]: r["stats"]["stages"] for r in records}
        self.assertEqual(len(stages), 4)
        self.assertEqual(stages[f"{MAPS}:Xor"], stages["xor"])
        self.assertEqual(stages[f"{MAPS}:Skew"], stages["skew"])


BLOCKS = """\
import numpy as np

import mmsim


class SkewRows(mmsim.AddressMap):
    def banks_block(self, first, count):
        Calls.calls.append((first, count))
        return [[(k + j) % self.width for k in range(self.width)]
                for j in range(first, first + count)]


class Calls:
    calls = []
"""


class BlockForm(unittest.TestCase):
    def test_blocks_rows_and_the_built_in_agree_over_many_blocks(self):
        # 3077 rows of w = 8: blocks of 1024 rows, the last of 5; random reads and writes over
        # the whole memory, so that every block is asked for.
        words = 8 * 3077
        machine = {"model": "dmm", "width": 8, "latency": 3, "threads": 64, "memory": words}
        warps = random_trace(5, 8, 8, words)
        warps[0].append({"read": list(range(words - 8, words))})  # the last block's last row
        program = {"name": "trace", "warps": warps}
        with scratch() as folder:
            path = os.path.join(folder, "blocks.py")
            with open(path, "w") as f:
                f.write(BLOCKS)
            for built_in, forms in (("xor", [f"{MAPS}:Xor", f"{MAPS}:XorBlock"]),
                                    ("skew", [f"{MAPS}:Skew", f"{path}:SkewRows"])):
                expected = mmsim.run({"machine": dict(machine, address_map=built_in),
                                      "program": program})
                for address_map in forms:
                    with self.subTest(map=address_map):
                        got = mmsim.run({"machine": dict(machine, address_map=address_map),
                                         "program": program})
                        self.assertEqual(json.dumps(machine_figures(got.stats)),
                                         json.dumps(machine_figures(expected.stats)))
            from mmsim import _program
            calls = _program.load_class(path, "Calls", object).calls
        # One call per block, for the one run with SkewRows.
        self.assertEqual(sorted(calls), [(0, 1024), (1024, 1024), (2048, 1024), (3072, 5)])


MISTAKES = """\
import numpy as np

import mmsim


class Twice(mmsim.AddressMap):
    def banks(self, row):
        return [0, 0, 1, 2]


class Short(mmsim.AddressMap):
    def banks(self, row):
        return np.arange(3)


class Raises(mmsim.AddressMap):
    def banks(self, row):
        return [1 // 0]


class Nothing(mmsim.AddressMap):
    def banks(self, row):
        pass


class Floats(mmsim.AddressMap):
    def banks(self, row):
        return [0.0, 1.0, 2.0, 3.0]


class TooLarge(mmsim.AddressMap):
    def banks(self, row):
        return np.array([0, 1, 2, 9], dtype=np.uint8)


class Fine(mmsim.AddressMap):
    params = {"tilt": mmsim.Param(int, doc="required")}

    def banks(self, row):
        return [(k + self.tilt) % 4 for k in range(4)]


class Helper:
    pass


class BlockTwice(mmsim.AddressMap):
    def banks_block(self, first, count):
        rows = (np.arange(first, first + count)[:, np.newaxis] + np.arange(4)) % 4
        rows[5] = [0, 0, 1, 2]
        return rows


class BlockShape(mmsim.AddressMap):
    def banks_block(self, first, count):
        return np.zeros((count, 3), dtype=np.int64)


class BlockShortRow(mmsim.AddressMap):
    def banks_block(self, first, count):
        return [[0, 1, 2, 3]] * (count - 1) + [[0, 1, 2]]


class BlockRaises(mmsim.AddressMap):
    def banks_block(self, first, count):
        return np.zeros((count, 4)) // 0 + {}
"""

TESTBENCH = """\
machine:
  model: dmm
  width: 4
  latency: 2
  threads: 8
  address_map: %s
program: {name: contiguous_access, params: {n: 64}}
outputs: {stats: stats.json}
"""


class Mistakes(unittest.TestCase):
    def run_map(self, address_map, testbench=TESTBENCH):
        """Exit status and output of a run with that map; a failed run leaves nothing."""
        status, text, left = run_user_file("user_maps.py", MISTAKES, testbench % address_map)
        self.assertEqual(left, [] if status else ["stats.json"], text)
        return status, text

    def assert_refused(self, address_map, *expected):
        status, text = self.run_map(address_map)
        self.assertEqual(status, 2, text)
        for part in expected:
            self.assertIn(part, text)
        self.assertNotIn("Traceback", text.split("raised an exception")[0])

    def test_a_row_that_is_not_a_permutation(self):
        self.assert_refused("{file: user_maps.py, class: Twice}",
                            "tb.yaml:6:16: machine.address_map: ", "user_maps.py:7: Twice.banks(0) "
                            "returned [0, 0, 1, 2]: bank 0 appears twice: not a permutation of "
                            "0..3")

    def test_the_wrong_number_of_banks(self):
        self.assert_refused("user_maps.py:Short", "tb.yaml:6:16: machine.address_map: ",
                            "user_maps.py:12: Short.banks(0) returned array([0, 1, 2]): 3 banks, "
                            "expected w = 4")

    def test_an_exception_in_banks(self):
        status, text = self.run_map("user_maps.py:Raises")
        self.assertEqual(status, 2)
        self.assertIn("tb.yaml:6:16: machine.address_map: Raises.banks(0) raised an exception:",
                      text)
        self.assertIn('user_maps.py", line 18, in banks', text)
        self.assertIn("ZeroDivisionError", text)

    def test_what_is_wrong_with_a_block_names_the_row(self):
        self.assert_refused("user_maps.py:BlockTwice", "tb.yaml:6:16: machine.address_map: ",
                            "user_maps.py:48: BlockTwice.banks_block(0, 16) returned row 5 as "
                            "[0, 0, 1, 2]: bank 0 appears twice: not a permutation of 0..3")
        self.assert_refused("user_maps.py:BlockShape", "user_maps.py:55: BlockShape.banks_block"
                            "(0, 16) returned array([[0, 0, 0],", "an array of shape (16, 3), "
                            "expected (16, 4): count x w")
        self.assert_refused("user_maps.py:BlockShortRow", "user_maps.py:60: BlockShortRow."
                            "banks_block(0, 16) returned [[0, 1, 2, 3], [0, 1, 2, 3],",
                            "row 15: 3 banks, expected w = 4")
        status, text = self.run_map("user_maps.py:BlockRaises")
        self.assertEqual(status, 2)
        self.assertIn("tb.yaml:6:16: machine.address_map: BlockRaises.banks_block(0, 16) raised "
                      "an exception:", text)
        self.assertIn('user_maps.py", line 66, in banks_block', text)
        self.assertIn("TypeError", text)

    def test_what_is_not_a_list_of_banks(self):
        self.assert_refused("user_maps.py:Nothing", "Nothing.banks(0) returned None: expected a "
                            "list or a numpy array of w = 4 banks")
        self.assert_refused("user_maps.py:Floats", "Floats.banks(0) returned [0.0, 1.0, 2.0, 3.0]:"
                            " column 0's bank 0.0 is not an integer")
        self.assert_refused("user_maps.py:TooLarge", "TooLarge.banks(0) returned array([0, 1, 2, "
                            "9], dtype=uint8): column 3's bank 9 is not one of 0..3")

    def test_a_missing_class_file_or_library(self):
        self.assert_refused("{file: user_maps.py, class: Fin}",
                            "tb.yaml:6:44: machine.address_map.class: user_maps.py has no class 'Fin' "
                            "(did you mean 'Fine'?)")
        self.assert_refused("user_maps.py:Helper",
                            "machine.address_map: user_maps.py: 'Helper' is not an "
                            "mmsim.AddressMap subclass")
        self.assert_refused("{file: usr_maps.py, class: Fine}",
                            "tb.yaml:6:23: machine.address_map.file: no such file:")
        self.assert_refused("{library: libnone.so, name: swizzle}",
                            "tb.yaml:6:26: machine.address_map.library: no such file:")
        library = os.path.join(os.environ["MMSIM_BUILD_DIR"], "libmmsim.so")
        self.assert_refused(f"{{library: {library}, name: swizzle}}", "has no address maps (no "
                            "MMSIM_PLUGIN_MAPS: sw/program/map_plugin.hpp)")

    def test_parameters_as_the_class_declares_them(self):
        self.assert_refused("{file: user_maps.py, class: Fine}",
                            "map Fine needs parameter 'tilt' (required)")
        self.assert_refused("{file: user_maps.py, class: Fine, params: {tilt: 1, tlit: 2}}",
                            "unknown key 'tlit' in machine.address_map.params (did you mean "
                            "'tilt'?)")
        self.assert_refused("{file: user_maps.py, class: Fine, params: {tilt: one}}",
                            "machine.address_map.params.tilt: expected an integer")
        status, text = self.run_map("{file: user_maps.py, class: Fine, params: {tilt: 3}}")
        self.assertEqual(status, 0, text)

    def test_the_keys_of_the_mapping(self):
        self.assert_refused("{file: user_maps.py, name: Fine}",
                            "machine.address_map.name: a Python map is named by "
                            "machine.address_map.class, not name")
        self.assert_refused("{class: Fine}", "machine.address_map: expected file with class (a "
                            "Python map) or library with name (a C++ plugin's map)")
        self.assert_refused("{file: user_maps.py, clas: Fine}",
                            "unknown key 'clas' in machine.address_map (did you mean 'class'?)")
        self.assert_refused("'user_maps.py:'", "machine.address_map: 'user_maps.py:': expected "
                            "file.py:Class")

    def test_models_that_take_no_map(self):
        for model, why in (("umm", "model umm maps addresses interleaved only"),
                           ("rsdmm", "model rsdmm maps addresses random_shift only")):
            status, text = self.run_map("user_maps.py:Fine",
                                        TESTBENCH.replace("model: dmm", "model: " + model))
            self.assertEqual(status, 2)
            self.assertIn(why, text)


if __name__ == "__main__":
    unittest.main()
