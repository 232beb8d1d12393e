"""mmsim: the memory machine models of GPUs, cycle-accurate, from Python.

    import mmsim
    result = mmsim.run("configs/dmm_fig4.yaml")
    print(result.cycles, result.stats["stages"])

Run testbenches (a file, or a dict of the same structure) and sweeps as the mmsim command does,
list what the simulator offers, and write warp programs in Python (mmsim.Program):
docs/own_programs.md.
"""

import json as _json
import os as _os
import tempfile as _tempfile

from . import _core
from ._errors import Error, InputError, ProgramError, SimulationError
from ._program import Bound, Param, ParamError, Program

__all__ = ["run", "sweep", "models", "programs", "policies", "address_maps", "Result",
           "Program", "Param", "ParamError", "Bound", "Error", "InputError", "ProgramError",
           "SimulationError"]


class Result:
    """A run's outcome: cycles, verified (None: nothing to verify), stats (the statistics JSON
    as a dict, docs/statistics.md) and report (the text mmsim run prints)."""

    def __init__(self, raw):
        self.cycles = raw["cycles"]
        self.verified = raw["verified"]
        self.stats = _json.loads(raw["stats"])
        self.report = raw["report"]
        self.notes = raw["notes"]

    def __repr__(self):
        return f"<mmsim.Result {self.stats['name']}: {self.cycles} cycles, verified={self.verified}>"


def _assignments(set):
    """--set assignments from a dict {"machine.latency": 8} or a list ["machine.latency=8"]."""
    if set is None:
        return []
    if isinstance(set, dict):
        return [f"{key}={_json.dumps(value)}" for key, value in set.items()]
    return list(set)


def _testbench_file(testbench, folder):
    """A testbench file for `testbench`: its path, or a dict written as YAML (JSON is YAML)
    whose relative files (program.file, program.library) stay relative to the current folder."""
    if not isinstance(testbench, dict):
        return _os.fspath(testbench)
    data = _json.loads(_json.dumps(testbench))
    program = data.get("program")
    if isinstance(program, dict):
        for key in ("file", "library"):
            if isinstance(program.get(key), str):
                program[key] = _os.path.abspath(program[key])
    path = _os.path.join(folder, f"{data.get('name', 'testbench')}.yaml")
    with open(path, "w") as out:
        _json.dump(data, out, indent=1)
    return path


def run(testbench, set=None, stats="", vcd="", out_dir=""):
    """Runs a testbench (a path, or a dict of the YAML's structure) as `mmsim run` does.

    set: overrides ({"machine.latency": 8} or ["machine.latency=8"]); stats, vcd: files to
    write; out_dir: a folder for testbench.yaml, stats.json (and trace.vcd). Returns a Result;
    invalid input raises InputError (file, line, column, message), a failed program
    ProgramError."""
    with _tempfile.TemporaryDirectory(prefix="mmsim-") as folder:
        file = _testbench_file(testbench, folder)
        return Result(_core.run(file, _assignments(set), _os.fspath(stats), _os.fspath(vcd),
                                _os.fspath(out_dir)))


def sweep(sweep_file, set=None, jobs=0, results=None):
    """Runs a sweep file as `mmsim sweep` does (jobs: worker processes, 0: one per core) and
    returns its records (docs/sweeps.md): a pandas DataFrame when pandas is installed, else a
    list of dicts. results: keep the results file there (default: a temporary one)."""
    with _tempfile.TemporaryDirectory(prefix="mmsim-sweep-") as folder:
        path = _os.fspath(results) if results else _os.path.join(folder, "results.jsonl")
        status = _core.sweep(_os.fspath(sweep_file), _assignments(set), str(jobs), path)
        if status == 2 or not _os.path.exists(path):
            raise InputError(_os.fspath(sweep_file), 0, 0, "the sweep did not run (see above)")
        with open(path) as lines:
            records = [_json.loads(line) for line in lines if line.strip()]
    try:
        import pandas
    except ImportError:
        return records
    return pandas.DataFrame.from_records(records)


def models():
    """The machine models (machine.model): name, doc, reference, hierarchical."""
    return _core.models()


def programs():
    """The built-in programs (program.name): name, doc, source, params (name, type, default,
    doc)."""
    return _core.programs()


def policies():
    """The dispatch policies (machine.dispatch): name, doc."""
    return _core.policies()


def address_maps():
    """The address maps (machine.address_map): name, doc."""
    return _core.address_maps()
