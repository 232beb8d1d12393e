"""What the Python tests share: the mmsim under test, the repository, scratch folders."""

import os
import subprocess
import tempfile

MMSIM = os.environ["MMSIM_BINARY"]
SOURCE = os.environ["MMSIM_SOURCE_DIR"]
EXAMPLES = os.path.join(SOURCE, "examples", "python")
CONFIGS = os.path.join(SOURCE, "configs")


def mmsim(*args, cwd=None):
    """Runs the mmsim command: (exit status, standard output, standard error)."""
    done = subprocess.run([MMSIM, *args], cwd=cwd, capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout, done.stderr


def scratch():
    return tempfile.TemporaryDirectory(prefix="mmsim-python-test-")


# The statistics that describe what the machine did (docs/statistics.md): a program and its
# twin must agree on every one of them; the program's name, parameters, bounds and own
# figures, the wall time and the provenance may differ.
MACHINE_STATISTICS = ["cycles", "dispatches", "stages", "max_stages", "requests", "syncthreads",
                      "grid_syncs", "verified", "memory_words", "memories", "stage_histogram",
                      "bank_requests", "group_requests", "waiting", "warp_time", "time_series",
                      "races", "block_syncthreads"]


def machine_statistics(stats):
    return {key: stats.get(key) for key in MACHINE_STATISTICS}
