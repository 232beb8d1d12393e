"""The package's own functions call the command's code: same cycles, the same statistics as the
JSON file, the same located errors, never an exit of the interpreter."""

import json
import os
import subprocess
import sys
import unittest

import mmsim
from support import CONFIGS, EXAMPLES, SOURCE, mmsim as command, scratch


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

    def test_a_dict_is_read_as_it_is(self):
        # No file is written for it: its name is a label, never a path (it wrote NAME.yaml).
        with scratch() as folder:
            for name in (os.path.join(folder, "victim"), "../escape", "a/b", "nul\0name"):
                testbench = {"name": name,
                             "machine": {"model": "dmm", "width": 4, "latency": 5, "threads": 8},
                             "program": {"name": "contiguous_access", "params": {"n": 64}}}
                result = mmsim.run(testbench)
                self.assertEqual((result.name, result.cycles), (name, 41))
                with self.assertRaises(mmsim.InputError):
                    mmsim.run(testbench, set={"machine.latency": 0})
            self.assertEqual(os.listdir(folder), [])
            self.assertFalse(os.path.exists(os.path.join(folder, "..", "escape.yaml")))
            # A relative program.file is taken from the current folder.
            with open(os.path.join(folder, "mine.py"), "w") as f:
                f.write("import mmsim\nclass Mine(mmsim.Program):\n"
                        "    def memory_words(self, machine=None): return 8\n"
                        "    def run(self, warp): yield warp.read(list(range(4)))\n")
            here = os.getcwd()
            os.chdir(folder)
            try:
                result = mmsim.run({"machine": {"model": "dmm", "width": 4, "latency": 2,
                                                "threads": 8},
                                    "program": {"file": "mine.py", "class": "Mine"}})
            finally:
                os.chdir(here)
        # Both warps read m[0..3]: 2 dispatches of one stage, the second at 1: 1 + 1 + 2 - 2 + 1.
        self.assertEqual(result.cycles, 3)

    def test_the_main_figures_are_attributes(self):
        # Nakano 2012, Figure 4 on the DMM (configs/dmm_fig4.yaml): W(0) reads m[0], m[1], m[5],
        # m[10] (banks 0, 1, 1, 2: 2 stages), W(1) m[8], m[9], m[14], m[15] (1 stage).
        result = mmsim.run(os.path.join(CONFIGS, "dmm_fig4.yaml"))
        self.assertEqual((result.cycles, result.stages, result.dispatches, result.requests),
                         (5, 3, 2, 8))
        self.assertEqual((result.syncthreads, result.grid_syncs), (0, 0))
        self.assertEqual(list(result.memories), ["memory"])
        self.assertEqual(result.memories["memory"]["bank_requests"], [2, 3, 2, 1])
        self.assertEqual(result.name, "dmm-fig4")

    def test_help_documents_everything(self):
        for name in mmsim.__all__:
            thing = getattr(mmsim, name)
            self.assertTrue(thing.__doc__, name)
            for member, value in vars(thing).items() if isinstance(thing, type) else ():
                if not member.startswith("_") and (callable(value) or isinstance(value, property)):
                    self.assertTrue(value.__doc__, f"{name}.{member}")
        with open(os.path.join(SOURCE, "docs", "python.md")) as f:
            self.assertNotIn("(no docstring)", f.read())

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


    def test_the_machine_view_names_each_key_as_the_statistics_do(self):
        # One name per quantity (docs/statistics.md, "The machine's keys"): the attribute of a
        # machine key is its name (a nested key's with an underscore), its value the statistics'.
        program = ("import json, mmsim\nclass Seen(mmsim.Program):\n"
                   "    params = {'out': mmsim.Param(str, doc='where the view goes')}\n"
                   "    def memory_words(self, machine=None): return 64\n"
                   "    def shared_words(self, machine=None): return 8\n"
                   "    def run(self, warp): yield warp.read([4 * warp.index + l "
                   "for l in range(4)])\n"
                   "    def bounds(self, machine, result):\n"
                   "        with open(self.out, 'w') as f: json.dump(vars(machine), f)\n"
                   "        return []\n")
        with scratch() as folder:
            with open(os.path.join(folder, "seen.py"), "w") as f:
                f.write(program)
            view_file = os.path.join(folder, "view.json")
            result = mmsim.run({"machine": {"model": "hmm", "width": 4, "latency": 2,
                                            "threads": 16, "multiprocessors": 2, "ports": 2,
                                            "kernel_latency": 3, "global": {"width": 8},
                                            "shared": {"latency": 5, "model": "pram"}},
                                "program": {"file": os.path.join(folder, "seen.py"),
                                            "class": "Seen", "params": {"out": view_file}}})
            with open(view_file) as f:
                view = json.load(f)
        stats = result.stats
        self.assertEqual(sorted(view), sorted([
            "model", "width", "latency", "threads", "super_warp", "dispatch", "seed",
            "barrier_latency", "compute_latency", "write_conflict", "ports", "memory",
            "local_memory", "address_map", "multiprocessors", "kernel_latency", "shared_model",
            "shared_latency", "shared_ports", "shared_memory", "shared_address_map",
            "global_width", "warps"]))
        for name, value in view.items():
            if name == "warps":
                self.assertEqual(value, 16 // 4)
            elif name.startswith("shared_"):
                self.assertEqual(value, stats["shared"][name[len("shared_"):]], name)
            elif name == "global_width":
                self.assertEqual(value, stats["global"]["width"])
            else:
                self.assertEqual(value, stats[name], name)
        self.assertEqual((view["memory"], view["shared_memory"], view["global_width"]),
                         (64, 8, 8))
        self.assertEqual((view["ports"], view["kernel_latency"], view["shared_model"]),
                         (2, 3, "pram"))
        # The statistics' names before are kept beside (docs/statistics.md).
        self.assertEqual((stats["memory_words"], stats["shared"]["memory_words"],
                          stats["global_width"]), (64, 8, 8))


class Errors(unittest.TestCase):
    def test_input_error_is_located(self):
        testbench = {"machine": {"model": "dmm", "width": 4, "latency": 0, "threads": 8},
                     "program": {"name": "contiguous_access", "params": {"n": 64}}}
        with self.assertRaises(mmsim.InputError) as caught:
            mmsim.run(testbench)
        error = caught.exception
        self.assertEqual((error.file, error.key), ("<dict>", "machine.latency"))
        self.assertEqual(str(error), "<dict>:machine.latency: expected an integer from 1 to "
                                     "16777216, got '0'")
        testbench["machine"]["latency"] = 5
        testbench["program"]["params"] = {"n": 64, "m": 3}
        with self.assertRaises(mmsim.InputError) as caught:
            mmsim.run(testbench)
        self.assertEqual(caught.exception.key, "program.params.m")

    def test_yaml_text_is_located_by_line_and_column(self):
        text = ("machine: {model: dmm, width: 4, latency: 5, threads: 8}\n"
                "program: {name: contiguous_acess, params: {n: 64}}\n")
        with self.assertRaises(mmsim.InputError) as caught:
            mmsim.run(text)
        self.assertEqual(str(caught.exception), "<yaml>:2:17: program.name: unknown program "
                         "'contiguous_acess' (did you mean 'contiguous_access'?)")
        self.assertEqual(mmsim.run(text.replace("acess", "access")).cycles, 41)

    def test_an_override_is_named_by_its_assignment(self):
        with self.assertRaises(mmsim.InputError) as caught:
            mmsim.run(os.path.join(CONFIGS, "dmm_fig4.yaml"), set="machine.latency=0")
        error = caught.exception
        self.assertEqual((error.file, error.line, error.assignment),
                         (None, 0, "machine.latency=0"))
        self.assertEqual(str(error), "set machine.latency=0: machine.latency: expected an "
                                     "integer from 1 to 16777216, got '0'")
        status, _, err = command("run", os.path.join(CONFIGS, "dmm_fig4.yaml"),
                                 "--set", "machine.latency=0")
        self.assertEqual(status, 2)
        self.assertEqual(err, "mmsim: --set machine.latency=0: machine.latency: expected an "
                              "integer from 1 to 16777216, got '0'\n")

    def test_an_output_over_a_file_the_run_reads_is_refused(self):
        # Issue 40 item 1: the program's file and the testbench stay as they were.
        program = ("import mmsim\nclass Fine(mmsim.Program):\n"
                   "    def memory_words(self, machine=None): return 64\n"
                   "    def run(self, warp): yield warp.read([4 * warp.index + l "
                   "for l in range(4)])\n")
        testbench = ("machine: {model: dmm, width: 4, latency: 2, threads: 8}\n"
                     "program: {file: user.py, class: Fine}\n")
        with scratch() as folder:
            for name, text in (("user.py", program), ("tb.yaml", testbench)):
                with open(os.path.join(folder, name), "w") as f:
                    f.write(text)
            here = os.getcwd()
            os.chdir(folder)
            try:
                for output in ("stats", "vcd"):
                    with self.assertRaises(mmsim.InputError) as caught:
                        mmsim.run("tb.yaml", **{output: "user.py"})
                    self.assertEqual(str(caught.exception),
                                     f"--{output}: cannot write user.py: it is also the input "
                                     f"of program.file ({os.path.join(folder, 'user.py')})")
                    with self.assertRaises(mmsim.InputError):
                        mmsim.run("tb.yaml", **{output: "tb.yaml"})
                self.assertEqual(mmsim.run("tb.yaml").cycles, 3)
            finally:
                os.chdir(here)
            self.assertEqual(sorted(os.listdir(folder)), ["tb.yaml", "user.py"])
            with open(os.path.join(folder, "user.py")) as f:
                self.assertEqual(f.read(), program)
            with open(os.path.join(folder, "tb.yaml")) as f:
                self.assertEqual(f.read(), testbench)

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
    def test_errors_are_located_and_runs_quiet(self):
        with scratch() as folder:
            sweep = os.path.join(folder, "bad.yaml")
            with open(sweep, "w") as f:
                f.write(f"name: s\ntestbench: {os.path.join(CONFIGS, 'dmm_fig4.yaml')}\n"
                        "grid:\n  machine.lattency: [1, 2]\n")
            with self.assertRaises(mmsim.InputError) as caught:
                mmsim.sweep(sweep)
            self.assertEqual((caught.exception.file, caught.exception.line,
                              caught.exception.column), (sweep, 4, 3))
            self.assertIn("unknown key 'lattency' in machine (did you mean 'latency'?)",
                          str(caught.exception))
            # Quiet: nothing on standard output or standard error of the process. Figure 4 at
            # l = 1: W(0) (2 stages) completes at 0 + 2 + 1 - 2 = 1, W(1) dispatched at 2
            # completes at 2: 3; at l = 2: 2, then W(1) at 2 completes at 3: 4.
            with open(sweep, "w") as f:
                f.write(f"name: s\ntestbench: {os.path.join(CONFIGS, 'dmm_fig4.yaml')}\n"
                        "grid:\n  machine.latency: [1, 2]\n")
            done = subprocess.run(
                [sys.executable, "-c", f"import mmsim; r = mmsim.sweep({sweep!r}, jobs=2); "
                 "r = r if isinstance(r, list) else r.to_dict('records'); "
                 "assert sorted(x['stats']['cycles'] for x in r) == [3, 4], r"],
                capture_output=True, text=True, timeout=120)
            self.assertEqual((done.returncode, done.stdout, done.stderr), (0, "", ""))

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
