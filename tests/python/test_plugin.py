"""A C++ plugin built outside the tree: mmsim installed into a temporary prefix (cmake
--install), examples/cpp configured and built against it with find_package(mmsim), its
program run from YAML by the installed command, beside its built-in twin."""

import json
import os
import shutil
import subprocess
import unittest

import mmsim
from support import SOURCE, machine_statistics, scratch

BUILD = os.environ["MMSIM_BUILD_DIR"]


def check(*command, cwd=None):
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise AssertionError(f"{' '.join(command)}: {done.stdout}{done.stderr}")
    return done.stdout


class Plugin(unittest.TestCase):
    def test_out_of_tree_plugin(self):
        with scratch() as folder:
            prefix = os.path.join(folder, "prefix")
            check("cmake", "--install", BUILD, "--prefix", prefix)
            project = os.path.join(folder, "plugin")
            shutil.copytree(os.path.join(SOURCE, "examples", "cpp"), project)
            check("cmake", "-S", project, "-B", os.path.join(project, "build"),
                  f"-DCMAKE_PREFIX_PATH={prefix}", "-DCMAKE_BUILD_TYPE=Release")
            check("cmake", "--build", os.path.join(project, "build"))
            stats = os.path.join(folder, "plugin.json")
            testbench = os.path.join(project, "contiguous_plugin.yaml")
            out = check(os.path.join(prefix, "bin", "mmsim"), "run", testbench, "--stats", stats)
            self.assertIn("contiguous_read", out)
            with open(stats) as f:
                plugin = json.load(f)
            # The plugin in this process too (the package's libmmsim is the build's).
            self.assertEqual(mmsim.run(testbench).cycles, plugin["cycles"])
        twin = mmsim.run({"machine": {"model": "dmm", "width": 32, "latency": 16,
                                      "threads": 1024},
                          "program": {"name": "contiguous_access", "params": {"n": 65536}}})
        self.assertTrue(plugin["verified"])
        self.assertEqual(plugin["verification"]["elements_checked"], 65536)
        self.assertEqual(machine_statistics(plugin), machine_statistics(twin.stats))

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
