"""The address map sweep (configs/sweeps/address_maps.yaml) from Python, cell by cell as a
notebook would run it (`# %%` starts a cell: Jupyter through jupytext, VS Code, Spyder): run the
sweep, tabulate the total congestion of each access under each map, draw it against w.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/address_maps_sweep.py maps.png
"""

# %% Run the sweep on every core: one record per run (a pandas DataFrame when pandas is there).
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

import mmsim

here = os.path.dirname(os.path.abspath(__file__))
sweep = os.path.join(here, "..", "..", "configs", "sweeps", "address_maps.yaml")
records = mmsim.sweep(sweep)
if not isinstance(records, list):
    records = records.to_dict("records")
records.sort(key=lambda r: r["index"])  # the sweep's order (the file holds them as they ended)


# %% The stages of each run, by access, map and w; a map of one's own by its class's name.
def map_name(value):
    return value.rsplit(":", 1)[-1]


stages = {}
for r in records:
    values = r["values"]
    stages[r["case"], map_name(values["machine.address_map"]), values["machine.width"]] = \
        r["stats"]["stages"]
cases = sorted({case for case, _, _ in stages})
maps = list(dict.fromkeys(name for _, name, _ in stages))
widths = sorted({w for _, _, w in stages})

# %% A table per access: a row per map, a column per w.
for case in cases:
    print(f"\n{case}: total congestion (stages)")
    print(f"{'map':<18}" + "".join(f"{f'w = {w}':>10}" for w in widths))
    for name in maps:
        print(f"{name:<18}" + "".join(f"{stages[case, name, w]:>10}" for w in widths))

# %% The same, drawn: stages against w, a line per map, a panel per access.
figure, axes = plt.subplots(1, len(cases), figsize=(4 * len(cases), 3.5), sharey=True)
for axis, case in zip(axes, cases):
    for name in maps:
        axis.plot(widths, [stages[case, name, w] for w in widths], marker="o", label=name)
    axis.set_xscale("log", base=2)
    axis.set_yscale("log", base=2)
    axis.set_xlabel("w")
    axis.set_title(case)
axes[0].set_ylabel("stages")
axes[-1].legend(fontsize="small")
figure.tight_layout()
figure.savefig(sys.argv[1] if len(sys.argv) > 1 else "address_maps.png")
