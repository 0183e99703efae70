"""Django's ``{# #}`` comment holds one line: one that goes on over lines is printed on
the page as it stands. A longer comment is a ``{% comment %}`` block."""

from __future__ import annotations

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
#: A ``{#`` whose ``#}`` is not on its line.
LEFT_OPEN = re.compile(r"\{#(?:(?!#\}).)*$", re.MULTILINE)


def test_no_template_has_a_one_line_comment_going_on_over_lines():
    open_comments = [
        f"{path.relative_to(TEMPLATES)}:{text[: match.start()].count(chr(10)) + 1}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for text in [path.read_text()]
        for match in LEFT_OPEN.finditer(text)
    ]
    assert open_comments == []
