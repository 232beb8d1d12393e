"""Warp programs written in Python: mmsim.Program, its parameters and bounds
(docs/own_programs.md)."""

import ast
import importlib.util
import inspect
import json
import math
import numbers
import os
import sys
import textwrap

import numpy as np

from ._errors import InputError, ProgramError

__all__ = ["Program", "Param", "Bound", "ParamError"]

class _Required:
    """The default of a parameter that has none: the testbench must give it."""

    def __repr__(self):
        return "required"


_REQUIRED = _Required()

# A parameter's type: its name in mmsim's catalogue (ParamType) and what its default must be.
_PARAM_TYPES = {int: "integer", bool: "boolean", str: "string", list: "integer_list"}

BOUND_KINDS = ("lower", "upper", "exact", "order")
BOUND_MEASURES = ("cycles", "stages", "syncthreads", "grid_syncs", "global_stages",
                  "shared_stages")

# machine.threads' range, which a program's own thread count must keep as well.
MAX_THREADS = 2**40


def _caller():
    """(file, line) of the code that called the caller: where a Param or a Bound is made."""
    frame = sys._getframe(2)
    return frame.f_code.co_filename, frame.f_lineno


class Param:
    """A parameter of a program: its type (int, bool, str or list of integers), its default
    (none: the testbench must give it) and what it means."""

    def __init__(self, type, default=_REQUIRED, doc=""):
        self.type = type
        self.default = default
        self.doc = doc
        self._where = _caller()

    @property
    def required(self):
        """Whether the testbench must give it (it has no default)."""
        return self.default is _REQUIRED

    @property
    def yaml_default(self):
        """The default as YAML text (JSON is YAML)."""
        return json.dumps(self.default)

    def __repr__(self):
        name = getattr(self.type, "__name__", repr(self.type))
        default = "required" if self.required else f"default={self.default!r}"
        return f"Param({name}, {default}, doc={self.doc!r})"


class ParamError(ValueError):
    """A parameter that does not fit (raise it in configure): the error is shown at the
    parameter in the testbench, exit status 2."""

    def __init__(self, param, message):
        super().__init__(f"{param}: {message}")
        self.param = param
        self.message = message


def _bound_value(value):
    """A bound's value as a finite float, or None."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    value = float(value)
    return value if math.isfinite(value) else None


class Bound:
    """A figure of the papers for this run, shown in the report beside what was measured.
    kind: lower, upper, exact or order; measure: cycles, stages, syncthreads, grid_syncs,
    global_stages or shared_stages; value: a finite number."""

    def __init__(self, key, label, value, kind="lower", measure="cycles", formula="", source=""):
        if _bound_value(value) is None:
            raise TypeError(f"mmsim.Bound {key!r}: value {value!r}: expected a finite number")
        if kind not in BOUND_KINDS:
            raise ValueError(f"mmsim.Bound {key!r}: kind {kind!r}: expected "
                             + ", ".join(BOUND_KINDS))
        if measure not in BOUND_MEASURES:
            raise ValueError(f"mmsim.Bound {key!r}: measure {measure!r}: expected "
                             + ", ".join(BOUND_MEASURES))
        self.key, self.label, self.value = key, label, float(value)
        self.kind, self.measure, self.formula, self.source = kind, measure, formula, source
        self._where = _caller()


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
        warp.syncthreads(), warp.grid_sync(), or many reads or writes at once: warp.reads(...),
        warp.writes(...)."""
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


# ---- where the user's code says something: messages at its file and line ----------------------

class Mistake(ProgramError):
    """What a program's method returned cannot be used: the message names the method's file
    and line (no traceback: nothing raised)."""


def _class_source(klass):
    """(the class's source lines, its first line), or None."""
    try:
        return inspect.getsourcelines(klass)
    except (OSError, TypeError):
        return None


def _class_body(klass):
    """The class statement's ast node and its first line, or (None, 0)."""
    source = _class_source(klass)
    if source is None:
        return None, 0
    lines, first = source
    try:
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except SyntaxError:
        return None, 0
    node = next((n for n in tree.body if isinstance(n, ast.ClassDef)), None)
    return node, first


def _owner(klass, name):
    """The class of klass's method resolution order that defines `name`."""
    return next((k for k in klass.__mro__ if name in vars(k)), klass)


def class_site(klass):
    """(file, line) of a class statement."""
    source = _class_source(klass)
    file = inspect.getsourcefile(klass) if source else None
    return file or getattr(sys.modules.get(klass.__module__), "__file__", "") or "", \
        source[1] if source else 0


def attribute_site(klass, name, key=None):
    """(file, line) where the class (or a base) gives `name`: a method's or property's `def`,
    an assignment's line (`key`: the line of that key of a dict assigned), else the class's."""
    owner = _owner(klass, name)
    value = vars(owner).get(name)
    code = getattr(getattr(value, "fget", value), "__code__", None)
    if code is not None:
        return code.co_filename, code.co_firstlineno
    file, line = class_site(owner)
    node, first = _class_body(owner)
    if node is None:
        return file, line
    for statement in node.body:
        targets = statement.targets if isinstance(statement, ast.Assign) else \
            [statement.target] if isinstance(statement, ast.AnnAssign) else []
        if not any(isinstance(t, ast.Name) and t.id == name for t in targets):
            continue
        at = statement.lineno
        if key is not None and isinstance(statement.value, ast.Dict):
            for k in statement.value.keys:
                if isinstance(k, ast.Constant) and k.value == key:
                    at = k.lineno
        return file, first + at - 1
    return file, line


def method_site(instance, method):
    """(file, line) of the `def` of an instance's method."""
    return attribute_site(type(instance), method)


def _at(site):
    return f"{site[0]}:{site[1]}" if site[1] else site[0]


def _mistake(instance, method, message):
    return Mistake(f"{_at(method_site(instance, method))}: {type(instance).__name__}."
                   f"{method}() {message}")


# ---- what the simulator asks of a program, checked --------------------------------------------

def declared_params(cls):
    """The class's params as (name, type, doc, default as YAML or None): an InputError at the
    user's line for any that cannot be one."""
    params = getattr(cls, "params", {})

    def refuse(site, message):
        raise InputError(site[0], site[1], 0, f"{cls.__name__}: {message}")

    if not isinstance(params, dict):
        refuse(attribute_site(cls, "params"),
               f"params = {params!r}: expected a dict of mmsim.Param "
               "({'n': mmsim.Param(int, default=64)})")
    out = []
    for name, param in params.items():
        if not isinstance(name, str) or not name.isidentifier():
            refuse(attribute_site(cls, "params"),
                   f"params: {name!r}: a parameter's name is an identifier")
        if not isinstance(param, Param):
            refuse(attribute_site(cls, "params", name),
                   f"params[{name!r}] = {param!r}: expected an mmsim.Param "
                   "(mmsim.Param(int, default=64))")
        where = getattr(param, "_where", attribute_site(cls, "params", name))
        kind = _PARAM_TYPES.get(param.type) if isinstance(param.type, type) else None
        if kind is None:
            refuse(where, f"parameter {name}: type {param.type!r}: expected int, bool, str or "
                          "list (of integers)")
        default = None
        if not param.required:
            value = param.default
            fits = {"integer": isinstance(value, int) and not isinstance(value, bool)
                    and -2**63 <= value < 2**63,
                    "boolean": isinstance(value, bool),
                    "string": isinstance(value, str),
                    "integer_list": isinstance(value, list) and all(
                        isinstance(v, int) and not isinstance(v, bool) and -2**63 <= v < 2**63
                        for v in value)}[kind]
            if not fits:
                refuse(where, f"parameter {name}: default {value!r}: expected "
                              f"{_DEFAULT_WORDS[kind]}")
            default = json.dumps(value)
        shadow = inspect.getattr_static(cls, name, None)
        if isinstance(shadow, property) and shadow.fset is None:
            refuse(attribute_site(cls, name),
                   f"parameter {name}: {cls.__name__}.{name} is a property without a setter, "
                   "so the parameter's value cannot be set (rename one of them)")
        out.append((name, kind, str(param.doc), default))
    return out


_DEFAULT_WORDS = {"integer": "an int (64-bit)", "boolean": "True or False", "string": "a str",
                  "integer_list": "a list of ints (64-bit)"}


def words(instance, method, value, limit, what):
    """A number of words `method` returned, checked: at most `limit` (`what` names it)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
        raise _mistake(instance, method, f"returned {value!r}: expected a number of words "
                                         "(an integer >= 0)")
    if value > limit:
        raise _mistake(instance, method, f"returned {value}: more than {what}")
    return int(value)


def threads(instance, value):
    """default_threads' answer: 0 for None, else a thread count machine.threads would take."""
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or \
            not 1 <= value <= MAX_THREADS:
        raise _mistake(instance, "default_threads",
                       f"returned {value!r}: expected a thread count from 1 to 2^40 (as "
                       "machine.threads takes), or None")
    return int(value)


def bounds(instance, returned):
    """bounds()' answer as (key, label, formula, value, kind, measure, source) tuples."""
    if isinstance(returned, (str, bytes)) or not isinstance(returned, (list, tuple)):
        raise _mistake(instance, "bounds",
                       f"returned {returned!r}: expected a list of mmsim.Bound")
    out = []
    for b in returned:
        if not isinstance(b, Bound):
            raise _mistake(instance, "bounds", f"returned {b!r} in its list: expected "
                                               "mmsim.Bound objects")
        value = _bound_value(b.value)
        where = _at(getattr(b, "_where", method_site(instance, "bounds")))
        if value is None:
            raise Mistake(f"{where}: mmsim.Bound {b.key!r}: value {b.value!r}: expected a "
                          "finite number")
        if b.kind not in BOUND_KINDS or b.measure not in BOUND_MEASURES:
            raise Mistake(f"{where}: mmsim.Bound {b.key!r}: kind {b.kind!r}, measure "
                          f"{b.measure!r}: expected a kind of {', '.join(BOUND_KINDS)} and a "
                          f"measure of {', '.join(BOUND_MEASURES)}")
        out.append((str(b.key), str(b.label), str(b.formula), value, b.kind, b.measure,
                    str(b.source)))
    return out


# ---- a program must not end the process ------------------------------------------------------

class ProcessExit(BaseException):
    """os._exit or os.abort called by a program while it runs: raised in its place, so that
    the run ends as a failed program does (its unfinished outputs removed, exit status 1)
    rather than taking the process, and the user's Python session, down with it."""


_running = {}  # process id: programs of this process that are running (made, not yet ended)


def program_started():
    _running[os.getpid()] = _running.get(os.getpid(), 0) + 1


def program_ended():
    _running[os.getpid()] -= 1


def _refused(real, name):
    def refuse(*args):
        if _running.get(os.getpid()):
            shown = ", ".join(repr(a) for a in args)
            raise ProcessExit(f"os.{name}({shown}): a program must not end the process; "
                              "return from run(warp) to end its warp's program")
        real(*args)
    refuse.__name__ = name
    refuse.__doc__ = real.__doc__
    refuse._mmsim_real = real
    return refuse


for _name in ("_exit", "abort"):
    if not hasattr(getattr(os, _name), "_mmsim_real"):
        setattr(os, _name, _refused(getattr(os, _name), _name))


_modules = {}


def _module(path):
    """The Python file `path` as a module, imported once per version of the file."""
    key = (path, os.stat(path).st_mtime_ns)
    module = _modules.get(key)
    if module is None:
        spec = importlib.util.spec_from_file_location(f"mmsim_user_{len(_modules)}", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
        _modules[key] = module
    return module


def classes(path, base):
    """The subclasses of `base` (mmsim.Program, mmsim.AddressMap) that the Python file `path`
    holds, by name, in the file's order."""
    return {name: value for name, value in vars(_module(path)).items()
            if isinstance(value, type) and issubclass(value, base) and value is not base}


def load_class(path, name, base=Program):
    """The subclass `name` of `base` (mmsim.Program, mmsim.AddressMap) in the Python file
    `path`. LookupError names the ones it has."""
    cls = getattr(_module(path), name, None)
    if isinstance(cls, type) and issubclass(cls, base):
        return cls
    from . import _core
    hint = _core.suggestion(name, sorted(classes(path, base)))
    if cls is not None:
        raise LookupError(f"{os.path.basename(path)}: '{name}' is not an mmsim.{base.__name__} "
                          f"subclass{hint}")
    raise LookupError(f"{os.path.basename(path)} has no class '{name}'{hint}")
