#!/usr/bin/python3
"""Runs every snippet of Markdown pages as the page shows it, so that the docs cannot drift
from what mmsim does. The convention (docs/testing.md, "The documentation's tests"):

- Every fenced block names its language. The blocks of a page run in order, in one scratch
  copy of the repository per page (configs/, examples/ and scripts/ copied, build/mmsim the
  mmsim under test), from its top folder, so a block may use the files an earlier one wrote.
- ```yaml: a complete testbench, run with `mmsim run`; it must exit with status 0.
- ```console: lines starting with "$ " are commands (a line ending in "\\" continues on the
  next); the lines after a command, up to the next, are its expected output (standard output
  and standard error together). A line "..." stands for any number of lines, and "..." inside
  a line for any text in it; trailing spaces do not count. A command must exit with status 0,
  unless its output ends with the line "(exit status N)". A command shown without output has
  its output not compared.
- ```sh: commands without shown output, one per line ("\\" continues), each must exit 0.
- Any other language (text, csv, ...) is not run, and may not hold a "$ " command.
- An HTML comment on the line before the fence changes what happens to the block:
    <!-- doctest: skip REASON -->          not run; the reason says why (it installs
                                           packages, needs a cluster, takes minutes);
    <!-- doctest: file PATH -->            written to PATH in the scratch copy, not run
                                           (a later block uses it); where the repository
                                           has PATH, the block must be that file (the
                                           comment lines at its top aside);
    <!-- doctest: fragment of PATH -->     a testbench fragment: its top-level sections
                                           replace those of the testbench PATH, and the
                                           result is run as a yaml block is.
- After the page, every file its commands made in the scratch copy must be one that the
  repository's .gitignore ignores (a user following the docs leaves no untracked files).

  tests/docs/run_snippets.py --mmsim BINARY --source SOURCE_DIR PAGE.md...

Prints each block's result and exits 1 if one failed.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import markdown  # noqa: E402

COMMAND_SECONDS = 120
EXIT_STATUS = re.compile(r"^\(exit status (\d+)\)$")
TOP_LEVEL_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:")


class Failure(Exception):
    pass


def commands_of(lines, prompt):
    """(command, expected output lines) of a console block (prompt "$ ") or sh block."""
    out = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if prompt and not line.startswith(prompt):
            if out:
                out[-1][1].append(line)
            elif line.strip():
                raise Failure(f"output before the first command: {line!r}")
            i += 1
            continue
        command = line[len(prompt):] if prompt else line
        while command.endswith("\\") and i + 1 < len(lines):
            i += 1
            command = command[:-1] + "\n" + lines[i]
        if command.strip() and not command.lstrip().startswith("#"):
            out.append((command, []))
        i += 1
    return out


def expected_pattern(lines):
    """A regular expression for the output the lines show ("..." elides)."""
    parts = []
    for line in lines:
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            text = ".*?".join(re.escape(piece) for piece in line.rstrip().split("..."))
            parts.append(text + r"\n")
    return re.compile("".join(parts))


def run(command, cwd, expected_status=0, expected=None):
    start = time.monotonic()
    try:
        result = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=cwd,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, timeout=COMMAND_SECONDS)
    except subprocess.TimeoutExpired:
        raise Failure(f"$ {command}\ndid not end within {COMMAND_SECONDS} s")
    output = result.stdout.decode("utf-8", "replace")
    normalised = "".join(line.rstrip() + "\n" for line in output.splitlines())
    problems = []
    if result.returncode != expected_status:
        problems.append(f"exit status {result.returncode}, expected {expected_status}")
    if expected is not None and not expected.fullmatch(normalised):
        problems.append("the output differs from the one shown")
    if problems:
        raise Failure(f"$ {command}\n" + "; ".join(problems) + "\n--- output:\n" + output)
    return time.monotonic() - start


def run_console(block, cwd):
    for command, shown in commands_of(block.lines, "$ "):
        status = 0
        while shown and not shown[-1].strip():
            shown.pop()
        if shown and EXIT_STATUS.match(shown[-1].strip()):
            status = int(EXIT_STATUS.match(shown[-1].strip()).group(1))
            shown = shown[:-1]
        run(command, cwd, status, expected_pattern(shown) if shown else None)


def run_sh(block, cwd):
    for command, _ in commands_of(block.lines, ""):
        run(command, cwd)


def top_level_sections(lines):
    """{key: its lines} of a YAML document written in block style."""
    sections, order, key = {}, [], None
    for line in lines:
        match = TOP_LEVEL_KEY.match(line)
        if match:
            key = match.group(1)
            order.append(key)
            sections[key] = []
        if key is not None:
            sections[key].append(line)
    return [sections[k] for k in order], order


def run_testbench(text, path, cwd):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    run(f"build/mmsim run {path}", cwd)


def run_fragment(block, base, cwd, made):
    with open(inside(cwd, base), encoding="utf-8") as f:
        base_sections, base_keys = top_level_sections(f.read().split("\n"))
    sections, keys = top_level_sections(block.lines)
    if not keys:
        raise Failure("a fragment with no top-level key")
    kept = [s for s, k in zip(base_sections, base_keys) if k not in keys]
    text = "\n".join(line for s in kept + sections for line in s) + "\n"
    # Beside its base, so that the files the base names are found as from the base.
    path = os.path.join(os.path.dirname(inside(cwd, base)), f"doctest-fragment-{block.line}.yaml")
    made.add(os.path.relpath(path, cwd))
    run_testbench(text, path, cwd)


def inside(root, path):
    full = os.path.normpath(os.path.join(root, path))
    if os.path.commonpath([root, full]) != root:
        raise Failure(f"{path} lies outside the scratch copy")
    return full


def same_as_repository(block, source, path):
    """Fails unless the block is the repository's file at path, its leading comments aside."""
    try:
        with open(os.path.join(source, path), encoding="utf-8") as f:
            lines = f.read().rstrip("\n").split("\n")
    except FileNotFoundError:
        return
    while lines and lines[0].startswith("#"):
        lines.pop(0)
    if lines != block.lines:
        raise Failure(f"the block differs from {path} in the repository")


def run_block(block, cwd, made, source):
    marker = block.marker or ""
    verb, _, argument = marker.partition(" ")
    if marker and verb not in ("skip", "file", "fragment"):
        raise Failure(f"unknown doctest marker '{marker}'")
    if verb == "skip":
        if not argument.strip():
            raise Failure("a skipped block needs its reason: <!-- doctest: skip REASON -->")
        return "skipped: " + argument
    if verb == "file":
        same_as_repository(block, source, argument)
        path = inside(cwd, argument)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(block.lines) + "\n")
        made.add(os.path.relpath(path, cwd))
        return f"written to {argument}"
    if not block.language:
        raise Failure("a fenced block without a language: name one (yaml, console, sh, text)")
    if verb == "fragment":
        if block.language != "yaml" or not argument.startswith("of "):
            raise Failure("a fragment is a yaml block: <!-- doctest: fragment of PATH -->")
        run_fragment(block, argument[3:].strip(), cwd, made)
    elif block.language == "yaml":  # outside the scratch copy: the reader has no such file
        run_testbench("\n".join(block.lines) + "\n",
                      os.path.join(os.path.dirname(cwd), f"doctest-{block.line}.yaml"), cwd)
    elif block.language == "console":
        run_console(block, cwd)
    elif block.language == "sh":
        run_sh(block, cwd)
    elif any(line.startswith("$ ") for line in block.lines):
        raise Failure(f"a command in a {block.language} block: fence it as console")
    else:
        return "not run (" + block.language + ")"
    return "ok"


def files_under(root):
    out = set()
    for folder, _, files in os.walk(root):
        for name in files:
            out.add(os.path.relpath(os.path.join(folder, name), root))
    return out


def not_ignored(source, paths):
    """The paths that the repository's .gitignore does not ignore (none without git)."""
    if not paths or subprocess.run(["git", "-C", source, "rev-parse"], capture_output=True,
                                   ).returncode != 0:
        return []
    result = subprocess.run(["git", "-C", source, "check-ignore", "--no-index", "--stdin"],
                            input="\n".join(sorted(paths)) + "\n", capture_output=True,
                            text=True)
    ignored = set(result.stdout.split("\n"))
    return sorted(p for p in paths if p not in ignored)


def check_page(page, mmsim, source):
    failures = 0
    with tempfile.TemporaryDirectory(prefix="mmsim-doctest-") as scratch:
        clone = os.path.join(scratch, "clone")
        os.makedirs(os.path.join(clone, "build"))
        for folder in ("configs", "examples", "scripts"):
            shutil.copytree(os.path.join(source, folder), os.path.join(clone, folder),
                            symlinks=True)
        os.symlink(os.path.abspath(mmsim), os.path.join(clone, "build", "mmsim"))
        # The Python package beside the command (PYTHONPATH=build/python), when it is built.
        package = os.path.join(os.path.dirname(os.path.realpath(mmsim)), "python")
        if os.path.isdir(package):
            os.symlink(package, os.path.join(clone, "build", "python"))
        before = files_under(clone)
        made = set()
        with open(page, encoding="utf-8") as f:
            blocks = markdown.fenced_blocks(f.read())
        name = os.path.relpath(page, source)
        for block in blocks:
            start = time.monotonic()
            try:
                result = run_block(block, clone, made, source)
                print(f"{name}:{block.line}: {result} ({time.monotonic() - start:.2f} s)")
            except Failure as failure:
                failures += 1
                print(f"{name}:{block.line}: FAILED: {failure}")
        left = files_under(clone) - before - made
        for path in not_ignored(source, left):
            failures += 1
            print(f"{name}: the docs' commands leave {path}, which .gitignore does not ignore")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mmsim", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("pages", nargs="+")
    args = parser.parse_args()
    source = os.path.abspath(args.source)
    failures = sum(check_page(os.path.abspath(p), args.mmsim, source) for p in args.pages)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
