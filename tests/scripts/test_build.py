"""scripts/build shows its configure step: what cmake finds the first time, one line later,
then the build's progress (here of mmsim_version, the smallest target, in a build folder of
its own)."""

import os
import subprocess
import tempfile
import unittest

BUILD = os.path.join(os.environ["MMSIM_SOURCE_DIR"], "scripts", "build")


class Build(unittest.TestCase):
    def test_the_configure_step_shows_its_progress(self):
        with tempfile.TemporaryDirectory(prefix="mmsim-build-test-") as folder:
            build = os.path.join(folder, "build")
            environment = dict(os.environ, BUILD_DIR=build, BUILD_TARGET="mmsim_version")

            def run():
                done = subprocess.run([BUILD], capture_output=True, text=True, timeout=300,
                                      env=environment)
                self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
                return done.stdout.split("\n")

            first = run()
            self.assertEqual(first[0], f"scripts/build: configuring {build} for the first time")
            self.assertIn("-- Configuring done", "\n".join(first))
            self.assertTrue(any(line.startswith("-- Found GTest") for line in first), first)
            jobs = len(os.sched_getaffinity(0))  # nproc
            building = f"scripts/build: building mmsim_version in {build} with {jobs} jobs"
            self.assertIn(building, first)
            self.assertTrue(any("Built target mmsim_version" in line for line in first), first)
            again = run()
            self.assertEqual(again[0], f"scripts/build: configuring {build}")
            self.assertEqual(again[1], building)
            self.assertFalse(any(line.startswith("--") for line in again), again)


if __name__ == "__main__":
    unittest.main()
