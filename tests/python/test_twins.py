"""The Python examples (examples/python) beside their built-in twins, on every model and
dispatch policy the built-in runs on: the same cycles, stages and machine statistics."""

import os
import unittest

import mmsim
from support import EXAMPLES, machine_statistics


def python_program(file, cls, params):
    return {"file": os.path.join(EXAMPLES, file), "class": cls, "params": params}


# (example, its built-in twin, the twin's parameters, the example's, the machines)
FLAT = {"width": 8, "latency": 5, "threads": 64}
TWINS = [
    ("contiguous", python_program("contiguous_access.py", "ContiguousRead", {"n": 1024}),
     {"name": "contiguous_access", "params": {"n": 1024}}, FLAT),
    ("contiguous, warp.reads", python_program("contiguous_access.py", "ContiguousRead",
                                              {"n": 2048, "batch": True}),
     {"name": "contiguous_access", "params": {"n": 2048}}, FLAT),
    ("naive transpose", python_program("transposes.py", "NaiveTranspose", {"n": 256}),
     {"name": "transpose_naive", "params": {"n": 256}}, FLAT),
    ("diagonal transpose", python_program("transposes.py", "DiagonalTranspose", {"n": 256}),
     {"name": "transpose_diagonal", "params": {"n": 256}}, FLAT),
    ("sum simple", python_program("sum_simple.py", "SumSimple", {"n": 512}),
     {"name": "sum_simple", "params": {"n": 512}},
     {"width": 8, "latency": 6, "race_check": True}),
    ("hmm sum", python_program("hmm_sum.py", "HmmSum", {"n": 1000, "seed": 3}),
     {"name": "hmm_sum", "params": {"n": 1000, "seed": 3}},
     {"multiprocessors": 4, "width": 8, "latency": 20, "threads": 128,
      "shared": {"latency": 2}, "race_check": True}),
]


class Twins(unittest.TestCase):
    def compare(self, label, python, builtin, machine):
        compared = 0
        for model in mmsim.models():
            hierarchical = model["hierarchical"]
            if hierarchical != ("multiprocessors" in machine):
                continue
            for policy in mmsim.policies():
                config = dict(machine, model=model["name"], dispatch=policy["name"])
                if model["name"] in ("sdmm", "rsdmm"):
                    config["super_warp"] = 2
                try:
                    expected = mmsim.run({"machine": config, "program": builtin})
                except mmsim.InputError:
                    continue  # a machine the built-in does not run on
                with self.subTest(example=label, model=model["name"], policy=policy["name"]):
                    got = mmsim.run({"machine": config, "program": python})
                    self.assertTrue(got.verified)
                    self.assertEqual(machine_statistics(got.stats),
                                     machine_statistics(expected.stats))
                    compared += 1
        return compared

    def test_every_example_beside_its_twin(self):
        for label, python, builtin, machine in TWINS:
            compared = self.compare(label, python, builtin, machine)
            # Every flat model (or the hmm), under every policy.
            self.assertGreaterEqual(compared, len(mmsim.policies()), label)

    def test_the_example_testbenches_meet_their_expectations(self):
        for name in ("contiguous_access", "contiguous_batch", "transposes", "sum_simple",
                     "hmm_sum"):
            with self.subTest(testbench=name):
                self.assertTrue(mmsim.run(os.path.join(EXAMPLES, name + ".yaml")).verified)


if __name__ == "__main__":
    unittest.main()
