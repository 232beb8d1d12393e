"""The mmsim command runs Python programs from YAML as it runs built-in ones: a run with its
statistics and waveform, every policy, a sweep with worker processes, expect."""

import json
import os
import unittest

from support import EXAMPLES, machine_statistics, mmsim, scratch


class Command(unittest.TestCase):
    def test_run_with_statistics_and_a_waveform(self):
        with scratch() as folder:
            status, out, err = mmsim("run", os.path.join(EXAMPLES, "transposes.yaml"),
                                     "--stats", os.path.join(folder, "python.json"),
                                     "--vcd", os.path.join(folder, "python.vcd"),
                                     "--set", "machine.latency=2")
            self.assertEqual(status, 0, err)
            self.assertIn("program      DiagonalTranspose", out)
            twin = os.path.join(folder, "twin.yaml")
            with open(twin, "w") as f:
                f.write("machine: {model: dmm, width: 32, latency: 2, threads: 256}\n"
                        "program: {name: transpose_diagonal, params: {n: 1024}}\n")
            status, _, err = mmsim("run", twin, "--stats", os.path.join(folder, "twin.json"),
                                   "--vcd", os.path.join(folder, "twin.vcd"))
            self.assertEqual(status, 0, err)
            with open(os.path.join(folder, "python.json")) as p, \
                    open(os.path.join(folder, "twin.json")) as t:
                self.assertEqual(machine_statistics(json.load(p)),
                                 machine_statistics(json.load(t)))
            with open(os.path.join(folder, "python.vcd")) as p, \
                    open(os.path.join(folder, "twin.vcd")) as t:
                # The same signals, values and times after the header (its date differs).
                self.assertEqual(p.read().split("$enddefinitions")[1],
                                 t.read().split("$enddefinitions")[1])

    def test_every_policy(self):
        status, out, err = mmsim("run", os.path.join(EXAMPLES, "sum_simple.yaml"),
                                 "--policies", "all")
        self.assertEqual(status, 0, err)
        self.assertIn("adversarial", out)

    def test_expect_holds(self):
        status, out, err = mmsim("run", os.path.join(EXAMPLES, "hmm_sum.yaml"))
        self.assertEqual(status, 0, err)
        self.assertIn("stages", out)
        status, out, _ = mmsim("run", os.path.join(EXAMPLES, "hmm_sum.yaml"),
                               "--set", "expect.stages=184")
        self.assertEqual(status, 1)

    def test_a_sweep_with_two_jobs(self):
        with scratch() as folder:
            results = os.path.join(folder, "r.jsonl")
            status, out, err = mmsim("sweep", os.path.join(EXAMPLES, "transposes_sweep.yaml"),
                                     "--jobs", "2", "--results", results, cwd=folder)
            self.assertEqual(status, 0, err)
            with open(results) as f:
                records = [json.loads(line) for line in f]
        self.assertEqual(len(records), 8)
        self.assertTrue(all(r["verified"] for r in records))
        # On the DMM the diagonal transpose is conflict-free: n/w stages per instruction, 2
        # instructions per element: 2 * 1024 / 32 = 64; the naive one's writes of a column go
        # to one bank: 1024/32 + 1024 = 1056 (Nakano and Matsumae 2013, Theorem 2).
        stages = {r["case"]: r["stats"]["stages"] for r in records}
        self.assertEqual(stages, {"diagonal": 64, "naive": 1056})


if __name__ == "__main__":
    unittest.main()
