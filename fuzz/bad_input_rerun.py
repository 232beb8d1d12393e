#!/usr/bin/python3
"""Reruns issue 40's bad-input campaign (docs/testing.md, "Fuzzing"): each case makes one of the
issue's reproducers, or a variant of its kind, in a private folder and checks mmsim's promise.

  fuzz/bad_input_rerun.py --build build [--plugin LIB] [--cases N] [--seconds S]
      [--seed SEED] [--kind KIND]... [--case I] [--bombs] [--findings DIR]

The kinds: outputs aimed at a run's inputs (by name, a link, a relative or absolute path,
--out-dir, --policies, outputs keys, sweep tables, mmsim.run(stats=...)), names of a dict given
to mmsim.run, Python programs whose methods return or raise the wrong things, kept views, C++
plugins that throw, make nothing or ask for 2^62 threads, plugins cut short, traces (addresses
past 2^64, cut short, empty, headers alone, zero sizes, pzstd frames, a decompression bomb with
--bombs), mmsim profile on what it cannot read, endless programs under output limits, Ctrl-C
inside mmsim.run, a program ending the process, print() under --stats -, None and boolean
lanes, empty output names, outputs on private device nodes (mknod), user code on --emit-slurm
and --collect. Case I is made from SEED and I alone (its kind is I modulo the kinds chosen).

The promise: a located error with exit status 2 (1 for a user program's own failure), or a
correct result; never a signal death, "terminate called", a hang (timeout), an input file
changed, or a file left behind (no *.partial, nothing new after an error, no temporary folder).
A case that breaks it is a finding: its files and log go to DIR/seed-S-case-I and the exit
status is 1. Prints the cases run per kind and outcome, the time and the findings.
"""

import argparse
import gzip
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

USER_PY = """\
import mmsim
class Fine(mmsim.Program):
    def memory_words(self, machine=None): return 64
    def run(self, warp): yield warp.read([4*warp.index + l for l in range(4)])
"""
TB_YAML = """\
machine: {model: dmm, width: 4, latency: 2, threads: 8}
program: {file: user.py, class: Fine}
"""
PLUGIN_TB = """\
machine: {model: dmm, width: 4, latency: 2, threads: 8}
program: {library: lib.so, name: %s}
"""
SWEEP = "name: s\ntestbench: tb.yaml\ngrid: {machine.latency: [2, 3]}\n"
# What a run with --vcd w.vcd writes: the waveform and its GTKWave view.
WAVEFORM = {"w.vcd", "w.gtkw", "w.gtkw.space.txt", "w.gtkw.state.txt", "w.gtkw.unit.txt"}
# The issue's machine runs Fine in 3 time units: 2 dispatches of 1 stage, l = 2.
FINE_CYCLES = "  cycles       3\n"

SIGNS = ("terminate called", "Segmentation fault", "core dumped", "AddressSanitizer",
         "runtime error:", "pybind11::", "Fatal Python error")

KINDS = {}


def kind(function):
    KINDS[function.__name__] = function
    return function


class Case:
    """What a case writes and runs, and what it may end in."""

    def __init__(self, command, expect, files=None, located="", outputs=(), check=None,
                 interrupt=None, timeout=60, env=None, always_check=False, free_outputs=False,
                 kept_on_error=()):
        self.command = command        # argv; MMSIM and PYTHON stand for the binaries
        self.expect = set(expect)     # the exit statuses that keep the promise
        self.files = files or {}      # name -> text, bytes, or ("link", target)
        self.located = located        # text the error line must hold (exit 1 or 2)
        self.outputs = set(outputs)   # names a successful run may add
        self.check = check            # (folder, out, err) -> "" or what is wrong, on exit 0
        self.interrupt = interrupt    # seconds after which SIGINT is sent, or None
        self.timeout = timeout
        self.env = env or {}
        self.always_check = always_check    # check whatever the exit status
        self.free_outputs = free_outputs    # a command that writes files of its own naming
        self.kept_on_error = set(kept_on_error)  # what an error leaves on purpose


def write_files(folder, files):
    """Writes the case's files; @FOLDER@ in a text or a link stands for the case's folder."""
    for name, content in files.items():
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if isinstance(content, tuple) and content[0] == "link":
            os.symlink(content[1].replace("@FOLDER@", folder), path)
        elif isinstance(content, tuple) and content[0] == "hardlink":
            os.link(os.path.join(folder, content[1]), path)
        elif isinstance(content, tuple) and content[0] == "node":
            os.mknod(path, 0o600 | 0o020000, os.makedev(1, content[1]))
        else:
            with open(path, "wb") as f:
                f.write(content.replace("@FOLDER@", folder).encode()
                        if isinstance(content, str) else content)


def snapshot(folder):
    """Every entry under `folder`: its kind and, for a file, its contents' hash."""
    seen = {}
    for root, dirs, names in os.walk(folder):
        for name in dirs + names:
            path = os.path.join(root, name)
            rel = os.path.relpath(path, folder)
            if os.path.islink(path):
                seen[rel] = "link " + os.readlink(path)
            elif os.path.isfile(path):
                with open(path, "rb") as f:
                    seen[rel] = hashlib.sha256(f.read()).hexdigest()
            else:
                seen[rel] = "other"
    return seen


# ---------------------------------------------------------------------------------------------
# The kinds of cases. Each takes (rng, env) and returns a Case; env holds the build's paths.

def output_name(rng, target, files):
    """`target` named as an output: by name, ./, a detour, an absolute path or a link."""
    way = rng.choice(["name", "dot", "detour", "absolute", "link", "hardlink"])
    if way == "dot":
        return "./" + target
    if way == "detour":
        files["sub/keep.txt"] = "kept\n"
        return "sub/../" + target
    if way == "absolute":
        return "@FOLDER@/" + target
    if way == "link":
        files["link.out"] = ("link", target)
        return "link.out"
    if way == "hardlink":
        files["hard.out"] = ("hardlink", target)
        return "hard.out"
    return target


@kind
def outputs_at_inputs(rng, env):
    files = {"user.py": USER_PY, "tb.yaml": TB_YAML}
    inputs = ["user.py", "tb.yaml"]
    setup = rng.choice(["python", "plugin", "kernels", "csv", "policies"])
    if setup == "plugin":
        files["lib.so"] = env["plugin_bytes"]
        files["tb.yaml"] = PLUGIN_TB % "fine"
        inputs = ["lib.so", "tb.yaml"]
    elif setup == "kernels":
        files["traces/kernelslist.g"] = "kernel-1.traceg\n"
        files["traces/kernel-1.traceg"] = env["cta_trace"]
        files["tb.yaml"] = ("machine: {model: dmm, width: 32, latency: 5, threads: 64}\n"
                            "program: {name: gpu_trace, params: {file: traces/kernelslist.g, "
                            "format: accelsim}}\n")
        inputs = ["traces/kernelslist.g", "traces/kernel-1.traceg", "tb.yaml"]
        del files["user.py"]
    elif setup == "csv":
        files["t.csv"] = "0,read,0,1,2,3\n1,read,4,5,6,7\n"
        files["tb.yaml"] = ("machine: {model: dmm, width: 4, latency: 2, threads: 8}\n"
                            "program: {name: trace, params: {file: t.csv}}\n")
        inputs = ["t.csv", "tb.yaml"]
        del files["user.py"]
    elif setup == "policies":
        files["user.round_robin.py"] = USER_PY
        files["tb.yaml"] = TB_YAML.replace("user.py", "user.round_robin.py")
        # The policy's name goes before the extension: a link's own name would change.
        name = rng.choice(["user.py", "./user.py", "@FOLDER@/user.py"])
        return Case(["MMSIM", "run", "tb.yaml", "--stats", name, "--policies",
                     "round_robin,lowest_ready"], {2}, files, located="--stats")
    target = rng.choice(inputs)
    name = output_name(rng, target, files)
    where = rng.choice(["option", "option", "key", "out-dir", "sweep", "api"])
    if where == "key":
        key = rng.choice(["stats", "timeline", "vcd"])
        files["tb.yaml"] += f"outputs: {{{key}: {name}}}\n"
        return Case(["MMSIM", "run", "tb.yaml"], {2}, files, located="tb.yaml:3:")
    if where == "out-dir":
        # --out-dir writes testbench.yaml and stats.json: the inputs carry those names.
        files["testbench.yaml"] = files.pop("tb.yaml")
        if rng.random() < 0.5:
            files["stats.json"] = "{}\n"
        return Case(["MMSIM", "run", "testbench.yaml", "--out-dir", "."], {2}, files,
                    located="--out-dir")
    if where == "sweep":
        files["sw.yaml"] = SWEEP
        option = rng.choice(["--json", "--csv", "--markdown"])
        return Case(["MMSIM", "sweep", "sw.yaml", option, name], {2}, files, located=option)
    if where == "api":
        files["api.py"] = ("import mmsim\ntry:\n    mmsim.run('tb.yaml', stats=%r)\n"
                           "    print('api: ran')\nexcept mmsim.InputError as e:\n"
                           "    print('api: InputError', e)\n" % name)
        return Case(["PYTHON", "api.py"], {0}, files,
                    check=lambda folder, out, err: "" if "api: InputError" in out
                    else "mmsim.run wrote an output over an input")
    option = rng.choice(["--stats", "--timeline", "--vcd"])
    return Case(["MMSIM", "run", "tb.yaml", option, name], {2}, files, located=option)


@kind
def dict_names(rng, env):
    name = rng.choice(["@FOLDER@/victim", "../escape", "a/b", "x\\0y", "", "..", "/",
                       "victim", "@FOLDER@/sub/"])
    files = {"user.py": USER_PY, "victim.yaml": "untouched: 1\n", "sub/keep.txt": "k\n",
             "api.py": (
                 "import mmsim\n"
                 "tb = {'name': %r, 'machine': {'model': 'dmm', 'width': 4, 'latency': %d,\n"
                 "      'threads': 8}, 'program': {'file': 'user.py', 'class': 'Fine'}}\n"
                 "try:\n    print('api: cycles', mmsim.run(tb).cycles)\n"
                 "except mmsim.Error as e:\n    print('api:', type(e).__name__, e)\n"
                 "print('api: alive')\n")}
    latency = rng.choice([2, 2, 0])
    files["api.py"] = files["api.py"] % (name, latency)

    def check(folder, out, err):
        if "api: alive" not in out:
            return "the interpreter did not go on"
        if latency == 2 and "api: cycles 3" not in out:
            return "a valid dict did not run in 3 cycles"
        if latency == 0 and "<dict>:machine.latency" not in out:
            return "the error does not name <dict>:machine.latency"
        return ""
    return Case(["PYTHON", "api.py"], {0}, files, check=check)


# A method's body and what it returns or raises, each a mistake of the issue's item 3 or 17.
RETURNS = [
    ("bounds", "return None"), ("bounds", "return [1, 2]"), ("bounds", "return 'x'"),
    ("bounds", "return [mmsim.Bound('cycles', 'a bound', 3, kind='lowr')]"),
    ("bounds", "return [mmsim.Bound(kind='upper', measure='cycles', value='x')]"),
    ("bounds", "raise KeyError('mine')"),
    ("memory_words", "return 2**63"), ("memory_words", "return 2**64"),
    ("memory_words", "return -1"), ("memory_words", "return None"),
    ("memory_words", "return 64.5"), ("memory_words", "return '64'"),
    ("shared_words", "return 2**63"), ("local_words", "return 2**21"),
    ("default_threads", "return 2**62"), ("default_threads", "return 0"),
    ("default_threads", "return -8"), ("default_threads", "return 2**40 + 4"),
    ("default_threads", "return 'eight'"),
    ("configure", "raise RuntimeError('no')"), ("initialize", "raise OSError('disk')"),
    ("verify", "raise ValueError('bad')"), ("verify", "return memory.nothing"),
    ("initialize", "import sys; sys.exit(3)"),
]
CLASS_LINES = [
    "params = 5", "params = {'n': 5}", "params = {'n': mmsim.Param(int, default=object())}",
    "params = {'n': mmsim.Param(int, default='abc')}", "params = [mmsim.Param(int)]",
    "params = {'n': mmsim.Param(int, default=3)}\n    n = property(lambda self: 1)",
    "params = {'n': mmsim.Param(int, default=3)}\n"
    "    def __setattr__(self, k, v): raise AttributeError('frozen')",
    "params = {'n': mmsim.Param(float, default=3)}",
    "def bounds(self, machine): return []",  # defs that take other arguments than mmsim gives
    "def verify(self): pass",
    "def configure(self, machine, extra): pass",
]


def python_case(rng, program, testbench=None, expect=(1, 2), extra=(), located="user.py"):
    files = {"user.py": program, "tb.yaml": testbench or TB_YAML}
    outputs = rng.choice([[], ["--stats", "s.json"], ["--timeline", "t.json"],
                          ["--vcd", "w.vcd", "--stats", "s.json"]])
    return Case(["MMSIM", "run", "tb.yaml", *outputs, *extra], expect, files, located=located,
                outputs={"s.json", "t.json"} | WAVEFORM)


@kind
def python_returns(rng, env):
    head = "import mmsim\nimport numpy as np\nclass Fine(mmsim.Program):\n"
    body = ("    def memory_words(self, machine=None): return 64\n"
            "    def run(self, warp): yield warp.read([4*warp.index + l for l in range(4)])\n")
    testbench = TB_YAML
    if rng.random() < 0.5:
        method, line = rng.choice(RETURNS)
        args = {"bounds": "self, machine, result", "default_threads": "self, machine",
                "configure": "self, machine", "initialize": "self, memory",
                "verify": "self, memory"}.get(method, "self, machine=None")
        if method == "memory_words":
            body = body.split("\n", 1)[1]
        if method == "default_threads":
            testbench = TB_YAML.replace(", threads: 8", "")
        if method == "shared_words":
            testbench = ("machine: {model: hmm, multiprocessors: 2, width: 4, latency: 3, "
                         "threads: 8, shared: {latency: 1}}\n"
                         "program: {file: user.py, class: Fine}\n")
        program = head + body + f"    def {method}({args}):\n        {line}\n"
    else:
        program = head + "    " + rng.choice(CLASS_LINES) + "\n" + body
    return python_case(rng, program, testbench, located="user.py")


@kind
def kept_views(rng, env):
    kept = rng.choice(["warp.local", "warp.registers", "warp.read([0, 1, 2, 3])"])
    use = rng.choice([
        ("verify", "self, memory", "KEPT[0][0] = 1"),
        ("verify", "self, memory", "print(KEPT[0].sum())"),
        ("bounds", "self, machine, result", "print(KEPT[0][0]); return []"),
        ("verify", "self, memory", "print(float(KEPT[-1][0]))"),
    ])
    yielded = rng.random() < 0.3 and kept.startswith("warp.read")
    program = (
        "import mmsim\nKEPT = []\nclass Fine(mmsim.Program):\n"
        "    def memory_words(self, machine=None): return 64\n"
        "    def run(self, warp):\n"
        f"        if warp.index == 1 and {yielded!r} and KEPT: yield KEPT[0]\n"
        f"        KEPT.append({kept})\n"
        "        yield warp.read([4*warp.index + l for l in range(4)])\n"
        f"    def {use[0]}({use[1]}):\n        {use[2]}\n")
    extra = ["--policies", "round_robin,lowest_ready"] if rng.random() < 0.3 else []
    return python_case(rng, program, expect={1}, extra=extra)


PLUGIN_PROGRAMS = {"throws_in_constructor": 1, "throws_in_configure": 1, "throws_in_run": 1,
                   "throws_42_in_run": 1, "throws_in_verify": 1, "makes_nothing": 2,
                   "threads_2_62": 1, "threads_2_40_and_more": 1, "fine": 0}


@kind
def plugins(rng, env):
    files = {"lib.so": env["plugin_bytes"]}
    program = rng.choice(sorted(PLUGIN_PROGRAMS))
    expect = PLUGIN_PROGRAMS[program]
    if program.startswith("threads_"):
        files["tb.yaml"] = (PLUGIN_TB % program).replace(", threads: 8", "")
    else:
        files["tb.yaml"] = PLUGIN_TB % program
    if rng.random() < 0.35:
        size = len(env["plugin_bytes"])
        cut = rng.choice([0, 4, 63, 64, 100, 30 << 10, rng.randrange(1, size), size - 1])
        files["lib.so"] = env["plugin_bytes"][:cut]
        expect = 2
    outputs = rng.choice([[], ["--stats", "s.json"], ["--timeline", "t.json", "--vcd", "w.vcd"]])
    check = None
    if program == "fine" and expect == 0:
        check = lambda folder, out, err: "" if FINE_CYCLES in out else "fine ran wrong"
    return Case(["MMSIM", "run", "tb.yaml", *outputs], {expect}, files,
                located="tb.yaml", outputs={"s.json", "t.json"} | WAVEFORM, check=check)


NVBIT_LAUNCH = ("MEMTRACE: CTX 0x00005581e4e9f0a0 - LAUNCH - Kernel pc 0x00007f8ed6a4e700 - "
                "Kernel name k(float*) - grid launch id 0 - grid size {grid} - block size "
                "{block} - nregs 10 - shmem 0 - cuda stream id 0\n")
NVBIT_LINE = ("MEMTRACE: CTX 0x00005581e4e9f0a0 - grid_launch_id 0 - CTA 0,0,0 - warp 0 - "
              "{op} - {lanes}\n")


def nvbit(rng, address=0x7f8ea2000000, op="LDG.E", grid="1,1,1", block="32,1,1", lanes=32,
          step=4):
    text = NVBIT_LAUNCH.format(grid=grid, block=block)
    addresses = " ".join(f"0x{(address + step * i) % 2**64:016x}" for i in range(lanes))
    return text + NVBIT_LINE.format(op=op, lanes=addresses)


def compress(rng, data, env, allow_pzstd=True):
    how = rng.choice(["plain", "plain", "gzip", "zstd"] + (["pzstd"] if allow_pzstd else []))
    if how == "gzip":
        return gzip.compress(data), how
    if how in ("zstd", "pzstd") and shutil.which(how):
        args = [how, "-q", "-c"] + (["-p", "2"] if how == "pzstd" else [])
        return subprocess.run(args, input=data, capture_output=True, check=True).stdout, how
    return data, "plain"


@kind
def traces(rng, env):
    machine = "machine: {model: dmm, width: 32, latency: 2, threads: 32}\n"
    variant = rng.choice(["past_2_64", "past_2_64", "cut", "empty", "blank", "header_only",
                          "empty_kernelslist", "grid_0", "block_0", "fine", "accelsim_cut",
                          "accelsim_past"])
    fmt, expect, name = "nvbit", {2}, "t.txt"
    if variant == "past_2_64":
        op = rng.choice(["LDG.E.128", "LDG.E.64", "LDG.E", "STG.E.128"])
        top = rng.choice([0xfffffffffffffff8, 0xfffffffffffffff0, 2**64 - 4, 2**64 - 64])
        step = rng.choice([4, 16, 0])
        data = nvbit(rng, address=top, op=op, step=step)
        # A lane whose bytes pass 2^64 is an error; lanes that wrap to 0 are addresses.
        width = {"LDG.E.128": 16, "LDG.E.64": 8}.get(op.replace("STG", "LDG"), 4)
        past = any((top + step * i) % 2**64 + width > 2**64 for i in range(32))
        expect = {2} if past else {0}
    elif variant == "cut":
        whole = env["nvbit_example"]
        data = whole[:rng.randrange(0, len(whole))]
        expect = {0, 2}
    elif variant == "empty":
        data = ""
    elif variant == "blank":
        data = rng.choice(["\n", "\n\n\n", "   \n"])
    elif variant == "header_only":
        data = NVBIT_LAUNCH.format(grid="1,1,1", block="32,1,1")
    elif variant == "grid_0":
        data = nvbit(rng, grid=rng.choice(["0,0,0", "0,1,1", "1,0,1"]))
    elif variant == "block_0":
        data = nvbit(rng, block=rng.choice(["0,1,1", "32,0,1"]))
    elif variant == "fine":
        data = nvbit(rng)
        expect = {0}
    else:
        fmt, name = "accelsim", "kernel-1.traceg"
        whole = env["cta_trace"]
        if variant == "empty_kernelslist":
            name, data = "kernelslist.g", rng.choice(["", "\n", "# nothing\n"])
        elif variant == "accelsim_cut":
            data = whole[:rng.randrange(0, len(whole))]
            expect = {0, 2}
        else:
            data = whole.replace("0x7f8ea2000080", rng.choice(
                ["0xfffffffffffffffe", "0xffffffffffffffff", "0x10000000000000000"]))
        machine = "machine: {model: dmm, width: 32, latency: 5, threads: 64}\n"
    data, how = compress(rng, data.encode(), env)
    files = {name: data, "tb.yaml": machine + f"program: {{name: gpu_trace, params: "
                                              f"{{file: {name}, format: {fmt}}}}}\n"}
    outputs = rng.choice([[], ["--stats", "s.json"], ["--timeline", "t.json"]])
    check = None
    if variant == "fine":
        # One warp reads 32 words of 32 banks: one stage, done at l = 2 time units.
        check = lambda folder, out, err: "" if "  cycles       2\n" in out \
            else f"the trace ({how}) did not run in 2 time units"
    return Case(["MMSIM", "run", "tb.yaml", *outputs], expect, files, located=name,
                outputs={"s.json", "t.json"}, check=check)


@kind
def trace_bomb(rng, env):
    """A zstd file of more than 1 GiB of newlines: refused within seconds (issue 40 item 11)."""
    if not env["bombs"]:
        return traces(rng, env)
    lines = rng.choice(["\n", "# comment\n", "  \n"])
    files = {"tb.yaml": "machine: {model: dmm, width: 4, latency: 2, threads: 4}\n"
                        "program: {name: gpu_trace, params: {file: b.zst, format: "
                        + rng.choice(["nvbit", "accelsim"]) + "}}\n",
             "b.zst": env["bomb"](lines)}
    return Case(["MMSIM", "run", "tb.yaml"], {2}, files, located="b.zst", timeout=120)


@kind
def profile_inputs(rng, env):
    stats = json.loads(env["stats"])
    variant = rng.choice(["folder", "missing", "site", "site", "rows", "truncated", "fine",
                          "keys", "type"])
    files = {"sub/keep.txt": "k\n"}
    target = "s.json"
    expect = {2}
    if variant == "folder":
        target = "sub"
    elif variant == "missing":
        target = "nothing.json"
    else:
        rows = stats["profile"]["rows"]
        if variant == "site":
            rows[rng.randrange(len(rows))]["site"] = rng.choice([10**9, -1, 2**64, "x", 1.5])
        elif variant == "rows":
            stats["profile"]["rows"] = rng.choice([None, 5, [1], [{}], {"a": 1}])
        elif variant == "keys":
            row = rows[rng.randrange(len(rows))]
            row.pop(rng.choice(sorted(row)))
        elif variant == "type":
            row = rows[rng.randrange(len(rows))]
            row[rng.choice(sorted(row))] = rng.choice(["text", None, -5, [1], 2**70, 1.5])
        text = json.dumps(stats)
        if variant == "truncated":
            text = text[:rng.randrange(len(text))]
        expect = {0} if variant == "fine" else {0, 2} if variant in ("keys", "type") else {2}
        files["s.json"] = text
    source = ["--source"] if rng.random() < 0.3 else []
    reference = env["profile"][bool(source)]

    def check(folder, out, err):
        return "" if out == reference else "a profile that differs from the file's own"
    return Case(["MMSIM", "profile", target] + source, expect, files, located=target,
                check=check)


ENDLESS = """\
import mmsim
class Fine(mmsim.Program):
    def memory_words(self, machine=None): return 64
    def run(self, warp):
        while True:
            yield warp.read([4*warp.index + l for l in range(4)])
"""


@kind
def endless_limits(rng, env):
    limit = rng.choice(["1MiB", "64KiB", "2MiB"])
    option = rng.choice([["--timeline", "t.json", "--timeline-limit", limit],
                         ["--vcd", "w.vcd", "--vcd-limit", limit]])
    extra = rng.choice([[], ["--stats", "s.json"]])
    files = {"user.py": ENDLESS, "tb.yaml": TB_YAML}
    return Case(["MMSIM", "run", "tb.yaml", *option, *extra], {2}, files, located=option[2],
                timeout=60)


INTERRUPTED = """\
import signal, mmsim
SMALL = {'machine': {'model': 'dmm', 'width': 4, 'latency': 5, 'threads': 8},
         'program': {'name': 'contiguous_access', 'params': {'n': 64}}}
try:
    mmsim.run(%s)
    print('api: ran')
except KeyboardInterrupt:
    print('api: interrupted')
except mmsim.Error as e:
    print('api: error', e)
for attempt in range(2):  # a signal that comes while this runs: once
    try:
        print('api: alive', mmsim.run(SMALL).cycles)
        break
    except KeyboardInterrupt:
        print('api: interrupted')
# A signal that comes after the runs is the script's, which Python would die of.
signal.signal(signal.SIGINT, signal.SIG_IGN)
"""


@kind
def ctrl_c(rng, env):
    run = rng.choice([
        "'tb.yaml', stats='s.json', vcd='w.vcd'", "'tb.yaml'", "'tb.yaml', out_dir='o'",
        "{'machine': {'model': 'dmm', 'width': 32, 'latency': 8, 'threads': 1024},"
        " 'program': {'name': 'contiguous_access', 'params': {'n': 2**24}}}"])
    files = {"user.py": ENDLESS, "tb.yaml": TB_YAML, "api.py": INTERRUPTED % run}

    def check(folder, out, err):
        # A built-in run may end before the signal comes; an endless one may not.
        ended = "api: interrupted" in out or ("api: ran" in out and "'program'" in run)
        if not ended or "api: alive 41" not in out:
            return "no KeyboardInterrupt, or the interpreter did not go on"
        return ""
    return Case(["PYTHON", "api.py"], {0}, files, check=check,
                interrupt=rng.choice([0.3, 0.6, 1.0, 1.5]))


@kind
def process_exit(rng, env):
    call = rng.choice(["os._exit(0)", "os._exit(3)", "os.abort()", "sys.exit(0)",
                       "raise SystemExit(2)", "raise KeyboardInterrupt"])
    where = rng.choice(["run", "verify", "initialize", "configure"])
    args = {"run": "self, warp", "verify": "self, memory", "initialize": "self, memory",
            "configure": "self, machine"}[where]
    tail = "        yield warp.read([0, 1, 2, 3])\n" if where == "run" else ""
    program = ("import mmsim, os, sys\nclass Fine(mmsim.Program):\n"
               "    def memory_words(self, machine=None): return 64\n"
               "    def run(self, warp): yield warp.read([4*warp.index + l for l in range(4)])\n"
               f"    def {where}({args}):\n        {call}\n{tail}")
    if rng.random() < 0.3:
        files = {"user.py": program, "tb.yaml": TB_YAML,
                 "api.py": INTERRUPTED.replace("except KeyboardInterrupt:",
                                               "except BaseException as e:") % "'tb.yaml', "
                                                                               "stats='s.json'"}
        return Case(["PYTHON", "api.py"], {0}, files,
                    check=lambda folder, out, err: "" if "api: alive 41" in out
                    else "the interpreter did not go on")
    return python_case(rng, program, expect={1}, located="user.py")


@kind
def print_under_stats(rng, env):
    where = rng.choice(["run", "verify", "initialize"])
    args = {"run": "self, warp", "verify": "self, memory", "initialize": "self, memory"}[where]
    tail = ("        yield warp.read([4*warp.index + l for l in range(4)])\n"
            if where == "run" else "")
    program = ("import mmsim, sys\nclass Fine(mmsim.Program):\n"
               "    def memory_words(self, machine=None): return 64\n"
               "    def run(self, warp): yield warp.read([4*warp.index + l for l in range(4)])\n"
               f"    def {where}({args}):\n        print('{{\"noise\": 1}}')\n"
               "        sys.stdout.write('more\\n')\n" + tail)

    def check(folder, out, err):
        try:
            stats = json.loads(out)
        except ValueError:
            return "standard output is not the statistics' JSON alone"
        return "" if stats.get("cycles") == 3 else "the statistics are not Fine's 3 cycles"
    return Case(["MMSIM", "run", "tb.yaml", "--stats", "-"], {0},
                {"user.py": program, "tb.yaml": TB_YAML}, check=check)


@kind
def lanes(rng, env):
    # Each statement with the statuses it may end in: None and booleans are refused where
    # they would be taken as a value or an address (issue 40 item 14).
    statement, expect = rng.choice([
        ("yield warp.write([4*warp.index + l for l in range(4)], [5, None, 7, 8])", {1}),
        ("yield warp.read(np.array([True, False, True, False]))", {1}),
        ("yield warp.write(np.array([True, False, True, False]), [1, 2, 3, 4])", {1}),
        ("yield warp.read([True, 1, 2, 3])", {1}),
        ("yield warp.write([0, 1, 2, 3], [True, 2, 3, 4])", {0, 1}),
        ("yield warp.read(np.zeros((2, 2), dtype=np.int64))", {1}),
        ("yield warp.read(np.array([2**63 + 1, 0, 1, 2], dtype=np.uint64))", {1}),
        ("yield warp.write([0, 1, 2, 3], np.array([None] * 4))", {1}),
        ("yield warp.write([0, 1, 2, 3], [1.5, 2, 3, 4])", {1}),
    ])
    program = ("import mmsim\nimport numpy as np\nclass Fine(mmsim.Program):\n"
               "    def memory_words(self, machine=None): return 64\n"
               f"    def run(self, warp):\n        {statement}\n")
    return python_case(rng, program, expect=expect)


OUTPUT_OPTIONS = ["--stats", "--timeline", "--vcd", "--out-dir"]
OUTPUT_KEYS = ["stats: ''", "vcd: ''", "vcd: {file: ''}", "timeline: ''",
               "timeline: {file: ''}"]


@kind
def empty_names(rng, env):
    files = {"user.py": USER_PY, "tb.yaml": TB_YAML, "sw.yaml": SWEEP}
    way = rng.choice(["run", "run", "key", "sweep"])
    if way == "key":
        files["tb.yaml"] += "outputs: {" + rng.choice(OUTPUT_KEYS) + "}\n"
        return Case(["MMSIM", "run", "tb.yaml"], {2}, files, located="tb.yaml:3:")
    if way == "sweep":
        option = rng.choice(["--json", "--csv", "--markdown", "--results"])
        return Case(["MMSIM", "sweep", "sw.yaml", option, ""], {2}, files, located=option)
    option = rng.choice(OUTPUT_OPTIONS)
    return Case(["MMSIM", "run", "tb.yaml", option, ""], {2}, files, located=option)


@kind
def device_nodes(rng, env):
    if not env["mknod"]:
        return empty_names(rng, env)
    minor, expect = rng.choice([(3, {0}), (7, {2})])  # a private null, a private full
    option = rng.choice(["--stats", "--timeline", "--vcd"])
    files = {"user.py": USER_PY, "tb.yaml": TB_YAML, "node": ("node", minor)}
    if rng.random() < 0.3:
        files["sw.yaml"] = SWEEP
        option = rng.choice(["--json", "--csv"])
        # The runs' records stay when a table cannot be written (--collect writes it again).
        return Case(["MMSIM", "sweep", "sw.yaml", option, "node"], expect, files,
                    located=option, outputs={"sw.results.jsonl"},
                    kept_on_error={"sw.results.jsonl"})
    view = {name.replace("w.", "node.", 1) for name in WAVEFORM if name != "w.vcd"}
    return Case(["MMSIM", "run", "tb.yaml", option, "node"], expect, files, located="node",
                outputs=view)


MARKED_PY = USER_PY + """\
import os
with open(os.environ['MMSIM_TEST_MARKER'], 'a') as marker:
    marker.write('user.py imported\\n')
"""


@kind
def user_code_not_run(rng, env):
    python = rng.random() < 0.5 or not env["plugin_bytes"]
    files = {"tb.yaml": TB_YAML, "sw.yaml": SWEEP, "user.py": MARKED_PY}
    if not python:
        files["lib.so"] = env["plugin_bytes"]
        files["tb.yaml"] = PLUGIN_TB % "fine"
    way = rng.choice(["emit-slurm", "collect", "refused-output", "bad-latency", "window"])
    check = None
    if way == "emit-slurm":
        command, expect, outputs = ["MMSIM", "sweep", "sw.yaml", "--emit-slurm", "jobs"], {0}, ()
        check = lambda folder, out, err: "" if os.path.isdir(os.path.join(folder, "jobs")) \
            else "no job folder"
    elif way == "collect":
        files["r.jsonl"] = ""
        command, expect, outputs = ["MMSIM", "sweep", "sw.yaml", "--collect",
                                    "--results", "r.jsonl", "--json", "o.json"], {0, 1, 2}, \
            {"o.json"}
    elif way == "refused-output":
        command, expect, outputs = ["MMSIM", "run", "tb.yaml", "--stats", "tb.yaml"], {2}, ()
    elif way == "bad-latency":
        command, expect, outputs = ["MMSIM", "run", "tb.yaml", "--set",
                                    "machine.latency=0"], {2}, ()
    else:
        command, expect, outputs = ["MMSIM", "run", "tb.yaml", "--timeline", "t.json",
                                    "--timeline-from", "9", "--timeline-to", "3"], {2}, ()

    def judged(folder, out, err):
        if os.path.exists(os.path.join(folder, "marker")):
            return "user code ran: " + open(os.path.join(folder, "marker")).read().strip()
        return check(folder, out, err) if check else ""
    return Case(command, expect, files, outputs=outputs, check=judged,
                env={"MMSIM_TEST_MARKER": "@FOLDER@/marker"}, always_check=True,
                free_outputs=way in ("emit-slurm", "collect"))


# ---------------------------------------------------------------------------------------------

def judge(case, status, out, err, before, after, tmp_left):
    """What in one case's outcome breaks the promise, or ""."""
    for sign in SIGNS:
        if sign in out + err:
            return f"output holds {sign!r}"
    if status is None:
        return f"hang ({case.timeout} s)"
    if status < 0:
        return f"ended by signal {-status}"
    for name, digest in before.items():
        if after.get(name) != digest:
            return f"input {name} changed or went"
    added = sorted(set(after) - set(before))
    if any(".partial" in name for name in added):
        return f"partial files left: {added}"
    if tmp_left:
        return f"temporary files left: {tmp_left}"
    if case.always_check:
        why = case.check(case.folder, out, err)
        if why:
            return why
    if status not in case.expect:
        return f"exit status {status}, expected {sorted(case.expect)}"
    if status in (1, 2):
        lines = [line for line in err.splitlines() if line.startswith("mmsim: ")]
        if not lines and case.command[0] == "MMSIM":
            return "no 'mmsim:' error line"
        # A Python program's failure shows its traceback under the error line.
        if case.located and not any(case.located in line for line in err.splitlines()):
            return f"the error does not name {case.located!r}"
        left = set(added) - case.kept_on_error
        if left and not case.free_outputs:
            return f"files left after an error: {sorted(left)}"
        return ""
    if not case.free_outputs:
        extra = [name for name in added if name not in case.outputs]
        if extra:
            return f"unexpected files: {extra}"
    if case.check and not case.always_check:
        return case.check(case.folder, out, err)
    return ""


def fill(word, folder, env):
    word = word.replace("@FOLDER@", folder)
    return {"MMSIM": env["mmsim"], "PYTHON": sys.executable}.get(word, word)


def run_case(case, folder, tmp, env):
    """Runs the case in `folder` with TMPDIR=`tmp`: (status or None on a hang, out, err, the
    inputs as written)."""
    write_files(folder, case.files)
    before = snapshot(folder)
    case.folder = folder
    command = [fill(word, folder, env) for word in case.command]
    environment = dict(os.environ, PYTHONPATH=env["python_path"], TMPDIR=tmp,
                       PYTHONDONTWRITEBYTECODE="1", MMSIM_MEMORY_LIMIT=str(512 << 20))
    environment.update({k: fill(v, folder, env) for k, v in case.env.items()})
    process = subprocess.Popen(command, cwd=folder, env=environment, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True)
    try:
        if case.interrupt is not None:
            try:
                process.wait(timeout=case.interrupt)
            except subprocess.TimeoutExpired:
                process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=case.timeout)
        status = process.returncode
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        status = None
    return status, out.decode(errors="replace"), err.decode(errors="replace"), before


def environment(args, root):
    """The build's paths and the inputs the kinds copy: made once."""
    build = os.path.abspath(args.build)
    source = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    plugin = args.plugin or os.path.join(build, "tests", "libmmsim_test_plugin.so")
    env = {"mmsim": os.path.join(build, "mmsim"), "python_path": os.path.join(build, "python"),
           "plugin_bytes": open(plugin, "rb").read() if os.path.exists(plugin) else b"",
           "bombs": args.bombs}
    with open(os.path.join(source, "examples", "traces", "cta_example.traceg")) as f:
        env["cta_trace"] = f.read()
    with open(os.path.join(source, "examples", "traces", "transpose_naive.nvbit.txt")) as f:
        env["nvbit_example"] = f.read()
    probe = os.path.join(root, "probe")
    try:
        os.mknod(probe, 0o600 | 0o020000, os.makedev(1, 3))
        env["mknod"] = True
        os.unlink(probe)
    except OSError:
        env["mknod"] = False
    made = subprocess.run([env["mmsim"], "run", os.path.join(source, "configs",
                                                             "transpose_naive_dmm.yaml"),
                           "--stats", "-", "--profile"], capture_output=True, text=True)
    env["stats"] = made.stdout if made.returncode == 0 else "{}"
    with open(os.path.join(root, "s.json"), "w") as f:
        f.write(env["stats"])
    env["profile"] = [subprocess.run([env["mmsim"], "profile", "s.json"] + source, cwd=root,
                                     capture_output=True, text=True).stdout
                      for source in ([], ["--source"])]

    def bomb(line):
        data = line.encode() * ((1 << 30) // len(line) + (64 << 20))
        return subprocess.run(["zstd", "-q", "-c", "-19"], input=data, capture_output=True,
                              check=True).stdout
    env["bomb"] = bomb
    return env


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default="build", help="the build folder (mmsim, python)")
    parser.add_argument("--plugin", help="tests/testbench/plugins' failing_programs library "
                        "(default: BUILD/tests/libmmsim_test_plugin.so)")
    parser.add_argument("--cases", type=int, default=len(KINDS) * 2)
    parser.add_argument("--seconds", type=float, default=0, help="stop after (0: --cases)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--case", type=int, help="make and run this case alone")
    parser.add_argument("--kind", action="append", choices=sorted(KINDS))
    parser.add_argument("--bombs", action="store_true", help="decompression bombs (slow)")
    parser.add_argument("--findings", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "findings", "bad_input_rerun"))
    args = parser.parse_args()
    kinds = args.kind or sorted(KINDS)
    start = time.monotonic()
    findings, outcomes, run = [], {}, 0
    with tempfile.TemporaryDirectory(prefix="mmsim-rerun-") as root:
        env = environment(args, root)
        cases = [args.case] if args.case is not None else range(10**9)
        for i in cases:
            if args.case is None and (run >= args.cases if not args.seconds else
                                      time.monotonic() - start >= args.seconds):
                break
            rng = random.Random(f"{args.seed}/{i}")
            name = kinds[i % len(kinds)]
            case = KINDS[name](rng, env)
            folder = os.path.join(root, f"case-{i}")
            tmp = os.path.join(root, f"tmp-{i}")
            os.makedirs(folder)
            os.makedirs(tmp)
            status, out, err, before = run_case(case, folder, tmp, env)
            after = snapshot(folder)
            why = judge(case, status, out, err, before, after, sorted(os.listdir(tmp)))
            run += 1
            outcomes[(name, status)] = outcomes.get((name, status), 0) + 1
            if why:
                kept = os.path.join(args.findings, f"seed-{args.seed}-case-{i}")
                shutil.rmtree(kept, ignore_errors=True)
                shutil.copytree(folder, kept, symlinks=True,
                                ignore=lambda d, names: [n for n in names if n == "node"])
                with open(os.path.join(kept, "log.txt"), "w") as f:
                    f.write(f"{name}: {why}\n$ {' '.join(map(repr, case.command))}\n"
                            f"(exit {status})\n--- stdout\n{out[-4000:]}\n--- stderr\n"
                            f"{err[-4000:]}\n")
                findings.append((i, name, why, kept))
            shutil.rmtree(folder, ignore_errors=True)
            shutil.rmtree(tmp, ignore_errors=True)
    seconds = time.monotonic() - start
    by_kind = {}
    for (name, status), count in outcomes.items():
        by_kind.setdefault(name, []).append(f"{'hang' if status is None else status}: {count}")
    print(f"bad_input_rerun: {run} cases in {seconds:.1f} s (seed {args.seed}); "
          f"{len(findings)} findings")
    for name in sorted(by_kind):
        print(f"  {name}: {', '.join(sorted(by_kind[name]))}")
    for i, name, why, kept in findings:
        print(f"  case {i} ({name}): {why} ({kept})")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
