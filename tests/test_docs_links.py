"""The documentation's own links hold: every relative link in README.md and docs/*.md
names a file that exists, and every ``#anchor`` a heading of that file, by GitHub's rules
for a heading's anchor. The README stays short enough for a first reader (issue 39)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

PROJECT = Path(__file__).resolve().parents[1]
DOCUMENTS = [PROJECT / "README.md", *sorted((PROJECT / "docs").glob("*.md"))]

#: The README's length: what it is, the two commands, starting a club, the dependencies
#: and where to read next. Everything else lives in docs/.
README_MOST_LINES = 200

_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_CODE_SPAN = re.compile(r"`+[^`]*`+")
#: ``[words](target)`` or ``[words](target "title")``; images too (their file must exist).
_LINK = re.compile(r"\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
#: What GitHub drops from a heading's text: anything but letters, marks, digits, the
#: connector punctuation (``_``), spaces and hyphens.
_NOT_IN_ANCHOR = re.compile(r"[^\w\- ]", re.UNICODE)


def prose_lines(text: str) -> list[str]:
    """The lines outside fenced code blocks, code spans blanked (no link or heading in code)."""
    lines, in_fence = [], False
    for line in text.splitlines():
        if _FENCE.match(line):
            in_fence = not in_fence
            lines.append("")
            continue
        lines.append("" if in_fence else line)
    return lines


def heading_text(raw: str) -> str:
    """A heading as GitHub renders it to text: links read as their words, code as its code."""
    text = _LINK.sub(lambda m: m.group(1), raw)
    return text.replace("`", "")


def github_anchor(text: str) -> str:
    """GitHub's anchor for a heading's text (github-slugger): lower case, punctuation
    dropped, each space a hyphen."""
    return _NOT_IN_ANCHOR.sub("", text.lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading's anchor in ``path``; a repeated one gets ``-1``, ``-2``... as GitHub
    numbers them."""
    seen: dict[str, int] = {}
    found = set()
    for line in prose_lines(path.read_text(encoding="utf-8")):
        match = _HEADING.match(line)
        if not match:
            continue
        anchor = github_anchor(heading_text(match.group(2)))
        count = seen.get(anchor, 0)
        seen[anchor] = count + 1
        found.add(anchor if count == 0 else f"{anchor}-{count}")
    return found


def relative_links(path: Path) -> list[tuple[int, str]]:
    """(line number, target) of each link in ``path`` that is not to another site."""
    links = []
    for number, line in enumerate(prose_lines(path.read_text(encoding="utf-8")), start=1):
        for match in _LINK.finditer(_CODE_SPAN.sub("", line)):
            target = match.group(2)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
                continue  # https:, mailto: and the like: another site
            links.append((number, target))
    return links


def broken_links(path: Path) -> list[str]:
    problems = []
    for number, target in relative_links(path):
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / unquote(file_part)).resolve() if file_part else path
        shown = path.relative_to(PROJECT) if path.is_relative_to(PROJECT) else path.name
        where = f"{shown}:{number}: {target}"
        if not linked.exists():
            problems.append(f"{where}: no such file")
        elif anchor and linked.suffix == ".md" and unquote(anchor) not in anchors(linked):
            problems.append(f"{where}: no heading with that anchor in {linked.name}")
    return problems


def test_a_headings_anchor_is_githubs():
    assert github_anchor(heading_text("FIDE's rating list")) == "fides-rating-list"
    code = heading_text("`load_demo` and `import_club`")
    assert github_anchor(code) == "load_demo-and-import_club"
    assert (
        github_anchor(heading_text("Status to come (when a member's status next changes)"))
        == "status-to-come-when-a-members-status-next-changes"
    )
    assert github_anchor(heading_text("Überblick: the [API](x.md)")) == "überblick-the-api"


def test_a_repeated_heading_is_numbered(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Mail\n\n## Mail\n\n```\n# not a heading\n```\n", encoding="utf-8")
    assert anchors(page) == {"mail", "mail-1"}


def test_a_link_to_a_missing_heading_or_file_is_found(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "# Here\n\n[up](#here), [gone](#nowhere), [lost](lost.md), "
        "[site](https://example.org/x), `[code](not-a-link.md)`\n",
        encoding="utf-8",
    )
    assert [problem.rsplit(": ", 1)[1] for problem in broken_links(page)] == [
        "no heading with that anchor in page.md",
        "no such file",
    ]


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_relative_link_resolves(document):
    assert broken_links(document) == []


def test_the_readme_is_short():
    lines = (PROJECT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MOST_LINES
