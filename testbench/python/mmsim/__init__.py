"""mmsim: the memory machine models of GPUs, cycle-accurate, from Python.

    import mmsim
    result = mmsim.run("configs/dmm_fig4.yaml")
    print(result.cycles, result.stages, result.verified)

run() runs a testbench (a file, a dict of the same structure or YAML text) and sweep() a sweep
file, with the mmsim command's own code; models(), programs(), policies() and address_maps()
list what the simulator offers; Program, Param and Bound write warp programs in Python, whose
run(warp) gets a Warp (its words: WarpWords) and whose initialize and verify get the Memory;
AddressMap writes an address map (machine.address_map), Policy a dispatch policy
(machine.dispatch). Invalid input raises InputError, a program that failed ProgramError, a run
the hardware refused SimulationError; the interpreter never exits. docs/python.md is this
reference, docs/own_programs.md the guide to programs of one's own, docs/own_maps.md to address
maps and docs/own_policies.md to dispatch policies of one's own.
"""

import json as _json
import os as _os
import sys as _sys
import tempfile as _tempfile

from . import _built_for


def _check_python():
    """One line saying why this Python cannot import mmsim: another version than the one it was
    built for (whose native module it would not find), or no numpy."""
    built, this = _built_for.version, _sys.version_info[:2]
    if this != built:
        raise ImportError(
            f"mmsim was built for Python {built[0]}.{built[1]} ({_built_for.executable}), this is "
            f"Python {this[0]}.{this[1]} ({_sys.executable}): rebuild it for this one (cmake "
            f"-DMMSIM_PYTHON={_sys.executable}) or install it into this environment "
            f"({_sys.executable} -m pip install --no-build-isolation {_built_for.source})")
    try:
        import numpy  # noqa: F401 (the native module uses numpy's C API)
    except ImportError as e:
        raise ImportError(
            f"mmsim needs numpy, which this Python ({_sys.executable}, "
            f"{_sys.version.split()[0]}) cannot import ({e}): apt install python3-numpy for "
            "Debian's Python (and a virtual environment made with --system-site-packages), or "
            "python -m pip install numpy in the virtual environment", name="numpy") from None


_check_python()

from . import _core  # noqa: E402 (once the Python is known to do)
from ._address_map import AddressMap  # noqa: E402
from ._errors import Error, InputError, ProgramError, SimulationError  # noqa: E402
from ._policy import Policy  # noqa: E402
from ._program import Bound, Param, ParamError, Program, ProcessExit  # noqa: E402
from ._warp import WarpWords  # noqa: E402

# What a program's methods get, made by mmsim: the warp of run(warp), the memory of initialize
# and verify.
Warp = _core.Warp
Memory = _core.Memory

__all__ = ["run", "sweep", "models", "programs", "policies", "address_maps", "Result",
           "Program", "Param", "ParamError", "Bound", "AddressMap", "Policy", "Warp", "WarpWords",
           "Memory",
           "Error", "InputError", "ProgramError", "SimulationError", "ProcessExit"]


class Result:
    """A run's outcome, as mmsim run reports it. Its figures are attributes (the statistics'
    keys of the same names, docs/statistics.md); stats holds them all."""

    def __init__(self, raw):
        self.stats = _json.loads(raw["stats"])
        """The statistics JSON as a dict (docs/statistics.md)."""
        self.report = raw["report"]
        """The report, as mmsim run prints it."""
        self.notes = raw["notes"]
        """What loading left out (an override naming another program), as mmsim run notes."""
        self.verified = raw["verified"]
        """True or False: the program's checks, expect and the race check; None: nothing to
        verify."""

    @property
    def name(self):
        """The testbench's name."""
        return self.stats["name"]

    @property
    def cycles(self):
        """Time units the run took: 1 + the time of the last completion (0: nothing sent)."""
        return self.stats["cycles"]

    @property
    def stages(self):
        """Pipeline stages all dispatches occupied: the total congestion."""
        return self.stats["stages"]

    @property
    def dispatches(self):
        """Memory instructions dispatched (those with an active lane)."""
        return self.stats["dispatches"]

    @property
    def requests(self):
        """Requests sent, after those to one address in a dispatch were merged."""
        return self.stats["requests"]

    @property
    def syncthreads(self):
        """syncthreads steps (of the block that took the most)."""
        return self.stats["syncthreads"]

    @property
    def grid_syncs(self):
        """grid_sync steps."""
        return self.stats["grid_syncs"]

    @property
    def memories(self):
        """Each memory's own figures by its name ("memory"; on the hmm "global" and "SM 0
        shared", ...): cycles, dispatches, stages, requests, max_stages, utilization, width,
        latency, words, bank_requests, ..."""
        return {m["name"]: m for m in self.stats["memories"]}

    @property
    def bounds(self):
        """The papers' figures for this run by key: value, kind, measure, label, formula."""
        return self.stats["bounds"]

    def __repr__(self):
        return f"<mmsim.Result {self.name}: {self.cycles} cycles, verified={self.verified}>"


def _assignments(set):
    """--set assignments from a dict {"machine.latency": 8}, a list ["machine.latency=8"] or
    one string "machine.latency=8"."""
    if set is None:
        return []
    if isinstance(set, str):
        return [set]
    if isinstance(set, dict):
        return [f"{key}={_json.dumps(value)}" for key, value in set.items()]
    return list(set)


def _plain(value):
    """A value of a testbench dict as JSON takes it (numpy's numbers, paths)."""
    if hasattr(value, "item") and callable(value.item):
        return value.item()
    if isinstance(value, _os.PathLike):
        return _os.fspath(value)
    raise TypeError(f"{value!r} is not a testbench value (a number, a string, a bool, None, a "
                    "list or a dict)")


def _dict_text(testbench):
    """YAML text (JSON is YAML) of a testbench dict with one entry per line, and the key path
    of each line, by which an error at a line names the key."""
    lines, paths = [], []

    def emit(text, path):
        lines.append(text)
        paths.append(path)

    def entry(value, path, prefix, suffix):
        if isinstance(value, dict) and value:
            emit(prefix + "{", path)
            for i, (key, item) in enumerate(value.items()):
                key = str(key)
                entry(item, f"{path}.{key}" if path else key, _json.dumps(key) + ": ",
                      "," if i + 1 < len(value) else "")
            emit("}" + suffix, path)
        elif isinstance(value, (list, tuple)) and value:
            emit(prefix + "[", path)
            for i, item in enumerate(value):
                entry(item, f"{path}[{i}]", "", "," if i + 1 < len(value) else "")
            emit("]" + suffix, path)
        else:
            try:
                emit(prefix + _json.dumps(value, default=_plain), path)
            except (TypeError, ValueError) as e:
                raise InputError("<dict>", 0, 0, f"{path}: {e}", key=path or None) from None
            lines[-1] += suffix

    entry(testbench, "", "", "")
    return "\n".join(lines) + "\n", paths


def _is_yaml_text(testbench):
    return isinstance(testbench, str) and ("\n" in testbench or
                                           testbench.lstrip().startswith("{"))


def run(testbench, set=None, stats="", vcd="", out_dir=""):
    """Runs a testbench as `mmsim run` does and returns its Result.

    testbench: a file (a path), a dict of the YAML's structure, or YAML text (a str holding a
    line break, or starting with "{"). A dict or text is read as it is: no file is written, its
    relative files (program.file, program.library, an address map's file or library) are taken
    from the current folder, and its name is a label. set: overrides, {"machine.latency": 8},
    ["machine.latency=8"] or "machine.latency=8". stats, vcd: files to write (as --stats,
    --vcd); out_dir: a folder for testbench.yaml, stats.json (and trace.vcd), as --out-dir.

    Invalid input raises InputError: for a dict its file is "<dict>" and its key the key path
    ("<dict>:machine.latency: expected an integer from 1 to 16777216, got '0'"), for an
    override its assignment. A program that failed raises ProgramError, a run the hardware
    refused SimulationError; Ctrl-C raises KeyboardInterrupt once the run has removed what it
    had begun."""
    paths = None
    if isinstance(testbench, dict):
        name = "<dict>"
        text, paths = _dict_text(testbench)
    elif _is_yaml_text(testbench):
        name, text = "<yaml>", testbench
    else:
        name, text = _os.fspath(testbench), None
    try:
        raw = _core.run(name, text, _assignments(set), _os.fspath(stats), _os.fspath(vcd),
                        _os.fspath(out_dir))
    except InputError as e:
        if paths is None or e.file != "<dict>" or not 0 < e.line <= len(paths):
            raise
        raise InputError("<dict>", 0, 0, e.message, key=paths[e.line - 1] or None) from None
    return Result(raw)


def sweep(sweep_file, set=None, jobs=0, results=None, verbose=False):
    """Runs a sweep file as `mmsim sweep` does and returns its records (docs/sweeps.md): a
    pandas DataFrame when pandas is installed, else a list of dicts, one per run (a run that
    failed has its "error").

    set: overrides for every run, as run() takes them. jobs: worker processes (0: one per
    core). results: keep the results file there (default: a temporary one, removed).
    verbose: print the progress and the table as the command does (default: quiet).
    Invalid input (the sweep file, its testbench, an override) raises InputError as run() does;
    Ctrl-C raises KeyboardInterrupt."""
    with _tempfile.TemporaryDirectory(prefix="mmsim-sweep-") as folder:
        path = _os.fspath(results) if results else _os.path.join(folder, "results.jsonl")
        status = _core.sweep(_os.fspath(sweep_file), _assignments(set), str(jobs), path,
                             verbose)
        if status >= 128:
            raise KeyboardInterrupt(f"the sweep was interrupted: the runs done are in {path}")
        with open(path) as lines:
            records = [_json.loads(line) for line in lines if line.strip()]
    try:
        import pandas
    except ImportError:
        return records
    return pandas.DataFrame.from_records(records)


def models():
    """The machine models (machine.model), as `mmsim list models`: dicts of name, doc,
    reference and hierarchical."""
    return _core.models()


def programs():
    """The built-in programs (program.name), as `mmsim list programs`: dicts of name, doc,
    source and params (each a dict of name, type, default and doc)."""
    return _core.programs()


def _own(listing, file, library):
    """What `listing` (a _core function) finds in a Python file or a C++ plugin: dicts of name,
    doc, source and params (each a dict of name, type, default and doc)."""
    kind, path = ("python", file) if file is not None else ("library", library)
    return [{"name": name, "doc": doc, "source": source,
             "params": [{"name": p, "type": t, "default": d, "doc": h} for p, t, d, h in params]}
            for name, doc, source, params in listing(kind, _os.fspath(path))]


def policies(file=None, library=None):
    """The dispatch policies (machine.dispatch): dicts of name and doc; with file (a Python
    file) or library (a C++ plugin), the policies of one's own it holds: dicts of name, doc,
    source and params (each a dict of name, type, default and doc)."""
    if file is None and library is None:
        return _core.policies()
    return _own(_core.own_policies, file, library)


def address_maps(file=None, library=None):
    """The address maps (machine.address_map): dicts of name and doc; with file (a Python file)
    or library (a C++ plugin), the maps of one's own it holds: dicts of name, doc, source and
    params (each a dict of name, type, default and doc)."""
    if file is None and library is None:
        return _core.address_maps()
    return _own(_core.own_address_maps, file, library)
