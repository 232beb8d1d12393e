#!/usr/bin/python3
"""Checks that the repository's references resolve:

- every relative link and image of every Markdown file names an existing file (relative to
  the Markdown file), and its #anchor, if any, a heading of that file (GitHub's anchors);
- every path into the tree (docs/..., configs/..., scripts/..., and the source folders) that a
  Markdown file or a code comment mentions exists; a glob (sw/programs/cole_plan.*) must match
  something;
- nothing points at a section of the README (README, "Sweeps"): the README holds the tour and
  the map of docs/, whose pages hold the rest. Placeholders are not paths: a part that is a word of PLACEHOLDERS (TARGET in
  fuzz/corpus/TARGET) or holds "..." or "XXXX"; nor is a formula (q = sw/sqrt(n)).

  tests/docs/check_links.py SOURCE_DIR

Prints every broken reference as FILE:LINE: what, and exits 1 if there is one.
"""
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import markdown  # noqa: E402

FOLDERS = "docs|configs|scripts|hw|sw|testbench|tests|fuzz|cmake"
MENTION = re.compile(r"(?<![\w./$-])(?:\./)?((?:" + FOLDERS + r")/[\w./*?-]*)(?![\w(])")
# Words the docs write for a value to fill in (fuzz/corpus/TARGET, fuzz/dict/TARGET.dict).
PLACEHOLDERS = {"TARGET", "FILE", "DIR", "NAME", "SEED", "N"}
README_SECTION = re.compile(r"README(?:\.md)?(?:'s)?[,:]?\s+\"")
# Folders that hold inputs or outputs, not sources: not scanned.
SKIPPED = re.compile(r"^(\.git|build[^/]*|out|fuzz/corpus|fuzz/regressions|fuzz/findings)(/|$)")
CODE = (".cpp", ".hpp", ".h", ".py", ".cmake", ".tcl", ".yaml", ".dict", ".supp", ".txt")


def source_files(root):
    for folder, subfolders, files in os.walk(root):
        relative = os.path.relpath(folder, root)
        subfolders[:] = sorted(d for d in subfolders
                               if not SKIPPED.match(os.path.normpath(os.path.join(relative, d))))
        for name in sorted(files):
            yield os.path.normpath(os.path.join(relative, name))


def is_script(path, root):
    try:
        with open(os.path.join(root, path), "rb") as f:
            return f.read(2) == b"#!"
    except OSError:
        return False


def comments(path, text):
    """(line, comment text) of a code file: after // in C++, after # elsewhere."""
    marker = "//" if path.endswith((".cpp", ".hpp", ".h")) else "#"
    for number, line in enumerate(text.split("\n"), 1):
        at = line.find(marker)
        if at >= 0:
            yield number, line[at + len(marker):]


def mentioned_paths(lines):
    for number, line in lines:
        for match in MENTION.finditer(line):
            path = match.group(1).rstrip(".,:;")
            parts = path.rstrip("/").split("/")
            if "..." in path or "XXXX" in path or any(
                    re.split(r"[-.]", part)[0] in PLACEHOLDERS for part in parts):
                continue
            yield number, path


def readme_sections(path, lines, problems):
    for number, line in lines:
        if README_SECTION.search(line):
            problems.append(f"{path}:{number}: points at a section of the README; the section "
                            f"is a page of docs/ now (docs/README.md)")


def exists(root, path):
    if any(c in path for c in "*?["):
        return bool(glob.glob(os.path.join(root, path)))
    return os.path.exists(os.path.join(root, path))


def check_markdown(root, path, text, anchors_of, problems):
    here = os.path.dirname(path)
    for number, target in markdown.links(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):
            continue  # a URL
        file, _, anchor = target.partition("#")
        resolved = os.path.normpath(os.path.join(here, file)) if file else path
        if not os.path.exists(os.path.join(root, resolved)):
            problems.append(f"{path}:{number}: link to {target}: no file {resolved}")
        elif anchor and resolved.endswith(".md") and anchor not in anchors_of(resolved):
            problems.append(f"{path}:{number}: link to {target}: {resolved} has no heading "
                            f"with the anchor #{anchor}")
    for number, mention in mentioned_paths(enumerate(text.split("\n"), 1)):
        if not exists(root, mention):
            problems.append(f"{path}:{number}: {mention} does not exist")
    readme_sections(path, enumerate(text.split("\n"), 1), problems)


def main():
    root = sys.argv[1]
    cache = {}

    def anchors_of(path):
        if path not in cache:
            with open(os.path.join(root, path), encoding="utf-8") as f:
                cache[path] = markdown.anchors(f.read())
        return cache[path]

    problems = []
    checked = 0
    for path in source_files(root):
        markdown_file = path.endswith(".md")
        code = path.endswith(CODE) or os.path.basename(path) == "CMakeLists.txt" or (
            "." not in os.path.basename(path) and is_script(path, root))
        if not (markdown_file or code):
            continue
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            text = f.read()
        checked += 1
        if markdown_file:
            check_markdown(root, path, text, anchors_of, problems)
            continue
        for number, mention in mentioned_paths(comments(path, text)):
            if not exists(root, mention):
                problems.append(f"{path}:{number}: {mention} does not exist")
        readme_sections(path, comments(path, text), problems)
    for problem in problems:
        print(problem)
    print(f"{checked} files checked, {len(problems)} broken references")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
