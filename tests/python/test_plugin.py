"""The C++ plugins built outside the tree: mmsim installed into a temporary prefix (cmake
--install), examples/cpp configured and built against it with find_package(mmsim) as
docs/own_programs.md does it (into examples/cpp/build, which .gitignore ignores), its programs
run from YAML by the installed command: the contiguous reads beside their built-in twin, the
block reduction beside its Python form."""

import json
import os
import random
import shutil
import subprocess
import unittest

import mmsim
from support import EXAMPLES, SOURCE, machine_statistics, scratch

BUILD = os.environ["MMSIM_BUILD_DIR"]


def check(*command, cwd=None):
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise AssertionError(f"{' '.join(command)}: {done.stdout}{done.stderr}")
    return done.stdout


def files_below(folder):
    return [os.path.relpath(os.path.join(at, name), folder)
            for at, _, names in os.walk(folder) for name in names]


class Plugin(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        """mmsim installed, and examples/cpp built against it in a copy of the tree."""
        cls.scratch = scratch()
        folder = cls.scratch.name
        cls.prefix = os.path.join(folder, "prefix")
        check("cmake", "--install", BUILD, "--prefix", cls.prefix)
        cls.clone = os.path.join(folder, "clone")
        cls.project = os.path.join(cls.clone, "examples", "cpp")
        shutil.copytree(os.path.join(SOURCE, "examples"), os.path.join(cls.clone, "examples"))
        check("cmake", "-S", cls.project, "-B", os.path.join(cls.project, "build"),
              f"-DCMAKE_PREFIX_PATH={cls.prefix}", "-DCMAKE_BUILD_TYPE=Release")
        check("cmake", "--build", os.path.join(cls.project, "build"))

    @classmethod
    def tearDownClass(cls):
        cls.scratch.cleanup()

    def run_installed(self, testbench):
        """The installed command's run of the testbench: its report and its statistics."""
        stats = os.path.join(self.scratch.name, "plugin.json")
        out = check(os.path.join(self.prefix, "bin", "mmsim"), "run", testbench, "--stats", stats)
        with open(stats) as f:
            return out, json.load(f)

    def test_out_of_tree_plugin(self):
        testbench = os.path.join(self.project, "contiguous_plugin.yaml")
        out, plugin = self.run_installed(testbench)
        self.assertIn("contiguous_read", out)
        # The plugin in this process too (the package's libmmsim is the build's).
        self.assertEqual(mmsim.run(testbench).cycles, plugin["cycles"])
        twin = mmsim.run({"machine": {"model": "dmm", "width": 32, "latency": 16,
                                      "threads": 1024},
                          "program": {"name": "contiguous_access", "params": {"n": 65536}}})
        self.assertTrue(plugin["verified"])
        self.assertEqual(plugin["verification"]["elements_checked"], 65536)
        self.assertEqual(machine_statistics(plugin), machine_statistics(twin.stats))

    def test_the_block_reduction_in_cpp_and_in_python(self):
        out, plugin = self.run_installed(os.path.join(self.project, "block_reduction.yaml"))
        self.assertIn("block_reduction", out)
        self.assertTrue(plugin["verified"])
        self.assertEqual(plugin["verification"]["elements_checked"], 4)  # a sum per SM
        python = mmsim.run(os.path.join(self.clone, "examples", "python", "block_reduction.yaml"))
        self.assertEqual(machine_statistics(plugin), machine_statistics(python.stats))
        # Under every dispatch policy, the same run (the machine of the examples' testbenches).
        machine = {"model": "hmm", "multiprocessors": 4, "width": 8, "latency": 20,
                   "threads": 256, "shared": {"latency": 2}, "race_check": True}
        library = os.path.join(self.project, "build", "libblock_reduction.so")
        for policy in mmsim.policies():
            config = dict(machine, dispatch=policy["name"])
            with self.subTest(policy=policy["name"]):
                cpp = mmsim.run({"machine": config, "program": {
                    "library": library, "name": "block_reduction", "params": {"n": 1024}}})
                python = mmsim.run({"machine": config, "program": {
                    "file": os.path.join(EXAMPLES, "block_reduction.py"),
                    "class": "BlockReduction", "params": {"n": 1024}}})
                self.assertTrue(cpp.verified)
                self.assertEqual(machine_statistics(cpp.stats), machine_statistics(python.stats))

    def test_policies_of_ones_own_in_cpp_are_their_built_in_twins_on_every_model(self):
        from test_policies import MACHINES, random_trace
        library = os.path.join(self.project, "build", "libready_policies.so")
        out, _ = self.run_installed(os.path.join(self.project, "ready_policies.yaml"))
        self.assertIn("dispatch lowest", out)
        rng = random.Random(2025)
        for model, machine in MACHINES.items():
            shared = machine.get("shared", {}).get("memory", 0)
            for built_in, own in [("lowest_ready", "lowest"), ("oldest_ready", "oldest")]:
                trace = random_trace(rng, 8, 4, machine["memory"], shared)
                with self.subTest(model=model, policy=own):
                    program = {"name": "trace", "warps": trace}
                    expected = mmsim.run({"machine": dict(machine, dispatch=built_in),
                                          "program": program})
                    got = mmsim.run({"machine": dict(machine, dispatch={
                        "library": library, "name": own}), "program": program})
                    self.assertEqual(machine_statistics(got.stats),
                                     machine_statistics(expected.stats))

    def test_the_build_folder_is_ignored(self):
        made = [os.path.join("examples", "cpp", "build", path)
                for path in files_below(os.path.join(self.project, "build"))]
        self.assertIn(os.path.join("examples", "cpp", "build", "libblock_reduction.so"), made)
        if subprocess.run(["git", "-C", SOURCE, "rev-parse"], capture_output=True).returncode:
            self.skipTest("the source is not a git clone")
        ignored = subprocess.run(["git", "-C", SOURCE, "check-ignore", "--no-index", "--stdin"],
                                 input="\n".join(made) + "\n", capture_output=True, text=True)
        self.assertEqual(sorted(ignored.stdout.split()), sorted(made))

    def test_the_map_plugin(self):
        """The example's map plugin (examples/cpp/swizzle_map.cpp): with shift 0 the built-in
        xor's figures; its parameters checked where the testbench gives them."""
        testbench = os.path.join(self.project, "swizzle_map.yaml")
        swizzle = mmsim.run(testbench)
        xor = mmsim.run(testbench, set={"machine.address_map": "xor"})
        for key in ("cycles", "stages", "bank_requests", "stage_histogram"):
            self.assertEqual(swizzle.stats[key], xor.stats[key], key)
        self.assertEqual(swizzle.stats["address_map"], "swizzle")
        installed = os.path.join(self.prefix, "bin", "mmsim")
        out, stats = self.run_installed(testbench)
        self.assertEqual(stats["stages"], xor.stats["stages"])
        self.assertIn("swizzle", check(installed, "list", "maps", "--library",
                                       os.path.join(self.project, "build", "libswizzle_map.so")))
        with self.assertRaises(mmsim.InputError) as caught:
            mmsim.run(testbench, set={"machine.address_map.params.shift": 40})
        self.assertIn("machine.address_map.params.shift: shift = 40 is not in 0..31",
                      caught.exception.message)

    def test_a_library_that_is_not_a_plugin(self):
        with scratch() as folder:
            testbench = os.path.join(folder, "tb.yaml")
            with open(testbench, "w") as f:
                f.write("machine: {model: dmm, width: 4, latency: 1, threads: 8}\n"
                        f"program: {{library: {os.path.join(BUILD, 'libmmsim.so')}, name: x}}\n")
            with self.assertRaises(mmsim.InputError) as caught:
                mmsim.run(testbench)
        self.assertIn("is not an mmsim plugin", caught.exception.message)
        self.assertEqual(caught.exception.line, 2)


if __name__ == "__main__":
    unittest.main()
