"""The build behind `pip install --no-build-isolation .` (pyproject.toml,
docs/installing-python.md): CMake builds the mmsim command (and with it libmmsim, the native
module and the library that starts Python in the command) for the Python running pip, in
build/pip/<python>/ (kept: the next install compiles only what changed), and installs it in the
wheel's layout (MMSIM_INSTALL_LAYOUT=wheel): the package mmsim and the command in the
environment's bin/. Offline: setuptools, wheel and numpy come from the environment (Debian's
python3-setuptools, python3-wheel, python3-numpy)."""

import os
import re
import shutil
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# Relative to the source folder, where pip runs this file (setuptools takes no absolute path
# for data files).
WORK = os.path.join("build", "pip", sys.implementation.cache_tag)
CMAKE_BUILD = os.path.join(WORK, "cmake")
STAGE = os.path.join(WORK, "stage")


def version():
    """The version of CMakeLists.txt's project()."""
    with open("CMakeLists.txt", encoding="utf-8") as f:
        return re.search(r"project\(mmsim VERSION ([0-9.]+)", f.read()).group(1)


class CMakeBuild(build_ext):
    """Builds the mmsim target with CMake and puts what its wheel layout installs where the
    wheel is made: the package folder (its Python files among them) and bin/mmsim."""

    def build_extension(self, ext):
        self.spawn(["cmake", "-S", ".", "-B", CMAKE_BUILD, "-DCMAKE_BUILD_TYPE=Release",
                    f"-DMMSIM_PYTHON={sys.executable}", "-DMMSIM_INSTALL_LAYOUT=wheel"])
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        self.spawn(["cmake", "--build", CMAKE_BUILD, "--target", "mmsim", "--parallel", jobs])
        shutil.rmtree(STAGE, ignore_errors=True)
        self.spawn(["cmake", "--install", CMAKE_BUILD, "--prefix", STAGE])
        package = os.path.dirname(self.get_ext_fullpath(ext.name))
        shutil.copytree(os.path.join(STAGE, "mmsim"), package, dirs_exist_ok=True)


# setuptools' own folders (egg-info, the wheel's staging) beside the CMake build, not in the
# source tree.
os.makedirs(os.path.join("build", "pip"), exist_ok=True)
setup(
    version=version(),
    packages=["mmsim"],
    package_dir={"mmsim": "testbench/python/mmsim"},
    ext_modules=[Extension("mmsim._core", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    data_files=[("bin", [os.path.join(STAGE, "bin", "mmsim")])],
    options={"build": {"build_base": os.path.join("build", "pip")},
             "egg_info": {"egg_base": os.path.join("build", "pip")}},
)
