"""What the documentation tests read in a Markdown file: its fenced blocks (with the doctest
marker before each), its headings as GitHub makes anchors of them, and its links.

The convention the blocks follow is described in docs/testing.md, "The documentation's tests".
"""
import re
import unicodedata
from dataclasses import dataclass

FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([^\s`]*)")
MARKER = re.compile(r"^\s*<!--\s*doctest:\s*(.*?)\s*-->\s*$")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
INLINE_LINK = re.compile(r"!?\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


@dataclass
class Block:
    """A fenced block: its language, its lines (the fence's indentation removed), the line of
    its opening fence (1-based) and the doctest marker written on the line before it."""
    language: str
    lines: list
    line: int
    marker: str | None


def fenced_blocks(text):
    blocks = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        indent, fence, language = opening.groups()
        previous = lines[i - 1] if i > 0 else ""
        marker = MARKER.match(previous)
        body = []
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith(fence):
            line = lines[j]
            body.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
            j += 1
        blocks.append(Block(language, body, i + 1, marker.group(1) if marker else None))
        i = j + 1
    return blocks


def prose_lines(text):
    """The lines outside fenced blocks, with their numbers (1-based)."""
    inside = None
    for number, line in enumerate(text.split("\n"), 1):
        opening = FENCE.match(line)
        if inside is None and opening:
            inside = opening.group(2)
            continue
        if inside is not None:
            if line.strip().startswith(inside):
                inside = None
            continue
        yield number, line


def slug(heading):
    """GitHub's anchor of a heading: its text as rendered (no code marks, links as their
    text), lower case, without punctuation but '-' and '_', spaces as '-'."""
    text = INLINE_LINK.sub(lambda m: m.group(1), heading).replace("`", "")
    text = re.sub(r"<[^>]+>", "", text).lower()
    kept = "".join(c for c in text
                   if c in " -_" or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(text):
    """Every anchor the file's headings give, repeated headings numbered as GitHub does."""
    seen = {}
    out = set()
    for _, line in prose_lines(text):
        heading = HEADING.match(line)
        if not heading:
            continue
        base = slug(heading.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        out.add(base if count == 0 else f"{base}-{count}")
    return out


def links(text):
    """(line, target) of every inline link and image outside fenced blocks; inline code
    spans are left out (a link written inside backticks is shown, not followed)."""
    for number, line in prose_lines(text):
        for match in INLINE_LINK.finditer(re.sub(r"`[^`]*`", "", line)):
            yield number, match.group(2)
