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


def run_user_file(name, code, testbench):
    """`mmsim run tb.yaml` in a scratch folder that holds the user's file `name` (its `code`)
    and tb.yaml (`testbench`): (exit status, output and errors, what else the run left)."""
    with scratch() as folder:
        with open(os.path.join(folder, name), "w") as f:
            f.write(code)
        path = os.path.join(folder, "tb.yaml")
        with open(path, "w") as f:
            f.write(testbench)
        status, out, err = mmsim("run", path, cwd=folder)
        left = sorted(set(os.listdir(folder)) - {name, "tb.yaml", "__pycache__"})
    return status, out + err, left


# The statistics that describe what the machine did (docs/statistics.md): a program and its
# twin must agree on every one of them; the program's name, parameters, bounds and own
# figures, the wall time and the provenance may differ.
MACHINE_STATISTICS = ["cycles", "dispatches", "stages", "max_stages", "requests", "syncthreads",
                      "grid_syncs", "verified", "memory_words", "memories", "stage_histogram",
                      "bank_requests", "group_requests", "waiting", "warp_time", "time_series",
                      "races", "block_syncthreads"]


def machine_statistics(stats):
    return {key: stats.get(key) for key in MACHINE_STATISTICS}
