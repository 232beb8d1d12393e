"""scripts/render_notebooks, which runs the notebook gallery in the test suite
(docs/installing-python.md, "Notebooks"): a cell that raises fails the notebook, a notebook
stored with outputs is refused, and a notebook that runs is rendered with its outputs."""

import os
import subprocess
import sys
import unittest

import nbformat
from nbformat.v4 import new_code_cell, new_notebook, new_output

from support import SOURCE, scratch

SCRIPT = os.path.join(SOURCE, "scripts", "render_notebooks")


def write_notebook(path, *sources):
    notebook = new_notebook(cells=[new_code_cell(source) for source in sources])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    nbformat.write(notebook, path)
    return notebook


def render(folder, *args):
    done = subprocess.run([sys.executable, SCRIPT, *args], cwd=folder, capture_output=True,
                          text=True, timeout=300)
    return done.returncode, done.stdout, done.stderr


class RenderNotebooks(unittest.TestCase):
    def test_a_notebook_runs_in_its_folder_and_is_rendered(self):
        with scratch() as folder:
            os.makedirs(os.path.join(folder, "gallery"))
            with open(os.path.join(folder, "gallery", "data.txt"), "w") as f:
                f.write("6\n")
            write_notebook(os.path.join(folder, "gallery", "fine.ipynb"),
                           "import mmsim\nvalue = int(open('data.txt').read()) * 7",
                           "print('the answer', value, mmsim.run('''\n"
                           "machine: {model: dmm, width: 4, latency: 3, threads: 8}\n"
                           "program: {name: trace, warps: [[{read: [0, 1, 5, 10]}],"
                           " [{read: [8, 9, 14, 15]}]]}\n''').cycles)")
            status, out, err = render(folder, "--html", "html", "gallery/fine.ipynb")
            self.assertEqual(status, 0, err)
            self.assertIn("gallery/fine.ipynb: 2 cells ran in", out)
            with open(os.path.join(folder, "html", "fine.html")) as f:
                page = f.read()
            self.assertIn("the answer 42 5", page)  # Nakano 2012, Fig. 4: 5 time units
            self.assertEqual(sorted(os.listdir(os.path.join(folder, "html"))), ["fine.html"])

    def test_a_cell_that_raises_fails_the_notebook(self):
        with scratch() as folder:
            write_notebook(os.path.join(folder, "failing.ipynb"), "x = 1",
                           "assert x == 2, 'x is not 2'", "print('never')")
            status, out, err = render(folder, "--html", "html", "failing.ipynb")
            self.assertEqual(status, 1, err)
            self.assertIn("render_notebooks: failing.ipynb: a cell failed:", err)
            self.assertIn("assert x == 2, 'x is not 2'", err)
            self.assertIn("AssertionError: x is not 2", err)
            self.assertNotIn("\x1b[", err)  # without the terminal's colours
            self.assertEqual(os.listdir(os.path.join(folder, "html")), [])

    def test_a_notebook_stored_with_outputs_is_refused(self):
        with scratch() as folder:
            path = os.path.join(folder, "stored.ipynb")
            notebook = write_notebook(path, "1 + 1", "2 + 2")
            notebook.cells[1].outputs = [new_output("execute_result", {"text/plain": "4"},
                                                    execution_count=1)]
            notebook.cells[1].execution_count = 1
            nbformat.write(notebook, path)
            status, out, err = render(folder, "stored.ipynb")
            self.assertEqual(status, 1, err)
            self.assertEqual(err, "render_notebooks: stored.ipynb: cell 2 is stored with outputs: "
                             "clear them (the gallery is stored without outputs)\n")

    def test_the_gallery_is_stored_without_outputs(self):
        gallery = os.path.join(SOURCE, "examples", "notebooks")
        names = sorted(os.listdir(gallery))
        self.assertGreaterEqual(len(names), 3)
        for name in names:
            with self.subTest(notebook=name):
                notebook = nbformat.read(os.path.join(gallery, name), as_version=4)
                nbformat.validate(notebook)
                for cell in notebook.cells:
                    if cell.cell_type == "code":
                        self.assertEqual((cell.outputs, cell.execution_count), ([], None))


if __name__ == "__main__":
    unittest.main()
