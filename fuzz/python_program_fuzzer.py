#!/usr/bin/python3
"""Fuzzes Python warp programs (docs/testing.md, "Fuzzing"): random mmsim.Program classes drawn
from a grammar of the API's methods and of what they return, each run by `mmsim run` (with a
statistics file and a waveform) or by mmsim.run() in a child Python.

  fuzz/python_program_fuzzer.py --mmsim build/mmsim --python-path build/python \\
      [--cases N] [--seconds S] [--seed SEED] [--findings DIR]

libFuzzer does not fit a program that is Python source: the cases are drawn by Python's random
from SEED (case i from SEED and i, so that any case can be made again alone: --case I). The
outcome must be the promise of docs/own_programs.md: exit status 0, 1 or 2 (the API: a result,
or an mmsim.Error, with the interpreter alive), never a signal or "terminate called"; on an
error, one "mmsim:" line and no file left beside the inputs (no .partial, no half output); on
success, complete statistics; never a hang (30 s a case). A case that breaks it is a finding:
its files and log are kept in DIR/case-I (default fuzz/findings/python_program), and the exit
status is 1. Prints the cases run, the time and the findings.
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

# What a method may return: fitting values, the limits' edges and what is not a number.
SIZES = ["0", "1", "8", "64", "2**20", "2**20 + 1", "2**32", "2**32 + 1", "2**40", "2**62",
         "2**63", "2**64", "-1", "None", "1.5", "float('nan')", "'64'", "True", "[64]",
         "np.int64(64)", "np.uint64(2**63)", "object()"]
THREADS = ["None", "8", "0", "-8", "12", "2**40", "2**40 + 8", "2**62", "'8'", "8.0"]
BOUND_VALUES = ["1", "0", "-1", "2**70", "1e308", "float('inf')", "float('nan')", "'abc'",
                "None", "np.float64(3)", "result['cycles']"]
BOUND_KINDS = ["'lower'", "'upper'", "'exact'", "'order'", "'lowr'", "None", "3"]
BOUND_MEASURES = ["'cycles'", "'stages'", "'grid_syncs'", "'shared_stages'", "'cycle'", "None"]
PARAM_TYPES = ["int", "bool", "str", "list", "float", "None", "dict"]
PARAM_DEFAULTS = ["3", "True", "'abc'", "[1, 2]", "[1, 'x']", "2**63", "None", "object()",
                  "1.5", "-2**63"]
# Lanes of a 4-lane warp: fitting ones, and every way they may be wrong.
ADDRESSES = ["[4 * warp.index + lane for lane in range(4)]", "[0, 1, 2, 3]",
             "[0, None, 2, None]", "[None] * 4", "np.arange(4) + 4 * warp.index",
             "np.arange(4, dtype=np.uint8)", "np.array([2**63 + 1, 0, 1, 2], dtype=np.uint64)",
             "np.array([True, False, True, False])", "np.zeros((2, 2), dtype=np.int64)",
             "[0, 1]", "[0, 1, 2, 3, 4]", "[0, 1, 2, 2**64]", "[-1, 0, 1, 2]", "[0.5, 1, 2, 3]",
             "[True, 1, 2, 3]", "'0123'", "None", "np.arange(4.0)", "[0, 1, 2, 10**6]",
             "np.arange(8)[::2]", "np.array([3, 2, 1, 0], dtype='>i8')", "range(4)"]
VALUES = ["None", "[5, 6, 7, 8]", "[5, None, 7, 8]", "np.arange(4) * 3", "[2**63, 0, 0, 0]",
          "[1.5, 0, 0, 0]", "np.array([True] * 4)", "[0, 0]", "'abcd'"]
SPACES = ["", ", space='shared'", ", space='global'", ", space='local'", ", space=3"]
GOOD_STATEMENTS = 6
STATEMENTS = [
    "values = yield warp.read({a}{s})",
    "yield warp.write({a}, {v}{s})",
    "yield warp.syncthreads()",
    "yield warp.grid_sync()",
    "warp.local[0, 0] = 7",
    "for t in range({n}):\n            yield warp.read({a})",
    "warp.read({a})",                                # a forgotten yield
    "yield 42",
    "yield None",
    "yield warp",
    "kept.append(warp.read({a}))",
    "yield kept[-1] if kept else warp.syncthreads()",  # another warp's, or an earlier run's
    "kept.append(warp.local)",
    "kept.append(warp.registers)",
    "kept[0][0] = 1 if kept and hasattr(kept[0], 'shape') else None",
    "warp.local += 1",
    "print(warp.registers.sum(), warp.local[:].sum())",
    "print('warp', warp.index, warp.thread(0), warp.block_thread(3))",
    "warp.thread(4)",
    "self.check(values, values, 'x') if 'values' in dir() else None",
    "self.check(1, 2, 'one')",
    "raise ValueError('mine')",
    "1 // 0",
    "sys.exit(3)",
    "os._exit(0)",
    "return",
]


def choose(rng, options):
    return rng.choice(options)


def pick(rng, options, good=1):
    """One of `options`, whose first `good` fit: those half the time, so that most cases run
    and every mistake still comes up."""
    return rng.choice(options[:good] if rng.random() < 0.5 else options)


def method(rng, name, args, body_lines):
    body = "\n".join("        " + line for line in body_lines)
    return f"    def {name}(self, {args}):\n{body}\n"


def program_source(rng):
    """A user.py of one class, Fuzzed, from the grammar."""
    parts = []
    declared = []
    if rng.random() < 0.3:
        declared = rng.sample(["n", "k", "mode"], rng.randint(1, 2))
        params = []
        for name in declared:
            index = rng.randrange(4) if rng.random() < 0.7 else rng.randrange(len(PARAM_TYPES))
            default = PARAM_DEFAULTS[index] if index < 4 and rng.random() < 0.7 else \
                rng.choice(PARAM_DEFAULTS)
            params.append(f"'{name}': mmsim.Param({PARAM_TYPES[index]}, default={default})")
        parts.append(f"    params = {{{', '.join(params)}}}\n" if rng.random() < 0.9 else
                     "    params = 5\n")
    if rng.random() < 0.05:
        parts.append("    @property\n    def n(self):\n        return 3\n")
    if rng.random() < 0.05:
        parts.append("    def __setattr__(self, key, value):\n        raise ValueError('no')\n")
    if rng.random() < 0.2:
        parts.append(method(rng, "default_threads", "machine",
                            [f"return {pick(rng, THREADS, 2)}"]))
    if rng.random() < 0.2:
        parts.append(method(rng, "configure", "machine",
                            [choose(rng, ["self.p = machine.threads",
                                          "raise mmsim.ParamError('n', 'does not fit')",
                                          "raise mmsim.ParamError('nope', 'no such')",
                                          "self.w = machine.width // 0"])]))
    parts.append(method(rng, "memory_words", "machine=None",
                        [f"return {choose(rng, SIZES) if rng.random() < 0.2 else '64'}"]))
    for name in ("shared_words", "local_words"):
        if rng.random() < 0.5:
            parts.append(method(rng, name, "machine=None", [f"return {pick(rng, SIZES, 4)}"]))
    if rng.random() < 0.3:
        parts.append(method(rng, "initialize", "memory", [choose(rng, [
            "memory[0:8] = np.arange(8)", "memory[0] = 2**63", "memory[100] = 1",
            "memory[0:4] = [1, 2]", "kept.append(memory)", "memory[-1] = 5",
            "memory[0:8] = np.arange(8.5)"])]))
    if rng.random() < 0.3:
        parts.append(method(rng, "verify", "memory", [choose(rng, [
            "assert memory[0] == 0, 'm[0]'", "self.check(memory[0:4], np.zeros(4), 'm')",
            "memory[0] = 1", "kept[0][0] if kept else None", "raise KeyError('v')"])]))
    if rng.random() < 0.3:
        bound = (f"mmsim.Bound('b', 'a bound', {choose(rng, BOUND_VALUES)}, "
                 f"kind={choose(rng, BOUND_KINDS)}, measure={choose(rng, BOUND_MEASURES)})")
        returned = pick(rng, [f"[{bound}]", "[]", "None", "[1, 2]", bound, "()"], 2)
        parts.append(method(rng, "bounds", "machine, result", [f"return {returned}"]))
    statements = []
    for _ in range(rng.randint(1, 6)):
        statement = (rng.choice(STATEMENTS[:GOOD_STATEMENTS]) if rng.random() < 0.9 else
                     rng.choice(STATEMENTS)).format(
            a=rng.choice(ADDRESSES) if rng.random() < 0.1 else rng.choice(ADDRESSES[:5]),
            v=pick(rng, VALUES, 4), s=pick(rng, SPACES, 3) if rng.random() < 0.3 else "",
            n=rng.randint(1, 5))
        statements.extend(statement.split("\n        "))
    if not any(line.lstrip().startswith(("yield", "values = yield", "for "))
               for line in statements):
        statements.append("yield warp.syncthreads()")
    parts.append(method(rng, "run", "warp", statements))
    return ("import os\nimport sys\n\nimport numpy as np\n\nimport mmsim\n\nkept = []\n\n\n"
            "class Fuzzed(mmsim.Program):\n" + "".join(parts)), declared


def testbench_source(rng, declared):
    machine = pick(rng, [
        "{model: dmm, width: 4, latency: 2, threads: 8}",
        "{model: umm, width: 4, latency: 3, threads: 8}",
        "{model: dmm, width: 4, latency: 1, threads: 4}",
        "{model: dmm, width: 4, latency: 2}",
        "{model: hmm, multiprocessors: 2, width: 4, latency: 3, threads: 16, "
        "shared: {latency: 1}}",
        "{model: dmm, width: 4, latency: 2, threads: 8, memory: 16, local_memory: 2}",
        "{model: umm, width: 4, latency: 2, threads: 8, race_check: true}",
    ], 3)
    params = "{}" if rng.random() < 0.8 else choose(rng, ["{n: 5}", "{k: abc}", "{zzz: 1}"])
    if declared and rng.random() < 0.5:
        params = "{" + declared[0] + ": 5}"
    return (f"machine: {machine}\nprogram: {{file: user.py, class: Fuzzed, params: {params}}}\n")


INPUTS = ("user.py", "tb.yaml", "api.py", "__pycache__")
OUTPUTS = {"stats.json", "w.vcd", "w.gtkw", "w.gtkw.space.txt", "w.gtkw.state.txt",
           "w.gtkw.unit.txt"}

API = """\
import sys
import mmsim
try:
    mmsim.run(sys.argv[1], stats='stats.json', set=sys.argv[2:])
    print('api: ran')
except mmsim.Error as e:
    print('api:', type(e).__name__)
print('api: alive', mmsim.run({'machine': {'model': 'dmm', 'width': 4, 'latency': 5,
                                           'threads': 8},
                               'program': {'name': 'contiguous_access',
                                           'params': {'n': 64}}}).cycles)
"""


def judge(mode, status, out, err, left):
    """What breaks the promise in one case's outcome, or ""."""
    text = out + err
    for sign in ("terminate called", "Segmentation fault", "core dumped", "AddressSanitizer",
                 "runtime error:", "pybind11::", "Fatal Python error"):
        if sign in text:
            return f"output holds {sign!r}"
    if status is None:
        return "hang (30 s)"
    if status < 0:
        return f"ended by signal {-status}"
    if mode == "api":
        if status != 0 or "api: alive 41" not in out:
            return f"the interpreter did not go on (exit {status})"
        if "api: ran" not in out and left:
            return f"files left after an error: {left}"
        return ""
    if status not in (0, 1, 2):
        return f"exit status {status}"
    if any(".partial" in name for name in left):
        return f"partial files left: {left}"
    if status == 2 and left:
        return f"files left after invalid input: {left}"
    complete = status == 0 or (status == 1 and "stats.json" in left)  # a check may fail
    if not complete and "mmsim:" not in err:
        return "no 'mmsim:' error line"
    if complete:
        if "stats.json" not in left:
            return "exit 0 without its statistics"
        if set(left) - OUTPUTS:
            return f"unexpected files: {left}"
    elif left:
        return f"files left after a failed program: {left}"
    return ""


def run_case(args, seed, case, folder):
    rng = random.Random(f"{seed}/{case}")
    source, declared = program_source(rng)
    testbench = testbench_source(rng, declared)
    with open(os.path.join(folder, "user.py"), "w") as f:
        f.write(source)
    with open(os.path.join(folder, "tb.yaml"), "w") as f:
        f.write(testbench)
    overrides = ["machine.dispatch=random"] if rng.random() < 0.2 else []
    mode = "api" if rng.random() < 0.25 else "command"
    env = dict(os.environ, PYTHONPATH=args.python_path, MMSIM_MEMORY_LIMIT=str(256 << 20),
               PYTHONDONTWRITEBYTECODE="1")
    if mode == "api":
        with open(os.path.join(folder, "api.py"), "w") as f:
            f.write(API)
        command = [sys.executable, "api.py", "tb.yaml", *overrides]
    else:
        command = [args.mmsim, "run", "tb.yaml", "--stats", "stats.json", "--vcd", "w.vcd"]
        command += [x for o in overrides for x in ("--set", o)]
        if rng.random() < 0.2:
            command += ["--policies", "round_robin,random"]
    try:
        done = subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True,
                              timeout=30, errors="replace")
        status, out, err = done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired as e:
        status = None
        out = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else ""
        err = (e.stderr or b"").decode(errors="replace") if isinstance(e.stderr, bytes) else ""
    left = sorted(n for n in os.listdir(folder) if n not in INPUTS)
    if "--policies" in command:
        left = sorted(n.replace(".round_robin", "").replace(".random", "") for n in left)
        left = sorted(set(left))
    return mode, command, status, out, err, left


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mmsim", required=True)
    parser.add_argument("--python-path", required=True)
    parser.add_argument("--cases", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=0, help="stop after (0: --cases)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--case", type=int, help="make and run this case alone")
    parser.add_argument("--findings", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "findings", "python_program"))
    args = parser.parse_args()
    args.mmsim = os.path.abspath(args.mmsim)
    args.python_path = os.path.abspath(args.python_path)
    start = time.monotonic()
    cases = [args.case] if args.case is not None else range(10**9)
    run = 0
    findings = []
    outcomes = {}
    for case in cases:
        if args.case is None and (run >= args.cases if not args.seconds else
                                  time.monotonic() - start >= args.seconds):
            break
        with tempfile.TemporaryDirectory(prefix="mmsim-fuzz-python-") as folder:
            mode, command, status, out, err, left = run_case(args, args.seed, case, folder)
            run += 1
            outcomes[(mode, status)] = outcomes.get((mode, status), 0) + 1
            why = judge(mode, status, out, err, left)
            if why:
                kept = os.path.join(args.findings, f"seed-{args.seed}-case-{case}")
                shutil.rmtree(kept, ignore_errors=True)
                shutil.copytree(folder, kept)
                with open(os.path.join(kept, "log.txt"), "w") as f:
                    f.write(f"{why}\n$ {' '.join(command)}\n(exit {status})\n{out}\n{err}\n")
                findings.append((case, why, kept))
    seconds = time.monotonic() - start
    spread = ", ".join(f"{mode} exit {status}: {count}"
                       for (mode, status), count in sorted(outcomes.items(), key=str))
    print(f"python_program fuzzer: {run} cases in {seconds:.1f} s (seed {args.seed}; {spread}); "
          f"{len(findings)} findings")
    for case, why, kept in findings:
        print(f"  case {case}: {why} ({kept})")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
