"""Errors in Python programs are the user's to read (docs/own_programs.md, "When it goes
wrong"): a clear message at their own file and line, exit status 1 (the program failed) or 2
(the input is invalid), and no output left behind."""

import os
import textwrap
import unittest

from support import mmsim, scratch

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
"""


class ProgramErrors(unittest.TestCase):
    def run_class(self, cls, programs=PROGRAMS, testbench=TESTBENCH):
        with scratch() as folder:
            with open(os.path.join(folder, "user.py"), "w") as f:
                f.write(programs)
            path = os.path.join(folder, "tb.yaml")
            with open(path, "w") as f:
                f.write(testbench % cls)
            status, out, err = mmsim("run", path, cwd=folder)
            left = sorted(n for n in os.listdir(folder) if n not in ("user.py", "tb.yaml",
                                                                      "__pycache__"))
        return status, out + err, left

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

    def test_a_file_that_does_not_import(self):
        status, text, _ = self.run_class("Fine", programs=PROGRAMS + "\n)\n")
        self.assertEqual(status, 2)
        self.assertIn("program.file:", text)
        self.assertIn("SyntaxError", text)

    def test_a_parameter_the_class_does_not_declare(self):
        status, text, _ = self.run_class("Fine", testbench=TESTBENCH.replace(
            "params: {}", "params: {n: 3}"))
        self.assertEqual(status, 2)
        self.assertIn("tb.yaml:5", text)
        self.assertIn("'n'", text)

    def test_the_fine_one_runs(self):
        status, text, left = self.run_class("Fine")
        self.assertEqual(status, 0, text)
        self.assertEqual(left, ["stats.json"])


if __name__ == "__main__":
    unittest.main()
