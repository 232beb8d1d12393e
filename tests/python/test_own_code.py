"""Code of one's own wherever a testbench value goes: a sweep whose grid mixes Python policies
(as mappings and in short) with the built-ins gives the built-ins' figures where a policy is
their twin, and --set names a policy or a map of one's own in short or as a YAML flow mapping,
its mistakes located at that --set (exit status 2, no output left)."""

import json
import os
import random
import shutil
import unittest

from support import EXAMPLES, machine_statistics, mmsim as command, scratch

# Four warps of eight lanes on a DMM of four banks: who goes first matters.
MACHINE = {"model": "dmm", "width": 4, "latency": 3, "threads": 32, "memory": 64}


def trace(seed):
    """Per warp, eight random reads and writes (about one lane in ten inactive)."""
    rng = random.Random(seed)
    warps = []
    for _ in range(8):
        instructions = []
        for _ in range(8):
            lanes = [rng.randrange(64) if rng.random() < 0.9 else None for _ in range(4)]
            instructions.append({"write" if rng.random() < 0.4 else "read": lanes})
        warps.append(instructions)
    return warps


def folder_with_code(folder):
    """The scratch folder with the examples' policies.py and address_maps.py and tb.yaml (a
    random trace on MACHINE, round robin): the testbench's path."""
    for name in ("policies.py", "address_maps.py"):
        shutil.copy(os.path.join(EXAMPLES, name), folder)
    testbench = os.path.join(folder, "tb.yaml")
    with open(testbench, "w") as f:
        json.dump({"name": "own-code", "machine": MACHINE,
                   "program": {"name": "trace", "warps": trace(11)}}, f)
    return testbench


def stats_of(folder, *options):
    """The statistics of `mmsim run tb.yaml` with `options` in `folder`."""
    stats = os.path.join(folder, "stats.json")
    status, out, err = command("run", os.path.join(folder, "tb.yaml"), "--stats", stats,
                               *options, cwd=folder)
    if status != 0:
        raise AssertionError(f"exit status {status}: {err}")
    with open(stats) as f:
        figures = json.load(f)
    os.remove(stats)
    return figures


class SweepOverPolicies(unittest.TestCase):
    def test_python_twins_in_the_grid_give_the_built_ins_figures(self):
        with scratch() as folder:
            folder_with_code(folder)
            sweep = os.path.join(folder, "sweep.yaml")
            with open(sweep, "w") as f:
                f.write("name: policies\n"
                        "testbench: tb.yaml\n"
                        "grid:\n"
                        "  machine.dispatch: [lowest_ready, '{file: policies.py, class: "
                        "LowestReady}', oldest_ready, 'policies.py:OldestReady',\n"
                        "                     '{file: policies.py, class: Company, "
                        "params: {patience: 3}}']\n"
                        "columns: [cycles, stages, dispatches]\n")
            results = os.path.join(folder, "r.jsonl")
            status, out, err = command("sweep", sweep, "--results", results, "--jobs", "2",
                                       cwd=folder)
            self.assertEqual(status, 0, err)
            with open(results) as f:
                runs = {r["index"]: r for r in map(json.loads, f)}
            self.assertEqual(sorted(runs), [0, 1, 2, 3, 4])
            for run in runs.values():
                self.assertNotIn("error", run)
            figures = [machine_statistics(runs[i]["stats"]) for i in range(5)]
            # Each twin gives its built-in's figures, as a lone run of the built-in does.
            self.assertEqual(figures[1], figures[0])
            self.assertEqual(figures[3], figures[2])
            self.assertEqual(figures[0],
                             machine_statistics(stats_of(folder, "--set",
                                                         "machine.dispatch=lowest_ready")))
            # ... on a trace where the policies differ: the comparison can fail.
            self.assertNotEqual(figures[0]["cycles"], figures[2]["cycles"])
            # A policy with parameters runs in the sweep as it runs alone.
            self.assertEqual(figures[4], machine_statistics(stats_of(
                folder, "--set",
                "machine.dispatch={file: policies.py, class: Company, params: {patience: 3}}")))
            self.assertEqual(runs[1]["values"]["machine.dispatch"],
                             "{file: policies.py, class: LowestReady}")
            # The table names each policy as the grid does.
            self.assertIn("policies.py:OldestReady", out)


class SetNamesCodeOfOnesOwn(unittest.TestCase):
    def test_a_policy_in_short_and_as_a_flow_mapping(self):
        with scratch() as folder:
            folder_with_code(folder)
            built_in = machine_statistics(stats_of(folder, "--set",
                                                   "machine.dispatch=oldest_ready"))
            for value in ("policies.py:OldestReady", "{file: policies.py, class: OldestReady}"):
                with self.subTest(value=value):
                    got = stats_of(folder, "--set", "machine.dispatch=" + value)
                    self.assertEqual(machine_statistics(got), built_in)
            # lowest_ready differs on this trace: the comparison can fail.
            self.assertNotEqual(machine_statistics(stats_of(
                folder, "--set", "machine.dispatch=lowest_ready"))["cycles"], built_in["cycles"])

    def test_a_map_in_short_and_as_a_flow_mapping(self):
        with scratch() as folder:
            folder_with_code(folder)
            built_in = machine_statistics(stats_of(folder, "--set", "machine.address_map=xor"))
            for value in ("address_maps.py:Xor", "{file: address_maps.py, class: Xor}",
                          "{file: address_maps.py, class: RandomPermutation, params: "
                          "{salt: 0}}"):
                with self.subTest(value=value):
                    got = machine_statistics(stats_of(folder, "--set",
                                                      "machine.address_map=" + value))
                    if "Xor" in value:
                        self.assertEqual(got, built_in)
                    else:  # another map: other conflicts on this trace
                        self.assertNotEqual(got["stages"], built_in["stages"])

    def attempt(self, assignment):
        """(exit status, standard error) of a run with --set `assignment`; nothing may be
        left behind but the files the folder had."""
        with scratch() as folder:
            folder_with_code(folder)
            before = sorted(os.listdir(folder))
            status, out, err = command("run", "tb.yaml", "--stats", "stats.json", "--set",
                                       assignment, cwd=folder)
            self.assertEqual(sorted(os.listdir(folder)), before)
            self.assertEqual(out, "")
            return status, err

    def test_mistakes_are_located_at_the_set(self):
        cases = [
            ("machine.dispatch=policies.py:LowestRedy",
             "mmsim: --set machine.dispatch=policies.py:LowestRedy: machine.dispatch: "
             "policies.py has no class 'LowestRedy' (did you mean 'LowestReady'?)"),
            ("machine.dispatch={file: policies.py, class: LowestRedy}",
             "mmsim: --set machine.dispatch={file: policies.py, class: LowestRedy}: "
             "machine.dispatch.class: policies.py has no class 'LowestRedy'"),
            ("machine.dispatch=nothing.py:P",
             "mmsim: --set machine.dispatch=nothing.py:P: machine.dispatch: no such file: "),
            ("machine.dispatch=libnothing.so:lowest",
             "mmsim: --set machine.dispatch=libnothing.so:lowest: machine.dispatch: no such "
             "file: "),
            ("machine.dispatch={file: policies.py, class: Company, params: {patince: 3}}",
             "mmsim: --set machine.dispatch={file: policies.py, class: Company, params: "
             "{patince: 3}}: unknown key 'patince' in machine.dispatch.params"),
            ("machine.address_map=address_maps.py:Xr",
             "mmsim: --set machine.address_map=address_maps.py:Xr: machine.address_map: "
             "address_maps.py has no class 'Xr' (did you mean 'Xor'?)"),
            ("machine.address_map={file: address_maps.py, class: Xor, params: {salt: 1}}",
             "mmsim: --set machine.address_map={file: address_maps.py, class: Xor, params: "
             "{salt: 1}}: unknown key 'salt' in machine.address_map.params"),
            ("machine.address_map=:Xor",
             "mmsim: --set machine.address_map=:Xor: machine.address_map: ':Xor': expected "
             "file.py:Class (a Python class) or library:name (a C++ plugin's map)"),
            ("machine.dispatch='policies.py:'",
             "mmsim: --set machine.dispatch='policies.py:': machine.dispatch: 'policies.py:': "
             "expected file.py:Class (a Python class) or library:name (a C++ plugin's policy)"),
            # Unquoted, YAML reads `policies.py:` as a mapping of one key.
            ("machine.dispatch=policies.py:",
             "mmsim: --set machine.dispatch=policies.py:: unknown key 'policies.py' in "
             "machine.dispatch (expected one of: file, class, library, name, params)"),
        ]
        for assignment, message in cases:
            with self.subTest(assignment=assignment):
                status, err = self.attempt(assignment)
                self.assertEqual(status, 2, err)
                self.assertIn(message, err)


if __name__ == "__main__":
    unittest.main()
