"""Every script of scripts/ answers --help and -h with its usage and exit status 0, and does
nothing else; the files of scripts/ that are not commands are the ones named here."""

import os
import stat
import subprocess
import tempfile
import unittest

SCRIPTS = os.path.join(os.environ["MMSIM_SOURCE_DIR"], "scripts")

# Read by the commands, not run: sourced shell, GTKWave's Tcl, node's script, suppressions.
NOT_COMMANDS = {"help_option", "sanitizer_options", "gtkwave_view.tcl", "timeline_screenshot.js",
                "lsan.supp"}


def commands():
    return sorted(name for name in os.listdir(SCRIPTS)
                  if os.stat(os.path.join(SCRIPTS, name)).st_mode & stat.S_IXUSR)


class Help(unittest.TestCase):
    def test_the_files_that_are_not_commands(self):
        self.assertEqual(set(os.listdir(SCRIPTS)) - set(commands()), NOT_COMMANDS)

    def test_every_script_answers_help_with_its_usage(self):
        self.assertGreaterEqual(len(commands()), 20)
        for name in commands():
            for option in ("--help", "-h"):
                with self.subTest(script=name, option=option), \
                        tempfile.TemporaryDirectory(prefix="mmsim-scripts-test-") as folder:
                    done = subprocess.run([os.path.join(SCRIPTS, name), option], cwd=folder,
                                          capture_output=True, text=True, timeout=60)
                    self.assertEqual(done.returncode, 0, done.stderr)
                    self.assertEqual(done.stderr, "")
                    lines = done.stdout.split("\n")
                    self.assertTrue(lines[0].startswith(f"usage: scripts/{name}"), lines[0])
                    # More than the usage: what the script does.
                    self.assertGreater(len(done.stdout), len(lines[0]) + 40, done.stdout)
                    self.assertEqual(os.listdir(folder), [])

    def test_help_comes_before_any_work(self):
        # Without --help, scripts/build would configure and build; with it, nothing is made.
        with tempfile.TemporaryDirectory(prefix="mmsim-scripts-test-") as folder:
            build = os.path.join(folder, "build")
            done = subprocess.run([os.path.join(SCRIPTS, "build"), "--help"], capture_output=True,
                                  text=True, timeout=60, env=dict(os.environ, BUILD_DIR=build))
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertFalse(os.path.exists(build))
            self.assertIn("BUILD_TARGET", done.stdout)


if __name__ == "__main__":
    unittest.main()
