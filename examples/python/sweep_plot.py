"""A sweep from Python, drawn: the naive and the diagonal transposes written in Python
(transposes.py) over the latency, cycles against l (matplotlib).

    PYTHONPATH=build/python /usr/bin/python3 examples/python/sweep_plot.py transposes.png
"""

import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

import mmsim

here = os.path.dirname(os.path.abspath(__file__))
records = mmsim.sweep(os.path.join(here, "transposes_sweep.yaml"), jobs=2)
if not isinstance(records, list):  # a pandas DataFrame
    records = records.to_dict("records")

figure, axes = plt.subplots(figsize=(5, 3.5))
for case in ("naive", "diagonal"):
    runs = sorted((r["values"]["machine.latency"], r["stats"]["cycles"])
                  for r in records if r["case"] == case)
    axes.plot([l for l, _ in runs], [c for _, c in runs], marker="o", label=case)
axes.set_xscale("log", base=2)
axes.set_xlabel("latency l")
axes.set_ylabel("cycles")
axes.set_title("transposes of 32 x 32 on the DMM, p = 256")
axes.legend()
figure.tight_layout()
figure.savefig(sys.argv[1] if len(sys.argv) > 1 else "transposes.png")
