"""A rating as a page shows it ("1486p", "1540P", "4 R"): whether it is a figure, its
number and marker apart, and the change between two as the reader can check it. Every
page, download and stored "last change" reads figures through these, so what is shown
adds up ("2303 → 2304" is +1, whatever the unrounded ratings were)."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

#: A rating as shown: its number (group "number") and at most a one-letter marker.
_FIGURE = re.compile(r"(?P<number>-?\d+(?:\.\d+)?)[A-Za-z*]?")


def _number(display: str | None) -> str | None:
    """The number of a displayed rating that is a figure, else None."""
    match = _FIGURE.fullmatch(display) if display else None
    return match.group("number") if match else None


def is_figure(display: str | None) -> bool:
    """Whether a displayed rating is a rating (1486, 1486p, 1540P), not a marker standing
    for none yet (acf-1993's "4 R" and "Unr"): only between figures is a change shown."""
    return _number(display) is not None


def shown_change(display_before: str | None, display_after: str | None) -> float | None:
    """The change as the reader can check it: the shown after less the shown before
    ("2303 → 2304" is +1, whatever the unrounded figures were), None unless both are
    ratings."""
    before, after = _number(display_before), _number(display_after)
    if before is None or after is None:
        return None
    return round(float(after) - float(before), 2)


def rating_and_marker(display: str | None) -> tuple[int | float | str, str]:
    """A displayed rating as a number a spreadsheet can sort and its marker apart:
    "1486p" is (1486, "p"), "1540P" (1540, "P"), "412*" (412, "*"), "1516" (1516, "");
    a marker standing for no rating yet (acf-1993's "4 R", "Unr") is ("", "4 R")."""
    figure = _number(display)
    if figure is None:
        return "", display or ""
    value = float(figure) if "." in figure else int(figure)
    return value, (display or "")[len(figure) :].strip()


def signed_part(value: float | None, places: int = 2) -> str:
    """A part of a change as the working gives it: signed, to at most ``places`` decimals."""
    if value is None:
        return ""
    text = f"{value:+.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("+0", "-0") else text


def rounded(value: float, places: int) -> str:
    """A figure to ``places`` decimals as a page prints it, the same text as Django's
    ``floatformat`` filter gives in the club's language: the number as written (``str``:
    2.675 is 2.68, where ``f"{2.675:.2f}"`` reads the float's binary value, 2.67), halves
    away from zero, never "-0". ``places`` below zero keeps a
    whole number whole ("12", but "12.5"). Written once a game of a member's page, where
    the filter's own path (a locale looked up each time) took longer than the rows."""
    exact = Decimal(str(value))
    if not exact.is_finite():
        return str(value)
    if places <= 0 and exact == exact.to_integral_value():
        return str(int(exact))
    shown = exact.quantize(Decimal(1).scaleb(-abs(places)), ROUND_HALF_UP)
    return f"{shown if shown else abs(shown):f}"
