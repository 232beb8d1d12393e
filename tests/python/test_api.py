"""The package's own functions call the command's code: same cycles, the same statistics as the
JSON file, the same located errors, never an exit of the interpreter."""

import json
import os
import unittest

import mmsim
from support import CONFIGS, EXAMPLES, mmsim as command, scratch


class Run(unittest.TestCase):
    def test_fig4_as_the_command_runs_it(self):
        # configs/dmm_fig4.yaml: Nakano 2012, Figure 4 (its expect section holds the cycles).
        with scratch() as folder:
            stats_file = os.path.join(folder, "stats.json")
            result = mmsim.run(os.path.join(CONFIGS, "dmm_fig4.yaml"), stats=stats_file)
            status, out, _ = command("run", os.path.join(CONFIGS, "dmm_fig4.yaml"))
            self.assertEqual(status, 0)
            # The same report, but for the wall time and the statistics file it names.
            def same(report):
                return [line for line in report.splitlines()
                        if "wall time" not in line and "statistics" not in line]
            self.assertEqual(same(result.report), same(out))
            with open(stats_file) as f:
                written = json.load(f)
        self.assertTrue(result.verified)
        self.assertEqual(result.cycles, written["cycles"])
        for key in ("wall_seconds", "provenance", "command"):
            written.pop(key, None)
            result.stats.pop(key, None)
        self.assertEqual(result.stats, written)

    def test_a_dict_and_overrides(self):
        testbench = {"name": "small", "machine": {"model": "dmm", "width": 4, "latency": 5,
                                                  "threads": 8},
                     "program": {"name": "contiguous_access", "params": {"n": 64}}}
        # n/w = 16 dispatches of one stage, 2 warps: (n/p - 1) * max(U, l) + U + l - 1 with
        # U = 2 units, n/p = 8 rounds: 7 * 5 + 2 + 4 = 41 (docs/semantics.md, section 3).
        self.assertEqual(mmsim.run(testbench).cycles, 41)
        # l = 1: 7 * 2 + 2 + 0 = 16.
        self.assertEqual(mmsim.run(testbench, set={"machine.latency": 1}).cycles, 16)
        self.assertEqual(mmsim.run(testbench, set=["machine.latency=1"]).cycles, 16)

    def test_out_dir(self):
        with scratch() as folder:
            out = os.path.join(folder, "run")
            mmsim.run(os.path.join(CONFIGS, "dmm_fig4.yaml"), out_dir=out)
            self.assertEqual(sorted(os.listdir(out)), ["stats.json", "testbench.yaml"])

    def test_a_python_program_from_a_dict(self):
        testbench = {"machine": {"model": "umm", "width": 4, "latency": 3, "threads": 8},
                     "program": {"file": os.path.join(EXAMPLES, "contiguous_access.py"),
                                 "class": "ContiguousRead", "params": {"n": 64}}}
        result = mmsim.run(testbench)
        self.assertTrue(result.verified)
        self.assertEqual(result.stats["program"], "ContiguousRead")
        # Every value read, checked: n of them.
        self.assertEqual(result.stats["verification"]["elements_checked"], 64)


class Errors(unittest.TestCase):
    def test_input_error_is_located(self):
        testbench = {"machine": {"model": "dmm", "width": 4, "latency": 0, "threads": 8},
                     "program": {"name": "contiguous_access", "params": {"n": 64}}}
        with self.assertRaises(mmsim.InputError) as caught:
            mmsim.run(testbench)
        error = caught.exception
        self.assertTrue(error.file.endswith(".yaml"))
        self.assertGreater(error.line, 0)
        self.assertIn("machine.latency", error.message)

    def test_unknown_program_suggests(self):
        with self.assertRaises(mmsim.InputError) as caught:
            mmsim.run(os.path.join(CONFIGS, "dmm_fig4.yaml"), set=["program.name=contigous_access"])
        self.assertIn("contiguous_access", caught.exception.message)

    def test_missing_file(self):
        with self.assertRaises(mmsim.InputError) as caught:
            mmsim.run("/nonexistent/testbench.yaml")
        self.assertIn("nonexistent", str(caught.exception))

    def test_the_interpreter_goes_on(self):
        for _ in range(2):
            with self.assertRaises(mmsim.InputError):
                mmsim.run({"machine": {}, "program": {"name": "x"}})
        self.assertEqual(mmsim.run(os.path.join(CONFIGS, "dmm_fig4.yaml")).verified, True)


class Lists(unittest.TestCase):
    def test_models(self):
        names = [m["name"] for m in mmsim.models()]
        for name in ("dmm", "umm", "sdmm", "rsdmm", "hmm"):
            self.assertIn(name, names)
        self.assertTrue(all(m["doc"] for m in mmsim.models()))

    def test_programs_with_parameters(self):
        programs = {p["name"]: p for p in mmsim.programs()}
        params = {p["name"]: p for p in programs["contiguous_access"]["params"]}
        self.assertEqual(params["op"]["default"], "read")
        self.assertIsNone(params["n"]["default"])
        self.assertEqual(params["n"]["type"], "integer")

    def test_policies(self):
        names = [p["name"] for p in mmsim.policies()]
        self.assertEqual(names[0], "round_robin")
        self.assertIn("adversarial", names)


class Sweep(unittest.TestCase):
    def test_a_python_program_swept_with_two_jobs(self):
        records = mmsim.sweep(os.path.join(EXAMPLES, "transposes_sweep.yaml"), jobs=2)
        if not isinstance(records, list):
            records = records.to_dict("records")
        self.assertEqual(len(records), 8)
        cycles = {(r["case"], r["values"]["machine.latency"]): r["stats"]["cycles"]
                  for r in records}
        self.assertTrue(all(r["verified"] for r in records))
        # The same runs of the built-in twins, one by one.
        for case, builtin in (("naive", "transpose_naive"), ("diagonal", "transpose_diagonal")):
            for latency in (1, 4, 16, 64):
                twin = mmsim.run({"machine": {"model": "dmm", "width": 32, "latency": latency,
                                              "threads": 256},
                                  "program": {"name": builtin, "params": {"n": 1024}}})
                self.assertEqual(cycles[(case, latency)], twin.cycles, (case, latency))


if __name__ == "__main__":
    unittest.main()
