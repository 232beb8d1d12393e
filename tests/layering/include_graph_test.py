#!/usr/bin/python3
"""Tests scripts/include_graph --check on small trees made for each rule (it reads a tree of the
repository it lies in, so each case copies it into a scratch repository of its own):

- a tree in its declared order, each interface above its implementations, passes;
- a folder that the README's order leaves out fails, named;
- an arrow from a folder to one declared after it fails, file to file;
- two folders that include each other fail as a cycle (and with the arrow back up);
- an interface whose .cpp includes its implementations, which include the interface (a cycle of
  units inside a folder), fails with the .cpp's arrows; the table moved into a unit of its own,
  on top, passes;
- two headers that include each other fail with both arrows.

  tests/layering/include_graph_test.py SOURCE_DIR
"""
import pathlib
import shutil
import subprocess
import sys
import tempfile

SCRIPT = pathlib.Path(sys.argv[1]) / "scripts" / "include_graph"
failures = []


def run(files, order):
    """include_graph t --check over a tree t/ of `files` ({path: [included paths of t]}), with a
    README ordering `order`: (exit status, standard error's lines)."""
    with tempfile.TemporaryDirectory(prefix="include_graph_test.") as root:
        root = pathlib.Path(root)
        (root / "scripts").mkdir()
        shutil.copy(SCRIPT, root / "scripts" / "include_graph")
        tree = root / "t"
        for name, includes in files.items():
            path = tree / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("".join(f'#include "t/{i}"\n' for i in includes), encoding="utf-8")
        rows = "".join(f"| `{folder}/` | it |\n" for folder in order)
        (tree / "README.md").write_text("| folder | what |\n|---|---|\n" + rows, encoding="utf-8")
        done = subprocess.run([str(root / "scripts" / "include_graph"), "t", "--check"],
                              capture_output=True, text=True)
        return done.returncode, done.stderr.splitlines()


def expect(case, files, order, status, lines):
    got_status, got_lines = run(files, order)
    if (got_status, got_lines) != (status, lines):
        failures.append(f"{case}: expected exit {status} and {lines}, got exit {got_status} and "
                        f"{got_lines}")


LAYERED = {
    "a/base.hpp": [],
    "a/base.cpp": ["a/base.hpp"],
    "b/policy.hpp": ["a/base.hpp"],
    "b/policy.cpp": ["b/policy.hpp"],
    "b/first_policy.hpp": ["b/policy.hpp"],
    "b/first_policy.cpp": ["b/first_policy.hpp"],
    "b/policy_table.cpp": ["b/first_policy.hpp"],
}
expect("layered", LAYERED, ["a", "b"], 0, [])

expect("a folder left out", {**LAYERED, "c/tool.cpp": ["b/policy.hpp"]}, ["a", "b"], 1,
       ["include_graph: t/: c/ is not in the declared order"])

expect("an arrow back up between folders", {**LAYERED, "a/base.cpp": ["b/policy.hpp"]},
       ["a", "b"], 1,
       ["include_graph: t/: folders in a cycle: a, b",
        "include_graph: t/: arrow back up between folders: t/a/base.cpp -> t/b/policy.hpp"])

expect("an arrow back up to a folder that does not include the first",
       {"a/x.hpp": ["b/y.hpp"], "b/y.hpp": []}, ["a", "b"], 1,
       ["include_graph: t/: arrow back up between folders: t/a/x.hpp -> t/b/y.hpp"])

TABLE_IN_INTERFACE = {**LAYERED, "b/policy.cpp": ["b/policy.hpp", "b/first_policy.hpp"],
                      "b/second_policy.hpp": ["b/policy.hpp"]}
TABLE_IN_INTERFACE["b/policy.cpp"].append("b/second_policy.hpp")
del TABLE_IN_INTERFACE["b/policy_table.cpp"]
expect("the table in the interface's source file", TABLE_IN_INTERFACE, ["a", "b"], 1,
       ["include_graph: t/: arrow back up inside a folder: t/b/policy.cpp -> t/b/first_policy.hpp",
        "include_graph: t/: arrow back up inside a folder: t/b/policy.cpp -> "
        "t/b/second_policy.hpp"])

TABLE_ON_TOP = {**TABLE_IN_INTERFACE, "b/policy.cpp": ["b/policy.hpp"],
                "b/policy_table.cpp": ["b/first_policy.hpp", "b/second_policy.hpp"]}
expect("the table on top", TABLE_ON_TOP, ["a", "b"], 0, [])

expect("two headers that include each other",
       {"a/x.hpp": ["a/y.hpp"], "a/y.hpp": ["a/x.hpp"]}, ["a"], 1,
       ["include_graph: t/: arrow back up inside a folder: t/a/x.hpp -> t/a/y.hpp",
        "include_graph: t/: arrow back up inside a folder: t/a/y.hpp -> t/a/x.hpp"])

for failure in failures:
    print(failure)
sys.exit(1 if failures else 0)
