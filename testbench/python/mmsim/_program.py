"""Warp programs written in Python: mmsim.Program, its parameters and bounds (docs/own_programs.md)."""

import importlib.util
import json
import os
import sys

import numpy as np

__all__ = ["Program", "Param", "Bound", "ParamError"]

_REQUIRED = object()


class Param:
    """A parameter of a program: its type (int, bool, str or list of integers), its default
    (none: the testbench must give it) and what it means."""

    def __init__(self, type, default=_REQUIRED, doc=""):
        self.type = type
        self.default = default
        self.doc = doc

    @property
    def required(self):
        return self.default is _REQUIRED

    @property
    def yaml_default(self):
        """The default as YAML text (JSON is YAML)."""
        return json.dumps(self.default)

    def __repr__(self):
        default = "required" if self.required else f"default={self.default!r}"
        return f"Param({self.type.__name__}, {default}, doc={self.doc!r})"


class ParamError(ValueError):
    """A parameter that does not fit (raise it in configure): the error is shown at the
    parameter in the testbench, exit status 2."""

    def __init__(self, param, message):
        super().__init__(f"{param}: {message}")
        self.param = param
        self.message = message


class Bound:
    """A figure of the papers for this run, shown in the report beside what was measured.
    kind: lower, upper, exact or order; measure: cycles, stages, syncthreads, grid_syncs,
    global_stages or shared_stages."""

    def __init__(self, key, label, value, kind="lower", measure="cycles", formula="", source=""):
        self.key, self.label, self.value = key, label, float(value)
        self.kind, self.measure, self.formula, self.source = kind, measure, formula, source


class Program:
    """A warp program. Subclasses declare `params`, size their memory, lay out and check their
    data, and give run(warp): a generator per warp that yields the warp's instructions."""

    params = {}

    def default_threads(self, machine):
        """Threads when the testbench gives none (None: it must)."""
        return None

    def configure(self, machine):
        """Called once the machine is known (machine.threads, machine.width, ...)."""

    def memory_words(self, machine=None):
        """Words of global memory the program needs."""
        raise NotImplementedError(f"{type(self).__name__} must define memory_words")

    def shared_words(self, machine=None):
        """Words of shared memory per streaming multiprocessor (the hmm)."""
        return 0

    def local_words(self, machine=None):
        """Words of local memory per PE (warp.local)."""
        return 0

    def initialize(self, memory):
        """Writes the initial data: memory[a] = value, memory[a:b] = array."""

    def verify(self, memory):
        """Checks the result in memory (self.check, or assert)."""

    def bounds(self, machine, result):
        """The papers' figures (a list of mmsim.Bound); result: cycles, stages, ... measured."""
        return []

    def run(self, warp):
        """The program of one warp: a generator yielding warp.read(...), warp.write(...),
        warp.syncthreads(), warp.grid_sync()."""
        raise NotImplementedError(f"{type(self).__name__} must define run(warp)")
        yield  # a generator

    def check(self, got, expected, what=""):
        """The program's own verification (in run or verify): got == expected, one element,
        or numpy arrays element by element (each counted); `what` names it in the report."""
        if not isinstance(got, np.ndarray) and not isinstance(expected, np.ndarray):
            self._verification.check(got, expected, what)
            return
        got, expected = np.broadcast_arrays(np.asarray(got), np.asarray(expected))
        wrong = np.flatnonzero(got != expected)
        first = ""
        if len(wrong):
            at = np.unravel_index(wrong[0], got.shape)
            index = ", ".join(str(int(i)) for i in at)
            first = f"{what or 'check'}[{index}]: got {got[at]}, expected {expected[at]}"
        self._verification.record(got.size - len(wrong), len(wrong), first)


_modules = {}


def load_class(path, name):
    """The mmsim.Program subclass `name` of the Python file `path` (imported once per version
    of the file). LookupError names the classes it has."""
    key = (path, os.stat(path).st_mtime_ns)
    module = _modules.get(key)
    if module is None:
        spec = importlib.util.spec_from_file_location(f"mmsim_user_{len(_modules)}", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        _modules[key] = module
    cls = getattr(module, name, None)
    if isinstance(cls, type) and issubclass(cls, Program):
        return cls
    programs = sorted(n for n, v in vars(module).items()
                      if isinstance(v, type) and issubclass(v, Program) and v is not Program)
    from . import _core
    hint = _core.suggestion(name, programs)
    if cls is not None:
        raise LookupError(f"{os.path.basename(path)}: '{name}' is not an mmsim.Program subclass"
                          f"{hint}")
    raise LookupError(f"{os.path.basename(path)} has no class '{name}'{hint}")
