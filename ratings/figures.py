"""A rating as a page shows it ("1486p", "1540P", "4 R"): whether it is a figure, its
number and marker apart, and the change between two as the reader can check it. Every
page, download and stored "last change" reads figures through these, so what is shown
adds up ("2303 → 2304" is +1, whatever the unrounded ratings were)."""

from __future__ import annotations

import re

_FIGURE = re.compile(r"-?\d+(\.\d+)?[A-Za-z*]?")


def is_figure(display: str | None) -> bool:
    """Whether a displayed rating is a rating (1486, 1486p, 1540P), not a marker standing
    for none yet (acf-1993's "4 R" and "Unr"): only between figures is a change shown."""
    return bool(display) and _FIGURE.fullmatch(display or "") is not None


def shown_change(display_before: str | None, display_after: str | None) -> float | None:
    """The change as the reader can check it: the shown after less the shown before
    ("2303 → 2304" is +1, whatever the unrounded figures were), None unless both are
    ratings."""
    if not (is_figure(display_before) and is_figure(display_after)):
        return None
    before = _NUMBER.match(display_before or "")
    after = _NUMBER.match(display_after or "")
    assert before is not None and after is not None
    return round(float(after.group()) - float(before.group()), 2)


_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def rating_and_marker(display: str | None) -> tuple[int | float | str, str]:
    """A displayed rating as a number a spreadsheet can sort and its marker apart:
    "1486p" is (1486, "p"), "1540P" (1540, "P"), "412*" (412, "*"), "1516" (1516, "");
    a marker standing for no rating yet (acf-1993's "4 R", "Unr") is ("", "4 R")."""
    if not is_figure(display):
        return "", display or ""
    number = _NUMBER.match(display or "")
    assert number is not None
    figure = number.group()
    value = float(figure) if "." in figure else int(figure)
    return value, (display or "")[number.end() :].strip()
