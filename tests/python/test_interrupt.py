"""Ctrl-C during mmsim.run() (docs/python.md): the run stops, removes the outputs it had begun,
and KeyboardInterrupt is raised in the caller's Python, which goes on (a Jupyter kernel
survives). A child Python runs a long run and is sent SIGINT from this process."""

import os
import signal
import subprocess
import sys
import textwrap
import time
import unittest

from support import scratch

CHILD = textwrap.dedent("""\
    import os
    import sys

    import mmsim

    folder, kind = sys.argv[1], sys.argv[2]
    with open(os.path.join(folder, "endless.py"), "w") as f:
        f.write("import mmsim\\n"
                "class Endless(mmsim.Program):\\n"
                "    def memory_words(self, machine=None): return 8\\n"
                "    def run(self, warp):\\n"
                "        while True:\\n"
                "            yield warp.read([0, 1, 2, 3])\\n"
                "class Stuck(mmsim.AddressMap):\\n"
                "    def banks(self, row):\\n"
                "        while True:\\n"
                "            pass\\n")
    machine = {"model": "umm", "width": 4, "latency": 2, "threads": 64}
    if kind == "map":  # an address map whose banks(row) never returns
        machine = {"model": "dmm", "width": 4, "latency": 2, "threads": 64,
                   "address_map": {"file": os.path.join(folder, "endless.py"), "class": "Stuck"}}
    # Built-in: 2^24 words read 4 per dispatch, about a second on a laptop; Python: endless
    # (the map's first row never comes).
    program = ({"name": "contiguous_access", "params": {"n": 2**24}} if kind != "python" else
               {"file": os.path.join(folder, "endless.py"), "class": "Endless"})
    # The endless one writes a waveform as well, its .partial growing until the signal.
    vcd = os.path.join(folder, "w.vcd") if kind == "python" else ""
    print("started", flush=True)
    try:
        mmsim.run({"machine": machine, "program": program},
                  stats=os.path.join(folder, "stats.json"), vcd=vcd)
        print("finished")
    except KeyboardInterrupt:
        print("interrupted", sorted(os.listdir(folder)))
    # The interpreter goes on: contiguous access, 2 warps, n = 64, l = 5 (test_api.py): 41.
    print(mmsim.run({"machine": {"model": "dmm", "width": 4, "latency": 5, "threads": 8},
                     "program": {"name": "contiguous_access", "params": {"n": 64}}}).cycles)
""")


class CtrlC(unittest.TestCase):
    def interrupt(self, kind, after):
        with scratch() as folder:
            child = subprocess.Popen([sys.executable, "-c", CHILD, folder, kind],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            self.assertEqual(child.stdout.readline(), "started\n")
            time.sleep(after)
            child.send_signal(signal.SIGINT)
            out, err = child.communicate(timeout=120)
            left = sorted(os.listdir(folder))
        self.assertEqual((child.returncode, out), (0, "interrupted ['endless.py']\n41\n"), err)
        self.assertEqual(left, ["endless.py"])

    def test_a_built_in_program(self):
        self.interrupt("builtin", 0.1)

    def test_a_python_program_that_never_ends(self):
        self.interrupt("python", 0.5)

    def test_a_python_address_map_that_never_returns(self):
        self.interrupt("map", 0.5)


if __name__ == "__main__":
    unittest.main()
