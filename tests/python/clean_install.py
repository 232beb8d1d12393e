#!/usr/bin/python3
"""usage: tests/python/clean_install.py [SOURCE]

The one-line install of docs/installing-python.md, from a clean clone: `git clone` of SOURCE
(default: this repository, its committed state) into a temporary folder, a virtual environment
of Debian's Python that sees Debian's packages (python3 -m venv --system-site-packages), and
`pip install --no-build-isolation --no-index .` in the clone (--no-index: offline, so that
nothing can come from PyPI). Then, from a folder outside the sources, with the clone removed
from sight: `import mmsim` and a run from Python (the package is the environment's); the
environment's mmsim runs a testbench, and a Python program that imports a module only the
environment has, as bin/mmsim without activating the environment (the command starts the
environment's Python by itself) and as `mmsim` on PATH with it activated. Prints the times of
the install, of a second install (its build folder reused) and of `import mmsim`.

It builds mmsim (minutes), so .ci/run runs it after the test suite instead of ctest. Where
ccache is installed the build uses it. Exit status 0 when all of it works, 1 otherwise.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

SOURCE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                         os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TIMES = {}

PROGRAM = """\
import numpy as np

import mmsim
from venv_only_module import OFFSET


class Shifted(mmsim.Program):
    def memory_words(self, machine=None):
        return OFFSET + 4

    def initialize(self, memory):
        memory[OFFSET:OFFSET + 4] = np.arange(4) + 100

    def run(self, warp):
        got = yield warp.read(OFFSET + np.arange(4))
        self.check(got, np.arange(4) + 100, "the words read")
"""
TESTBENCH = """\
machine: {model: dmm, width: 4, latency: 3, threads: 4}
program: {file: shifted.py, class: Shifted}
"""
OFFSET = 40


def check(command, cwd, env=None, timeout=3600):
    """Runs the command; its standard output, or a failure with everything it printed."""
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)
    if done.returncode != 0:
        raise AssertionError(f"{' '.join(command)}: exit status {done.returncode}\n"
                             f"{done.stdout}{done.stderr}")
    return done.stdout


def outside_environment(**changes):
    """An environment with no trace of a build or an active virtual environment."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "MMSIM_BINARY", "MMSIM_BUILD_DIR")}
    env.update(changes)
    return env


class CleanInstall(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.TemporaryDirectory(prefix="mmsim-clean-install-")
        folder = cls.scratch.name
        cls.clone = os.path.join(folder, "clone")
        cls.venv = os.path.join(folder, "env")
        cls.outside = os.path.join(folder, "outside")
        os.makedirs(cls.outside)
        check(["git", "clone", "--quiet", SOURCE, cls.clone], folder)
        check(["/usr/bin/python3", "-m", "venv", "--system-site-packages", cls.venv], folder)
        cls.python = os.path.join(cls.venv, "bin", "python")
        cls.mmsim = os.path.join(cls.venv, "bin", "mmsim")
        env = outside_environment()
        if shutil.which("ccache"):
            env.update(CMAKE_CXX_COMPILER_LAUNCHER="ccache", CCACHE_BASEDIR=cls.clone)
        install = [os.path.join(cls.venv, "bin", "pip"), "install", "--no-build-isolation",
                   "--no-index", "."]
        for name in ("pip install", "pip install again"):
            start = time.monotonic()
            check(install, cls.clone, env)
            TIMES[name] = time.monotonic() - start
        # A module only the environment has, for the program to import.
        site = check([cls.python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                     cls.outside).strip()
        with open(os.path.join(site, "venv_only_module.py"), "w") as f:
            f.write(f"OFFSET = {OFFSET}\n")
        with open(os.path.join(cls.outside, "shifted.py"), "w") as f:
            f.write(PROGRAM)
        with open(os.path.join(cls.outside, "shifted.yaml"), "w") as f:
            f.write(TESTBENCH)
        cls.site = site

    @classmethod
    def tearDownClass(cls):
        cls.scratch.cleanup()

    def config(self, name):
        return os.path.join(self.clone, "configs", name)

    def test_import_and_run_from_python(self):
        out = check([self.python, "-c",
                     "import mmsim, sys; r = mmsim.run(sys.argv[1]); "
                     "print(mmsim.__file__, r.cycles, r.stages, r.verified)",
                     self.config("dmm_fig4.yaml")], self.outside, outside_environment())
        package, cycles, stages, verified = out.split()
        self.assertEqual(package, os.path.join(self.site, "mmsim", "__init__.py"))
        self.assertEqual((cycles, stages, verified), ("5", "3", "True"))  # Nakano 2012, Fig. 4
        start = time.monotonic()
        for _ in range(3):
            check([self.python, "-c", "import mmsim"], self.outside, outside_environment())
        TIMES["python -c 'import mmsim'"] = (time.monotonic() - start) / 3
        start = time.monotonic()
        for _ in range(3):
            check([self.python, "-c", "pass"], self.outside, outside_environment())
        TIMES["python -c 'pass'"] = (time.monotonic() - start) / 3

    def test_the_environments_command_runs_a_testbench(self):
        out = check([self.mmsim, "run", self.config("contiguous_dmm.yaml")], self.outside,
                    outside_environment())
        self.assertIn("cycles       2063", out)  # n/w + l - 1: Nakano 2012, Table I
        self.assertIn("verified     yes", out)

    def test_the_environments_command_runs_a_python_program_with_its_packages(self):
        activated = outside_environment(
            VIRTUAL_ENV=self.venv,
            PATH=os.path.join(self.venv, "bin") + os.pathsep + os.environ["PATH"])
        for command, env in (([self.mmsim], outside_environment()), (["mmsim"], activated)):
            with self.subTest(command=command[0]):
                stats = json.loads(check([*command, "run", "shifted.yaml", "--stats", "-"],
                                         self.outside, env))
                self.assertEqual(stats["memory_words"], OFFSET + 4)
                self.assertTrue(stats["verified"])
                self.assertEqual(stats["verification"]["elements_checked"], 4)
        # The repository's own Python example, by the environment's command.
        out = check([self.mmsim, "run",
                     os.path.join(self.clone, "examples", "python", "contiguous_access.yaml")],
                    self.outside, outside_environment())
        self.assertIn("cycles       2063", out)  # the built-in twin's


def main():
    result = unittest.main(argv=[sys.argv[0], "-v"], exit=False).result
    for name, seconds in TIMES.items():
        print(f"clean_install: {name}: {seconds:.2f} s", file=sys.stderr)
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    if sys.argv[1:2] in (["-h"], ["--help"]):
        print(__doc__.strip())
        sys.exit(0)
    sys.exit(main())
