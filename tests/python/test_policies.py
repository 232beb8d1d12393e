"""Dispatch policies of one's own (docs/own_policies.md): Python twins of lowest_ready and
oldest_ready give the built-ins' exact statistics on random traces under every model (fixed
seeds); a policy that idles gives the hand-computed running time, asked at exactly the time
units the rule says; mistakes are the user's, at their line, with no output left behind."""

import json
import os
import random
import unittest

import mmsim
from support import EXAMPLES, machine_statistics, mmsim as command, scratch

POLICIES = os.path.join(EXAMPLES, "policies.py")

# Each model on a small machine: 4 banks, 8 dispatch units of the model's own kind.
MACHINES = {
    "dmm": {"model": "dmm", "width": 4, "latency": 3, "threads": 32, "memory": 64},
    "sdmm": {"model": "sdmm", "width": 4, "latency": 3, "threads": 32, "super_warp": 2,
             "memory": 64},
    "rsdmm": {"model": "rsdmm", "width": 4, "latency": 3, "threads": 32, "super_warp": 2,
              "memory": 64, "seed": 7},
    "umm": {"model": "umm", "width": 4, "latency": 5, "threads": 32, "memory": 64},
    "bpram": {"model": "bpram", "width": 4, "latency": 1, "threads": 32, "memory": 64},
    "pram": {"model": "pram", "width": 4, "latency": 1, "threads": 32, "memory": 64},
    "hmm": {"model": "hmm", "multiprocessors": 2, "width": 4, "latency": 6, "threads": 32,
            "memory": 64, "shared": {"memory": 32, "latency": 2}, "global": {"width": 4}},
}


def random_trace(rng, warps, width, words, shared_words=0):
    """Each warp a random number of random reads and writes (some lanes inactive), a
    syncthreads now and then; on the hmm some of them in shared memory."""
    trace = []
    for _ in range(warps):
        instructions = []
        for _ in range(rng.randrange(3, 12)):
            if rng.random() < 0.1:
                continue
            space = "shared" if shared_words and rng.random() < 0.5 else "global"
            limit = shared_words if space == "shared" else words
            lanes = [rng.randrange(limit) if rng.random() < 0.9 else None for _ in range(width)]
            op = "read" if rng.random() < 0.6 else "write"
            instruction = {op: lanes}
            if space == "shared":
                instruction["space"] = "shared"
            instructions.append(instruction)
        trace.append(instructions)
    return trace


def run(machine, trace, dispatch):
    return mmsim.run({"machine": dict(machine, dispatch=dispatch),
                      "program": {"name": "trace", "warps": trace}})


class Twins(unittest.TestCase):
    def twins(self, built_in, own):
        rng = random.Random(2024)
        for name, machine in MACHINES.items():
            shared = machine.get("shared", {}).get("memory", 0)
            for case in range(3):
                trace = random_trace(rng, 8, 4, machine["memory"], shared)
                with self.subTest(model=name, case=case):
                    expected = run(machine, trace, built_in)
                    got = run(machine, trace, {"file": POLICIES, "class": own})
                    self.assertGreater(expected.cycles, 0)
                    self.assertEqual(machine_statistics(got.stats),
                                     machine_statistics(expected.stats))

    def test_min_of_ready_is_lowest_ready_on_every_model(self):
        self.twins("lowest_ready", "LowestReady")

    def test_the_oldest_by_since_is_oldest_ready_on_every_model(self):
        self.twins("oldest_ready", "OldestReady")

    def test_a_policy_of_ones_own_differs_from_the_others_where_they_differ(self):
        # The twins above would pass if machine.dispatch were ignored: here lowest_ready and
        # oldest_ready differ, and each twin follows its own.
        rng = random.Random(5)
        machine = MACHINES["dmm"]
        for _ in range(20):
            trace = random_trace(rng, 8, 4, 64)
            lowest, oldest = run(machine, trace, "lowest_ready"), run(machine, trace, "oldest_ready")
            if lowest.stats["warp_time"] != oldest.stats["warp_time"]:
                break
        else:
            self.fail("no trace of 20 tells lowest_ready from oldest_ready")
        own = run(machine, trace, {"file": POLICIES, "class": "OldestReady"})
        self.assertEqual(machine_statistics(own.stats), machine_statistics(oldest.stats))


RECORDER = """\
import mmsim


class Recorder(mmsim.Policy):
    calls = []
    made = []
    params = {"patience": mmsim.Param(int, default=5, doc="")}

    def __init__(self):
        Recorder.made.append((self.memory, list(self.units), self.seed, self.patience))

    def choose(self, time, ready):
        Recorder.calls.append((self.memory, time, list(ready), [self.since(u) for u in ready]))
        if len(ready) == 1 and time < self.patience:
            return None
        return ready[0]
"""


class Idling(unittest.TestCase):
    def test_company_waits_for_a_second_unit_until_its_patience_ends(self):
        # dmm, w = 4, l = 2, two warps each reading two rows (one stage each). Company:
        # t=0 [0,1]: warp 0 (done at 0+1+2-2 = 1, next at 2); t=1 [1]: idle; t=2 [0,1]: warp 0
        # (done at 3, its last); t=3, t=4 [1]: idle; t=5: warp 1 (done at 6, next at 7); t=7:
        # warp 1 (done at 8). Running time 1 + 8 = 9, where lowest_ready takes 5.
        result = mmsim.run(os.path.join(EXAMPLES, "policy_dmm.yaml"))
        self.assertEqual(result.cycles, 9)
        self.assertEqual(result.stages, 4)
        lowest = mmsim.run(os.path.join(EXAMPLES, "policy_dmm.yaml"),
                           set={"machine.dispatch": "lowest_ready"})
        self.assertEqual(lowest.cycles, 5)

    def test_it_is_asked_at_each_time_unit_the_memory_is_free_with_units_ready(self):
        with scratch() as folder:
            path = os.path.join(folder, "recorder.py")
            with open(path, "w") as f:
                f.write(RECORDER)
            trace = [[{"read": [0, 1, 2, 3]}, {"read": [4, 5, 6, 7]}],
                     [{"read": [8, 9, 10, 11]}, {"read": [12, 13, 14, 15]}]]
            result = mmsim.run({"machine": {"model": "dmm", "width": 4, "latency": 2,
                                            "threads": 8, "seed": 3,
                                            "dispatch": {"file": path, "class": "Recorder"}},
                                "program": {"name": "trace", "warps": trace}})
            from mmsim import _program
            recorder = _program.load_class(path, "Recorder", mmsim.Policy)
        self.assertEqual(result.cycles, 9)
        self.assertEqual(recorder.made, [(0, [0, 1], 3, 5)])
        # (memory, time, ready, since of each): warp 1 ready since 0 until it goes at 5, then
        # since 7 (its first read done at 6).
        self.assertEqual(recorder.calls, [(0, 0, [0, 1], [0, 0]), (0, 1, [1], [0]),
                                          (0, 2, [0, 1], [2, 0]), (0, 3, [1], [0]),
                                          (0, 4, [1], [0]), (0, 5, [1], [0]),
                                          (0, 7, [1], [7])])

    def test_the_hmm_has_one_object_per_memory(self):
        with scratch() as folder:
            path = os.path.join(folder, "recorder.py")
            with open(path, "w") as f:
                f.write(RECORDER)
            trace = [[{"read": [0, 1, 2, 3], "space": "shared"}, {"read": [0, 1, 2, 3]}]] * 4
            mmsim.run({"machine": dict(MACHINES["hmm"], threads=16, seed=4, dispatch={
                           "file": path, "class": "Recorder", "params": {"patience": 0}}),
                       "program": {"name": "trace", "warps": trace}})
            from mmsim import _program
            recorder = _program.load_class(path, "Recorder", mmsim.Policy)
        # The global memory (0) reached by all four warps; SM 0's shared memory (1) by warps
        # 0 and 1, SM 1's (2) by warps 2 and 3.
        self.assertEqual(recorder.made, [(0, [0, 1, 2, 3], 4, 0), (1, [0, 1], 4, 0),
                                         (2, [2, 3], 4, 0)])
        self.assertEqual({memory for memory, *_ in recorder.calls}, {0, 1, 2})


MISTAKES = """\
import mmsim


class NotReady(mmsim.Policy):
    def choose(self, time, ready):
        return 1 if 1 not in ready else ready[0]


class Text(mmsim.Policy):
    def choose(self, time, ready):
        return "0"


class Raises(mmsim.Policy):
    def choose(self, time, ready):
        return ready[0] // 0


class BadInit(mmsim.Policy):
    def __init__(self):
        raise ValueError("no")

    def choose(self, time, ready):
        return ready[0]


class Forever(mmsim.Policy):
    def choose(self, time, ready):
        return None


class Outside(mmsim.Policy):
    def choose(self, time, ready):
        return 7
"""

TESTBENCH = """\
machine:
  model: dmm
  width: 4
  latency: 2
  threads: 8
  dispatch: %s
program: {name: contiguous_access, params: {n: 64}}
outputs: {stats: stats.json}
"""


class Mistakes(unittest.TestCase):
    def attempt(self, dispatch):
        """(exit status, standard error) of a run with machine.dispatch = `dispatch`; no
        statistics may be left behind."""
        with scratch() as folder:
            with open(os.path.join(folder, "mistakes.py"), "w") as f:
                f.write(MISTAKES)
            testbench = os.path.join(folder, "tb.yaml")
            with open(testbench, "w") as f:
                f.write(TESTBENCH % dispatch)
            status, out, err = command("run", testbench, cwd=folder)
            self.assertEqual(sorted(os.listdir(folder)), ["mistakes.py", "tb.yaml"])
            return status, err.replace(folder + "/", "")

    def test_a_unit_that_is_not_ready(self):
        # t=0: [0, 1], warp 0 goes (its next read at 2); t=1: [1], warp 1 goes; t=2: [0], and
        # NotReady names warp 1.
        status, err = self.attempt("{file: mistakes.py, class: NotReady}")
        self.assertEqual(status, 2, err)
        self.assertIn("tb.yaml:6:13: machine.dispatch: mistakes.py:5: NotReady (memory 0): it "
                      "chose unit 1 at time 2, which is not ready (ready: [0])", err)
        status, err = self.attempt("{file: mistakes.py, class: Outside}")
        self.assertEqual(status, 2, err)
        self.assertIn("tb.yaml:6:13: machine.dispatch: mistakes.py:33: Outside.choose(0, [0, 1]) "
                      "returned 7: not a unit of this machine (0 .. 1)", err)

    def test_not_an_integer(self):
        status, err = self.attempt("{file: mistakes.py, class: Text}")
        self.assertEqual(status, 2, err)
        self.assertIn("tb.yaml:6:13: machine.dispatch: mistakes.py:10: Text.choose(0, [0, 1]) "
                      "returned '0': expected one of the ready units (an int) or None", err)

    def test_an_exception_in_choose_is_the_policys_failure(self):
        status, err = self.attempt("{file: mistakes.py, class: Raises}")
        self.assertEqual(status, 1, err)
        self.assertIn("machine.dispatch: Raises.choose(0, [0, 1]) raised an exception:", err)
        self.assertIn('mistakes.py", line 16, in choose', err)
        self.assertIn("ZeroDivisionError", err)

    def test_an_exception_in_init(self):
        status, err = self.attempt("{file: mistakes.py, class: BadInit}")
        self.assertEqual(status, 2, err)
        self.assertIn("tb.yaml:6:13: machine.dispatch: BadInit() raised an exception:", err)
        self.assertIn('mistakes.py", line 21, in __init__', err)

    def test_a_policy_that_idles_for_ever(self):
        status, err = self.attempt("{file: mistakes.py, class: Forever}")
        self.assertEqual(status, 2, err)
        self.assertIn("mistakes.py:28: Forever (memory 0): it idled (None) at every time unit "
                      "from 0 to 1048576 with units [0, 1] ready: the run would never end", err)

    def test_a_missing_class_file_or_library(self):
        status, err = self.attempt("{file: mistakes.py, class: NotRedy}")
        self.assertEqual(status, 2, err)
        self.assertIn("tb.yaml:6:40: machine.dispatch.class: mistakes.py has no class 'NotRedy' "
                      "(did you mean 'NotReady'?)", err)
        status, err = self.attempt("{file: nothing.py, class: P}")
        self.assertEqual(status, 2, err)
        self.assertIn("tb.yaml:6:20: machine.dispatch.file: no such file: nothing.py", err)
        status, err = self.attempt("{library: libnothing.so, name: p}")
        self.assertEqual(status, 2, err)
        self.assertIn("tb.yaml:6:23: machine.dispatch.library: no such file: libnothing.so", err)
        status, err = self.attempt("{file: mistakes.py}")
        self.assertEqual(status, 2, err)
        self.assertIn("tb.yaml:6:13: machine.dispatch: missing required key 'class'", err)

    def test_a_parameter_it_does_not_declare(self):
        status, err = self.attempt("{file: mistakes.py, class: NotReady, params: {speed: 1}}")
        self.assertEqual(status, 2, err)
        self.assertIn("tb.yaml:6:59: unknown key 'speed' in machine.dispatch.params (there are "
                      "none)", err)


class Listing(unittest.TestCase):
    def test_the_policies_of_a_file_with_their_parameters(self):
        policies = {p["name"]: p for p in mmsim.policies(file=POLICIES)}
        self.assertEqual(sorted(policies), ["Company", "LowestReady", "OldestReady"])
        self.assertEqual(policies["LowestReady"]["doc"],
                         "the ready unit with the lowest number (the built-in lowest_ready's twin)")
        self.assertEqual(policies["Company"]["params"],
                         [{"name": "patience", "type": "integer", "default": "5",
                           "doc": "the time from which a lone unit goes"}])
        status, out, err = command("list", "policies", "--file", POLICIES)
        self.assertEqual(status, 0, err)
        self.assertIn("  LowestReady            the ready unit with the lowest number", out)
        self.assertIn("      patience     integer           default 5        the time from", out)

    def test_the_testbench_as_it_ran_names_the_policy(self):
        with scratch() as folder:
            mmsim.run(os.path.join(EXAMPLES, "policy_dmm.yaml"), out_dir=folder)
            with open(os.path.join(folder, "testbench.yaml")) as f:
                text = f.read()
        self.assertIn(os.path.join(EXAMPLES, "policies.py"), text)
        self.assertIn("Company", text)
        self.assertIn("patience: 5", text)


if __name__ == "__main__":
    unittest.main()
