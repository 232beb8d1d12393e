"""Which Python mmsim uses (docs/installing-python.md): the command starts the Python it was
built for whatever python3 comes first on PATH, or an active virtual environment of that version
with its own packages, and says in one line which Python it expected, which it found and why
when neither will do; `import mmsim` from another Python version, or without numpy, says so in
one line. Virtual environments are made here (python -m venv --without-pip, a fraction of a
second); another Python version is the one pyenv installs where there is one (~/.pyenv), and a
virtual environment whose pyvenv.cfg names another version everywhere."""

import glob
import json
import os
import shutil
import subprocess
import sys
import unittest

from support import CONFIGS, EXAMPLES, MMSIM, scratch

PACKAGE = os.path.join(os.environ["MMSIM_BUILD_DIR"], "python")
BUILT_FOR = f"{sys.version_info[0]}.{sys.version_info[1]}"  # the tests run under MMSIM_PYTHON

# A program that imports a module only a virtual environment has, and sizes its memory by it.
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
program:
  file: shifted.py
  class: Shifted
"""
OFFSET = 40


def clean_environment(**changes):
    """This process's environment without PYTHONPATH or an active virtual environment, with
    `changes` (None removes)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    for key, value in changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def run(command, env, cwd=None):
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


def make_venv(folder, python=sys.executable, system_site_packages=False):
    """A virtual environment of `python` (without pip: made in a fraction of a second)."""
    options = ["--system-site-packages"] if system_site_packages else []
    subprocess.run([python, "-m", "venv", "--without-pip", *options, folder], check=True,
                   timeout=120)
    found = glob.glob(os.path.join(folder, "lib", "python3.*", "site-packages"))
    return found[0]


def pyenv_python(same_version):
    """A Python of pyenv's other than this one: of this version (pyenv's have no numpy) or of
    another 3.x; None where there is none."""
    for python in sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.*/bin/python3"))):
        version = os.path.basename(os.path.dirname(os.path.dirname(python)))
        if (".".join(version.split(".")[:2]) == BUILT_FOR) == same_version:
            return python
    return None


def one_line_error(test, stderr):
    """The message of an import's or a run's failure: its last line, which must say it all."""
    test.assertNotIn("initialization failed", stderr)
    test.assertNotIn("circular import", stderr)
    return stderr.strip().split("\n")[-1]


class TheCommand(unittest.TestCase):
    def setUp(self):
        self.scratch = scratch()
        self.folder = self.scratch.name
        with open(os.path.join(self.folder, "shifted.py"), "w") as f:
            f.write(PROGRAM)
        self.testbench = os.path.join(self.folder, "shifted.yaml")
        with open(self.testbench, "w") as f:
            f.write(TESTBENCH)

    def tearDown(self):
        self.scratch.cleanup()

    def mmsim(self, env, *args):
        return run([MMSIM, *args], env)

    def environment(self, name, **options):
        """A virtual environment in the scratch folder: (its folder, its site-packages)."""
        folder = os.path.join(self.folder, name)
        return folder, make_venv(folder, **options)

    def activated(self, folder):
        """The environment `source folder/bin/activate` makes."""
        return clean_environment(VIRTUAL_ENV=folder,
                                 PATH=os.path.join(folder, "bin") + os.pathsep + os.environ["PATH"])

    def test_the_python_first_on_path_does_not_matter(self):
        fake = os.path.join(self.folder, "fake-bin")
        os.makedirs(fake)
        for name in ("python3", "python"):
            with open(os.path.join(fake, name), "w") as f:
                f.write("#!/bin/sh\necho 'the python3 on PATH ran' >&2\nexit 3\n")
            os.chmod(os.path.join(fake, name), 0o755)
        firsts = [fake]
        pyenv = pyenv_python(same_version=True)  # the case: it has no numpy
        if pyenv:
            firsts.append(os.path.dirname(pyenv))
        for first in firsts:
            with self.subTest(first=first):
                env = clean_environment(PATH=first + os.pathsep + os.environ["PATH"])
                status, out, err = self.mmsim(
                    env, "run", os.path.join(EXAMPLES, "contiguous_access.yaml"),
                    "--set", "program.params.n=4096")
                self.assertEqual(status, 0, err)
                self.assertIn("verified     yes", out)

    def test_an_active_environment_lends_its_packages(self):
        folder, site = self.environment("with-module", system_site_packages=True)
        with open(os.path.join(site, "venv_only_module.py"), "w") as f:
            f.write(f"OFFSET = {OFFSET}\n")
        status, out, err = self.mmsim(self.activated(folder), "run", self.testbench,
                                      "--stats", "-")
        self.assertEqual(status, 0, err)
        stats = json.loads(out)
        self.assertEqual(stats["memory_words"], OFFSET + 4)
        self.assertTrue(stats["verified"])
        self.assertEqual(stats["verification"]["elements_checked"], 4)
        # Without the environment the program's import fails, at the program's line.
        status, _, err = self.mmsim(clean_environment(), "run", self.testbench)
        self.assertEqual(status, 2, err)
        self.assertIn('shifted.py", line 4', err)
        self.assertIn("No module named 'venv_only_module'", err)

    def test_an_environment_without_numpy_is_named(self):
        environments = [self.environment("bare")[0]]
        pyenv = pyenv_python(same_version=True)
        if pyenv:
            environments.append(self.environment("pyenv-bare", python=pyenv)[0])
        for folder in environments:
            with self.subTest(environment=folder):
                status, out, err = self.mmsim(self.activated(folder), "run", self.testbench)
                self.assertEqual(status, 2, err)
                self.assertEqual(out, "")
                line = one_line_error(self, err)
                self.assertEqual(err.strip(), line)
                self.assertTrue(line.startswith(f"mmsim: {self.testbench}:3:9: program.file: "
                                                "cannot start Python programs in "
                                                f"{folder}/bin/python (Python {BUILT_FOR}."),
                                line)
                self.assertIn(f"of the virtual environment {folder} (VIRTUAL_ENV)", line)
                self.assertIn("mmsim needs numpy, which this Python", line)
                self.assertIn("apt install python3-numpy", line)
                self.assertIn("pip install numpy", line)

    def test_an_environment_of_another_version_is_named(self):
        fake = os.path.join(self.folder, "fake-3.99")
        os.makedirs(os.path.join(fake, "bin"))
        with open(os.path.join(fake, "pyvenv.cfg"), "w") as f:
            f.write("home = /nowhere\ninclude-system-site-packages = false\nversion = 3.99.1\n")
        environments = [(fake, "3.99.1")]
        other = pyenv_python(same_version=False)
        if other:
            real = self.environment("other-version", python=other)[0]
            version = run([other, "-c", "import platform; print(platform.python_version())"],
                          clean_environment())[1].strip()
            environments.append((real, version))
        for folder, version in environments:
            with self.subTest(environment=folder):
                status, _, err = self.mmsim(self.activated(folder), "run", self.testbench)
                self.assertEqual(status, 2, err)
                line = one_line_error(self, err)
                self.assertEqual(err.strip(), line)
                self.assertIn(f"Python programs run in Python {BUILT_FOR}, the version mmsim "
                              f"was built for ({sys.executable})", line)
                self.assertIn(f"but the active one, {folder} (VIRTUAL_ENV), is Python {version}",
                              line)
                self.assertIn(f"-DMMSIM_PYTHON={folder}/bin/python", line)

    def test_virtual_env_naming_no_environment(self):
        env = clean_environment(VIRTUAL_ENV=self.folder)
        status, _, err = self.mmsim(env, "run", self.testbench)
        self.assertEqual(status, 2, err)
        self.assertIn(f"VIRTUAL_ENV names {self.folder}, which has no pyvenv.cfg", err)

    def test_a_built_in_program_never_starts_python(self):
        env = self.activated(os.path.join(self.folder, "nowhere"))
        status, out, err = self.mmsim(env, "run", os.path.join(CONFIGS, "dmm_fig4.yaml"))
        self.assertEqual(status, 0, err)


class TheImport(unittest.TestCase):
    """`import mmsim` by another Python than the one the package was built for."""

    def import_mmsim(self, python, package=PACKAGE):
        status, _, err = run([python, "-c", "import mmsim"],
                             clean_environment(PYTHONPATH=package))
        self.assertEqual(status, 1, err)
        line = one_line_error(self, err)
        self.assertTrue(line.startswith("ImportError: "), line)
        return line

    def test_another_version(self):
        # The check itself, on any machine: a copy of the package's Python files that says it
        # was built for 3.99.
        with scratch() as folder:
            copy = os.path.join(folder, "mmsim")
            shutil.copytree(os.path.join(PACKAGE, "mmsim"), copy,
                            ignore=shutil.ignore_patterns("*.so"))
            with open(os.path.join(copy, "_built_for.py"), "a") as f:
                f.write("version = (3, 99)\nexecutable = '/opt/python3.99/bin/python3'\n")
            line = self.import_mmsim(sys.executable, folder)
        self.assertEqual(line, "ImportError: mmsim was built for Python 3.99 "
                         f"(/opt/python3.99/bin/python3), this is Python {BUILT_FOR} "
                         f"({sys.executable}): rebuild it for this one (cmake "
                         f"-DMMSIM_PYTHON={sys.executable}) or install it into this environment "
                         f"({sys.executable} -m pip install --no-build-isolation "
                         f"{os.environ['MMSIM_SOURCE_DIR']})")
        # The package as built, by another Python where pyenv has one.
        other = pyenv_python(same_version=False)
        if other is None:
            self.skipTest("no other Python version here (~/.pyenv/versions)")
        line = self.import_mmsim(other)
        self.assertIn(f"mmsim was built for Python {BUILT_FOR} ({sys.executable}), this is "
                      "Python 3.", line)
        self.assertIn(f"-DMMSIM_PYTHON={other}", line)

    def test_without_numpy(self):
        with scratch() as folder:
            make_venv(os.path.join(folder, "bare"))
            python = os.path.join(folder, "bare", "bin", "python")
            line = self.import_mmsim(python)
        self.assertTrue(line.startswith(f"ImportError: mmsim needs numpy, which this Python "
                                        f"({python}, {BUILT_FOR}."), line)
        self.assertIn("apt install python3-numpy", line)
        self.assertIn("python -m pip install numpy in the virtual environment", line)
        pyenv = pyenv_python(same_version=True)
        if pyenv is None:
            self.skipTest("no pyenv Python of this version here (~/.pyenv/versions)")
        self.assertIn("mmsim needs numpy", self.import_mmsim(pyenv))


if __name__ == "__main__":
    unittest.main()
