"""scripts/plot_timeline on timelines of this build's mmsim: rows named as the timeline names
them on a flat machine and on the hierarchical one (every SM alike), and the sites of a
program outside the tree shown from the current folder, or by file name."""

import importlib.machinery
import importlib.util
import json
import os
import subprocess
import tempfile
import unittest

SOURCE = os.environ["MMSIM_SOURCE_DIR"]
MMSIM = os.environ["MMSIM_BINARY"]
SCRIPT = os.path.join(SOURCE, "scripts", "plot_timeline")


def load_script():
    loader = importlib.machinery.SourceFileLoader("plot_timeline", SCRIPT)
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module


plot_timeline = load_script()


def timeline(folder, testbench, *options):
    """The events of `mmsim run TESTBENCH --timeline`."""
    path = os.path.join(folder, "timeline.json")
    done = subprocess.run([MMSIM, "run", os.path.join(SOURCE, testbench), "--timeline", path,
                           *options], capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise AssertionError(done.stdout + done.stderr)
    with open(path) as f:
        return path, json.load(f)["traceEvents"]


def tracks(events):
    return sorted({(e["pid"], e["tid"]) for e in events if e.get("ph") == "X"})


class PlotTimeline(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.TemporaryDirectory(prefix="mmsim-plot-timeline-test-")
        self.folder = self.scratch.name

    def tearDown(self):
        self.scratch.cleanup()

    def test_rows_of_a_flat_machine(self):
        _, events = timeline(self.folder, "configs/dmm_fig4.yaml")
        self.assertEqual(plot_timeline.row_labels(events, tracks(events)), ["warp 0", "warp 1"])

    def test_rows_of_every_sm_alike_and_the_sites_of_a_python_program(self):
        # d = 4 SMs of 8 warps.
        path, events = timeline(self.folder, "examples/python/block_reduction.yaml")
        self.assertEqual(plot_timeline.row_labels(events, tracks(events)),
                         [f"SM {warp // 8} warp {warp}" for warp in range(32)])
        sites = {e["args"]["site"] for e in events if e.get("ph") == "X"}
        program = os.path.join(SOURCE, "examples", "python", "block_reduction.py")
        self.assertGreaterEqual(len(sites), 5)
        for site in sites:
            self.assertTrue(site.startswith(program + ":"), site)
            line = site[len(program):]  # ":LINE (run)"
            self.assertEqual(plot_timeline.shown_site(site, SOURCE),
                             "examples/python/block_reduction.py" + line)
            self.assertEqual(plot_timeline.shown_site(site, self.folder),
                             "block_reduction.py" + line)
        # Drawn from the top folder of the tree.
        picture = os.path.join(self.folder, "timeline.png")
        done = subprocess.run([SCRIPT, path, picture, "--warps", "12"], cwd=SOURCE,
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout, picture + "\n")
        with open(picture, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def test_sites_in_the_tree_stay_as_they_are(self):
        _, events = timeline(self.folder, "configs/transpose_naive_dmm.yaml",
                             "--timeline-to", "100")
        sites = {e["args"]["site"] for e in events if e.get("ph") == "X"}
        self.assertIn("sw/programs/transpose.cpp:56 (run)", sites)
        for site in sites:
            self.assertEqual(plot_timeline.shown_site(site, self.folder), site)

    def test_a_wrong_command_line_shows_the_usage(self):
        done = subprocess.run([SCRIPT, "only_one.json"], capture_output=True, text=True,
                              timeout=60)
        self.assertEqual(done.returncode, 2)
        self.assertEqual(done.stderr, "scripts/plot_timeline: usage: scripts/plot_timeline "
                                      "TIMELINE.json OUT.png [--warps N]\n")


if __name__ == "__main__":
    unittest.main()
