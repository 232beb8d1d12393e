"""Errors in Python programs are the user's to read (docs/own_programs.md, "When it goes
wrong"): a clear message at their own file and line, exit status 1 (the program failed) or 2
(the input is invalid), and no output left behind."""

import json
import os
import textwrap
import unittest

import mmsim
from support import mmsim as command, run_user_file, scratch

TESTBENCH = """\
machine: {model: dmm, width: 4, latency: 2, threads: 8}
program:
  file: user.py
  class: %s
  params: {}
outputs: {stats: stats.json}
"""

PROGRAMS = """\
import mmsim


class Base(mmsim.Program):
    def memory_words(self, machine=None):
        return 64


class Raises(Base):
    def run(self, warp):
        yield warp.read([0, 1, 2, 3])
        1 // 0


class YieldsANumber(Base):
    def run(self, warp):
        yield 42


class TwoLanes(Base):
    def run(self, warp):
        yield warp.read([0, 1])


class Outside(Base):
    def run(self, warp):
        yield warp.read([0, 1, 2, 100])


class FloatWrite(Base):
    def run(self, warp):
        yield warp.write([0, 1, 2, 3], [1, 2, 1.5, 4])


class NotAGenerator(Base):
    def run(self, warp):
        return None


class BadVerify(Base):
    def run(self, warp):
        yield warp.write([4 * warp.index + lane for lane in range(4)], [7] * 4)

    def verify(self, memory):
        assert memory[0] == 8, f"m[0] = {memory[0]}"


class Fine(Base):
    def run(self, warp):
        yield warp.read([4 * warp.index + lane for lane in range(4)])


class MisspeltKeyword(Base):
    def run(self, warp):
        yield warp.read([0, 1, 2, 3], spce="shared")


class KeepsItsWarp(Base):
    def run(self, warp):
        self.kept = warp
        yield warp.read([4 * warp.index + lane for lane in range(4)])

    def verify(self, memory):
        self.kept.read([0, 1, 2, 3])


class RangeOutside(Base):
    def run(self, warp):
        yield warp.read(range(62, 66))


class ShortRange(Base):
    def run(self, warp):
        yield warp.read(range(0, 2))
"""


class ProgramErrors(unittest.TestCase):
    def run_class(self, cls, programs=PROGRAMS, testbench=TESTBENCH):
        return run_user_file("user.py", programs, testbench % cls)

    def test_an_exception_shows_the_traceback_at_the_users_line(self):
        status, text, left = self.run_class("Raises")
        self.assertEqual(status, 1)
        self.assertIn('user.py", line 12, in run', text)
        self.assertIn("ZeroDivisionError", text)
        self.assertEqual(left, [])

    def test_a_yield_that_is_not_an_instruction(self):
        status, text, left = self.run_class("YieldsANumber")
        self.assertEqual(status, 1)
        self.assertIn("user.py:17: YieldsANumber.run yielded 42, not an instruction", text)
        self.assertEqual(left, [])

    def test_the_wrong_number_of_lanes(self):
        status, text, _ = self.run_class("TwoLanes")
        self.assertEqual(status, 1)
        self.assertIn('user.py", line 22, in run', text)
        self.assertIn("warp.read: 2 lanes given, the warp has 4", text)

    def test_an_address_outside_the_memory(self):
        status, text, _ = self.run_class("Outside")
        self.assertEqual(status, 1)
        self.assertIn('user.py", line 27, in run', text)
        self.assertIn("lane 3: address 100 is outside the global memory of 64 words", text)

    def test_a_range_is_checked_as_any_lanes(self):
        status, text, _ = self.run_class("RangeOutside")
        self.assertEqual(status, 1)
        self.assertIn('user.py", line 69, in run', text)
        self.assertIn("lane 2: address 64 is outside the global memory of 64 words", text)
        status, text, _ = self.run_class("ShortRange")
        self.assertEqual(status, 1)
        self.assertIn('user.py", line 74, in run', text)
        self.assertIn("warp.read: 2 lanes given, the warp has 4", text)

    def test_a_write_of_a_non_integer(self):
        status, text, _ = self.run_class("FloatWrite")
        self.assertEqual(status, 1)
        self.assertIn("warp.write: lane 2: expected a value (an integer), got 1.5", text)

    def test_a_misspelt_keyword(self):
        status, text, _ = self.run_class("MisspeltKeyword")
        self.assertEqual(status, 1)
        self.assertIn('user.py", line 55, in run', text)
        self.assertIn("warp.read() got an unexpected keyword argument 'spce'", text)

    def test_a_warp_used_after_its_program_ended(self):
        status, text, _ = self.run_class("KeepsItsWarp")
        self.assertEqual(status, 1)
        self.assertIn('user.py", line 64, in verify', text)
        self.assertIn("this warp's program has ended", text)

    def test_run_must_be_a_generator(self):
        status, text, _ = self.run_class("NotAGenerator")
        self.assertEqual(status, 1)
        self.assertIn("NotAGenerator.run(warp) returned None: it must be a generator", text)

    def test_a_failed_verify_is_a_failed_check(self):
        status, text, left = self.run_class("BadVerify")
        self.assertEqual(status, 1)
        self.assertIn("m[0] = 7", text)
        self.assertEqual(left, ["stats.json"])  # a complete run: its statistics say it failed

    def test_a_missing_class_suggests_the_nearest(self):
        status, text, left = self.run_class("Fin")
        self.assertEqual(status, 2)
        self.assertIn("tb.yaml:4:10: program.class: user.py has no class 'Fin' (did you mean "
                      "'Fine'?)", text)
        self.assertEqual(left, [])

    def test_a_missing_file(self):
        status, text, _ = self.run_class("Fine", testbench=TESTBENCH.replace("user.py", "usr.py"))
        self.assertEqual(status, 2)
        self.assertIn("tb.yaml:3:9: program.file: no such file:", text)

    def test_a_file_that_is_not_python(self):
        with scratch() as folder:
            with open(os.path.join(folder, "user.txt"), "w") as f:
                f.write(PROGRAMS)
            with open(os.path.join(folder, "tb.yaml"), "w") as f:
                f.write(TESTBENCH.replace("user.py", "user.txt") % "Fine")
            status, out, err = command("run", "tb.yaml", cwd=folder)
        self.assertEqual(status, 2)
        self.assertEqual(err, "mmsim: tb.yaml:3:9: program.file: "
                              + os.path.join(folder, "user.txt") + ": not a Python file: a "
                              "Python program is a .py file (a C++ program is program.library)\n")

    def test_a_file_that_does_not_import(self):
        status, text, _ = self.run_class("Fine", programs=PROGRAMS + "\n)\n")
        self.assertEqual(status, 2)
        self.assertIn("program.file:", text)
        self.assertIn("SyntaxError", text)

    def test_a_parameter_the_class_does_not_declare(self):
        status, text, _ = self.run_class("Fine", testbench=TESTBENCH.replace(
            "params: {}", "params: {n: 3}"))
        self.assertEqual(status, 2)
        # Found by fuzz/python_program_fuzzer.py: it said "(expected one of: )".
        self.assertIn("tb.yaml:5:12: unknown key 'n' in program.params (there are none)", text)

    def test_the_fine_one_runs(self):
        status, text, left = self.run_class("Fine")
        self.assertEqual(status, 0, text)
        self.assertEqual(left, ["stats.json"])


# What a program's methods return, and how it declares its parameters: each mistake is the
# program's (exit 1) or the input's (exit 2) at the user's own line, never a crash.
RETURNS = """\
import mmsim


class Fine(mmsim.Program):
    def memory_words(self, machine=None):
        return 64

    def run(self, warp):
        yield warp.read([4 * warp.index + lane for lane in range(4)])


class BoundsNone(Fine):
    def bounds(self, machine, result): return None


class BoundsOfNumbers(Fine):
    def bounds(self, machine, result): return [1, 2]


class BoundOfText(Fine):
    def bounds(self, machine, result):
        return [mmsim.Bound("time", "a bound", "abc")]


class BoundChanged(Fine):
    def bounds(self, machine, result):
        b = mmsim.Bound("time", "a bound", 1)
        b.value = "x"
        return [b]


class BoundKind(Fine):
    def bounds(self, machine, result):
        return [mmsim.Bound("time", "a bound", 1, kind="lowr")]


class ParamsFive(Fine):
    params = 5


class ParamsOfNumbers(Fine):
    params = {"n": 5}


class DefaultObject(Fine):
    params = {"n": mmsim.Param(int, default=object())}


class DefaultText(Fine):
    params = {"n": mmsim.Param(int, default="abc")}


class PropertyOverParam(Fine):
    params = {"n": mmsim.Param(int, default=3)}

    @property
    def n(self): return 3


class RaisingSetattr(Fine):
    params = {"n": mmsim.Param(int, default=3)}

    def __setattr__(self, key, value): raise ValueError("no attributes here")


class Memory63(Fine):
    def memory_words(self, machine=None): return 2**63


class Memory64(Fine):
    def memory_words(self, machine=None): return 2**64


class Shared63(Fine):
    def shared_words(self, machine=None): return 2**63


class Shared64(Fine):
    def shared_words(self, machine=None): return 2**64


class Threads62(Fine):
    def default_threads(self, machine): return 2**62


class BoundsOfOneArgument(Fine):
    def bounds(self, machine): return []


class RunWithoutWarp(Fine):
    def run(self): yield None


class VerifyOfNoMemory(Fine):
    def verify(self): pass
"""


def line_of(text, source=RETURNS):
    """The line of `source` that holds `text` (1-based)."""
    return next(i for i, line in enumerate(source.splitlines(), 1) if text in line)


DMM = "model: dmm, width: 4, latency: 2, threads: 8"


def run_program(source, cls, *options, machine=DMM, outputs=""):
    """`mmsim run` of class `cls` of `source` (user.py) on `machine`, in a scratch folder:
    (exit status, standard output, standard error, the files left beside the inputs)."""
    with scratch() as folder:
        with open(os.path.join(folder, "user.py"), "w") as f:
            f.write(source)
        with open(os.path.join(folder, "tb.yaml"), "w") as f:
            f.write(f"machine: {{{machine}}}\nprogram: {{file: user.py, class: {cls}}}\n"
                    f"{outputs}\n")
        status, out, err = command("run", "tb.yaml", *options, cwd=folder)
        left = sorted(n for n in os.listdir(folder) if n not in ("user.py", "tb.yaml",
                                                                  "__pycache__"))
    return status, out, err, left


class ReturnedValues(unittest.TestCase):
    def run_class(self, cls, machine=DMM):
        status, out, err, left = run_program(RETURNS, cls, machine=machine,
                                             outputs="outputs: {stats: stats.json}")
        self.assertEqual(left, [], cls)
        self.assertEqual(out, "")
        return status, err

    def assert_at(self, cls, status, text, message, **machine):
        got_status, err = self.run_class(cls, **machine)
        self.assertEqual(got_status, status, err)
        self.assertIn(f"user.py:{line_of(text)}: {message}", err)
        self.assertNotIn("terminate", err)

    def test_bounds_that_are_no_list(self):
        self.assert_at("BoundsNone", 1, "return None",
                       "BoundsNone.bounds() returned None: expected a list of mmsim.Bound")
        self.assert_at("BoundsOfNumbers", 1, "return [1, 2]",
                       "BoundsOfNumbers.bounds() returned 1 in its list: expected mmsim.Bound")
        self.assert_at("BoundChanged", 1, 'b = mmsim.Bound("time"',
                       "mmsim.Bound 'time': value 'x': expected a finite number")

    def test_a_bound_made_wrong_raises_at_its_line(self):
        for cls, text, message in (
                ("BoundOfText", '"abc")]', "value 'abc': expected a finite number"),
                ("BoundKind", 'kind="lowr"', "kind 'lowr': expected lower, upper, exact, order")):
            status, err = self.run_class(cls)
            self.assertEqual(status, 1, err)
            self.assertIn(f'user.py", line {line_of(text)}, in bounds', err)
            self.assertIn(f"mmsim.Bound 'time': {message}", err)

    def test_params_that_are_not_params(self):
        self.assert_at("ParamsFive", 2, "params = 5", "ParamsFive: params = 5: expected a dict "
                       "of mmsim.Param")
        self.assert_at("ParamsOfNumbers", 2, 'params = {"n": 5}',
                       "ParamsOfNumbers: params['n'] = 5: expected an mmsim.Param")
        self.assert_at("DefaultObject", 2, "default=object()",
                       "DefaultObject: parameter n: default <object object at")
        self.assert_at("DefaultText", 2, 'default="abc"',
                       "DefaultText: parameter n: default 'abc': expected an int (64-bit)")
        self.assert_at("PropertyOverParam", 2, "@property",
                       "PropertyOverParam: parameter n: PropertyOverParam.n is a property "
                       "without a setter")

    def test_a_raising_setattr_is_the_programs_failure(self):
        status, err = self.run_class("RaisingSetattr")
        self.assertEqual(status, 1)
        self.assertIn("RaisingSetattr: setting its parameter n raised an exception", err)
        self.assertIn(f'user.py", line {line_of("def __setattr__")}, in __setattr__', err)
        self.assertIn("ValueError: no attributes here", err)

    def test_memory_sizes_past_the_limits(self):
        for cls, method, key in (("Memory63", "memory_words", "machine.memory"),
                                 ("Memory64", "memory_words", "machine.memory"),
                                 ("Shared63", "shared_words", "machine.shared.memory"),
                                 ("Shared64", "shared_words", "machine.shared.memory")):
            words = 2**int(cls[-2:])
            self.assert_at(cls, 1, f"def {method}(self, machine=None): return 2**{cls[-2:]}",
                           f"{cls}.{method}() returned {words}: more than the limit of 2^32 "
                           f"words ({key})",
                           machine="model: hmm, multiprocessors: 2, width: 4, latency: 2, "
                                   "threads: 8")

    def test_a_thread_count_past_machine_threads_range(self):
        self.assert_at("Threads62", 1, "return 2**62",
                       f"Threads62.default_threads() returned {2**62}: expected a thread count "
                       "from 1 to 2^40", machine="model: dmm, width: 4, latency: 2")

    def test_a_def_that_takes_other_arguments_is_located_at_the_def(self):
        # The call itself raises the TypeError: there is no traceback, the def is the place.
        for cls, text, method, given in (
                ("BoundsOfOneArgument", "def bounds(self, machine): return []", "bounds",
                 "takes 2 positional arguments but 3 were given"),
                ("RunWithoutWarp", "def run(self): yield None", "run",
                 "takes 1 positional argument but 2 were given"),
                ("VerifyOfNoMemory", "def verify(self): pass", "verify",
                 "takes 1 positional argument but 2 were given")):
            self.assert_at(cls, 1, text, f"{cls}.{method}: {cls}.{method}() {given}")

    def test_the_python_api_raises_the_same(self):
        with scratch() as folder:
            path = os.path.join(folder, "user.py")
            with open(path, "w") as f:
                f.write(RETURNS)
            machine = {"model": "dmm", "width": 4, "latency": 2, "threads": 8}
            with self.assertRaises(mmsim.ProgramError) as caught:
                mmsim.run({"machine": machine, "program": {"file": path, "class": "BoundsNone"}})
            self.assertIn(f"user.py:{line_of('return None')}: BoundsNone.bounds()",
                          str(caught.exception))
            with self.assertRaises(mmsim.InputError) as caught:
                mmsim.run({"machine": machine, "program": {"file": path, "class": "ParamsFive"}})
            self.assertEqual((caught.exception.file, caught.exception.line),
                             (path, line_of("params = 5")))
            self.assertTrue(mmsim.run({"machine": machine,
                                       "program": {"file": path, "class": "Fine"}}).cycles > 0)

    def test_a_sweep_reports_each_and_goes_on(self):
        with scratch() as folder:
            with open(os.path.join(folder, "user.py"), "w") as f:
                f.write(RETURNS)
            with open(os.path.join(folder, "tb.yaml"), "w") as f:
                f.write("machine: {model: dmm, width: 4, latency: 2, threads: 8}\n"
                        "program: {file: user.py, class: Fine}\n")
            with open(os.path.join(folder, "sweep.yaml"), "w") as f:
                f.write("name: s\ntestbench: tb.yaml\ncases:\n"
                        + "".join(f"  - {{label: {c}, set: {{program.class: {c}}}}}\n"
                                  for c in ("BoundsNone", "Memory64", "ParamsFive", "Fine")))
            status, _, err = command("sweep", "sweep.yaml", "--jobs", "2",
                                   "--results", "r.jsonl", cwd=folder)
            with open(os.path.join(folder, "r.jsonl")) as f:
                records = {r["case"]: r for r in map(json.loads, f)}
        self.assertEqual(status, 1, err)
        self.assertIn(f"user.py:{line_of('return None')}: BoundsNone.bounds() returned None",
                      records["BoundsNone"]["error"])
        self.assertIn("Memory64.memory_words() returned", records["Memory64"]["error"])
        # The record keeps where the error is, as mmsim run's message does.
        self.assertIn(f"user.py:{line_of('params = 5')}: ParamsFive: params = 5",
                      records["ParamsFive"]["error"])
        # Fine: W(0) and W(1) each read 4 banks once (k = 1), dispatched at 0 and 1; l = 2: the
        # last completes at 1 + 1 + 2 - 2 = 2, 3 time units (docs/semantics.md).
        self.assertEqual(records["Fine"]["stats"]["cycles"], 3)


# A warp's words and instructions, and the memory initialize and verify get, kept beyond their
# time: RuntimeError where they are used, never memory that is gone (valgrind: no invalid read
# or write on each, also across the runs of --policies).
KEPT = """\
import mmsim

kept = []


class Base(mmsim.Program):
    def memory_words(self, machine=None):
        return 64

    def local_words(self, machine=None):
        return 2

    def run(self, warp):
        yield warp.read([4 * warp.index + lane for lane in range(4)])


class KeepsLocal(Base):
    def run(self, warp):
        self.words = warp.local
        yield warp.read([4 * warp.index + lane for lane in range(4)])

    def verify(self, memory):
        self.words[0, 0] = 5


class KeepsRegisters(Base):
    def run(self, warp):
        self.words = warp.registers
        yield warp.read([4 * warp.index + lane for lane in range(4)])

    def bounds(self, machine, result):
        return [mmsim.Bound("x", "x", self.words.sum())] if result["cycles"] else []


class KeepsAcrossRuns(Base):
    def run(self, warp):
        if kept:
            kept[0][0, 0] = 7
        kept[:] = [warp.local]
        yield warp.read([4 * warp.index + lane for lane in range(4)])


class SharesAnInstruction(Base):
    def run(self, warp):
        if not kept:
            kept.append(warp.read([0, 1, 2, 3]))
        yield kept[0]  # warp 0's


class KeepsAnInstruction(Base):
    def run(self, warp):
        if warp.index == 0 and kept:
            yield kept[0]  # made in the run before
        instruction = warp.read([4 * warp.index + lane for lane in range(4)])
        if warp.index == 0:
            kept[:] = [instruction]
        yield instruction


class KeepsItself(Base):
    def run(self, warp):
        if kept:
            kept[0].check(1, 1, "the run before's check")
        kept[:] = [self]
        yield warp.read([4 * warp.index + lane for lane in range(4)])


class KeepsTheMemory(Base):
    def initialize(self, memory):
        self.memory = memory

    def verify(self, memory):
        self.memory[0]
"""


class KeptBeyondTheirTime(unittest.TestCase):
    def run_class(self, cls, *options):
        status, out, err, _ = run_program(KEPT, cls, *options)
        self.assertEqual(status, 1, out + err)
        return err

    def assert_raises_at(self, cls, text, method, message, *options):
        err = self.run_class(cls, *options)
        self.assertIn(f'user.py", line {line_of(text, KEPT)}, in {method}', err)
        self.assertIn(f"RuntimeError: {message}", err)

    def test_local_memory_kept_past_its_warp(self):
        self.assert_raises_at("KeepsLocal", "self.words[0, 0] = 5", "verify",
                              "this warp's program has ended")

    def test_registers_kept_past_the_run(self):
        # bounds() runs once before the run (cycles 0) and once after, the machine gone.
        self.assert_raises_at("KeepsRegisters", "self.words.sum()", "bounds",
                              "this warp's program has ended")

    def test_local_memory_kept_into_the_next_run(self):
        self.assert_raises_at("KeepsAcrossRuns", "kept[0][0, 0] = 7", "run",
                              "this warp's program has ended", "--policies", "all")

    def test_an_instruction_kept_into_another_warp_and_run(self):
        self.assert_raises_at("SharesAnInstruction", "yield kept[0]  # warp 0's", "run",
                              "this instruction was made by warp 0: a warp yields only the "
                              "instructions it makes while its program runs")
        self.assert_raises_at("KeepsAnInstruction", "# made in the run before", "run",
                              "this instruction was made by warp 0, whose program has ended",
                              "--policies", "all", "--profile")

    def test_a_program_kept_into_the_next_run(self):
        self.assert_raises_at("KeepsItself", "kept[0].check(1, 1", "run",
                              "this program's run has ended: check() belongs in its run",
                              "--policies", "all")

    def test_the_memory_kept_past_initialize(self):
        self.assert_raises_at("KeepsTheMemory", "self.memory[0]", "verify",
                              "this memory was initialize()'s or verify()'s: it is gone once "
                              "the call returns")


# Lanes that are no addresses or values, standard output while it carries the statistics, and a
# program that tries to end the process.
LANES_AND_EXITS = """\
import os

import numpy as np

import mmsim


class Base(mmsim.Program):
    def memory_words(self, machine=None):
        return 64

    def run(self, warp):
        yield warp.read([4 * warp.index + lane for lane in range(4)])


class NoneAsAValue(Base):
    def run(self, warp):
        yield warp.write([4 * warp.index + lane for lane in range(4)], [5, None, 7, 8])


class NoneAtAnInactiveLane(Base):
    def run(self, warp):
        first = 4 * warp.index
        yield warp.write([first, None, first + 2, first + 3], [5, None, 7, 8])

    def verify(self, memory):
        self.check(memory[0:4], np.array([5, 0, 7, 8]), "m[0:4]")


class BooleanArray(Base):
    def run(self, warp):
        yield warp.read(np.array([True, False, True, False]))


class BooleanInAList(Base):
    def run(self, warp):
        yield warp.read([True, 1, 2, 3])


class TwoDimensions(Base):
    def run(self, warp):
        yield warp.read(np.zeros((2, 2), dtype=np.int32))


class PastInt64(Base):
    def run(self, warp):
        yield warp.read(np.array([2**63 + 1, 0, 1, 2], dtype=np.uint64))


class Prints(Base):
    def run(self, warp):
        print("warp", warp.index, "starts")
        yield warp.read([4 * warp.index + lane for lane in range(4)])


class EndsTheProcess(Base):
    def run(self, warp):
        yield warp.read([4 * warp.index + lane for lane in range(4)])
        os._exit(0)
"""


class LanesOutputAndExit(unittest.TestCase):
    def run_class(self, cls, *options, outputs="outputs: {stats: stats.json, vcd: trace.vcd}"):
        return run_program(LANES_AND_EXITS, cls, *options, outputs=outputs)

    def assert_raises_at(self, cls, text, message):
        status, _, err, left = self.run_class(cls)
        self.assertEqual((status, left), (1, []), err)
        self.assertIn(f'user.py", line {line_of(text, LANES_AND_EXITS)}, in run', err)
        self.assertIn(message, err)

    def test_none_is_no_value(self):
        self.assert_raises_at("NoneAsAValue", "[5, None, 7, 8])", "TypeError: warp.write: lane "
                              "1: None is not a value (an inactive lane is None in the addresses)")
        status, _, err, _ = self.run_class("NoneAtAnInactiveLane")
        self.assertEqual(status, 0, err)

    def test_booleans_are_no_addresses(self):
        self.assert_raises_at("BooleanArray", "np.array([True", "TypeError: warp.read: an "
                              "address of dtype bool: booleans are not addresses")
        self.assert_raises_at("BooleanInAList", "[True, 1, 2, 3]", "TypeError: warp.read: lane "
                              "0: True is not an address (an integer, or None for an inactive "
                              "lane)")

    def test_two_dimensional_lanes_say_what_was_given(self):
        self.assert_raises_at("TwoDimensions", "np.zeros((2, 2)", "ValueError: warp.read: an "
                              "array of shape (2, 2) given: expected 4 lanes, one dimension")

    def test_an_unsigned_address_is_shown_unsigned(self):
        self.assert_raises_at("PastInt64", "2**63 + 1", "IndexError: warp.read: lane 0: address "
                              "9223372036854775809 is outside the global memory of 64 words")

    def test_print_goes_to_standard_error_beside_the_statistics(self):
        status, out, err, _ = self.run_class("Prints", "--stats", "-", outputs="")
        self.assertEqual(status, 0, err)
        self.assertEqual(json.loads(out)["cycles"], 3)  # standard output: the statistics only
        self.assertIn("warp 0 starts\nwarp 1 starts\n", err)

    def test_a_program_cannot_end_the_process(self):
        status, _, err, left = self.run_class("EndsTheProcess")
        self.assertEqual((status, left), (1, []), err)
        self.assertIn(f'user.py", line {line_of("os._exit(0)", LANES_AND_EXITS)}, in run', err)
        self.assertIn("ProcessExit: os._exit(0): a program must not end the process", err)
        with scratch() as folder:
            path = os.path.join(folder, "user.py")
            with open(path, "w") as f:
                f.write(LANES_AND_EXITS)
            with self.assertRaises(mmsim.ProgramError):
                mmsim.run({"machine": {"model": "dmm", "width": 4, "latency": 2, "threads": 8},
                           "program": {"file": path, "class": "EndsTheProcess"}},
                          stats=os.path.join(folder, "stats.json"))
            self.assertEqual(sorted(os.listdir(folder)), ["user.py"])


# An instruction made and never yielded never runs: the program is wrong, at that line.
FORGOTTEN = """\
import mmsim


class Base(mmsim.Program):
    def memory_words(self, machine=None):
        return 64

    def run(self, warp):
        yield warp.read([4 * warp.index + lane for lane in range(4)])


class ForgetsAYield(Base):
    def run(self, warp):
        warp.read([4 * warp.index + lane for lane in range(4)])
        yield warp.write([4 * warp.index + lane for lane in range(4)])


class ForgetsTheLastYield(Base):
    def run(self, warp):
        yield warp.read([4 * warp.index + lane for lane in range(4)])
        warp.syncthreads()


class MakesAheadAndYieldsLater(Base):
    def run(self, warp):
        made = [warp.read([4 * warp.index + lane for lane in range(4)]) for _ in range(3)]
        for instruction in made:
            yield instruction
"""


class ForgottenYield(unittest.TestCase):
    def run_class(self, cls):
        return run_program(FORGOTTEN, cls)[:3]

    def assert_forgotten(self, cls, text):
        status, out, err = self.run_class(cls)
        self.assertEqual((status, out), (1, ""), err)
        self.assertIn(f"user.py:{line_of(text, FORGOTTEN)}: an instruction made here in warp 0 "
                      "was never yielded, so it never ran: yield it", err)

    def test_an_instruction_dropped_when_the_generator_resumes(self):
        self.assert_forgotten("ForgetsAYield", "        warp.read([4")

    def test_an_instruction_dropped_when_the_generator_ends(self):
        self.assert_forgotten("ForgetsTheLastYield", "        warp.syncthreads()")

    def test_instructions_made_ahead_and_yielded_later_run(self):
        status, out, err = self.run_class("MakesAheadAndYieldsLater")
        self.assertEqual(status, 0, err)
        # 3 reads per warp, 1 stage each, the two warps alternating, l = 2: the last (W(1)'s
        # third) dispatched at 5 completes at 5 + 1 + 2 - 2 = 6: 7 time units.
        self.assertIn("cycles       7", out)


if __name__ == "__main__":
    unittest.main()
