"""Rating periods named by their dates, as a reader says them: "July 2026" (ecf-2020's
months), "Jul–Oct 2026, December 2026 list" (acf-1993's periods, named in the booklet by
the list they feed). The label ("2026-12") is the engine's key, which reads as the wrong
month for acf-1993: it stays in URLs, never in the words."""

from __future__ import annotations

import datetime as dt
from typing import Any


def span_name(start: dt.date, end: dt.date) -> str:
    """The months from ``start`` to ``end``: "July 2026", "Jul–Oct 2026", "Nov 2026–Feb 2027"."""
    if (start.year, start.month) == (end.year, end.month):
        return f"{start:%B %Y}"
    if start.year == end.year:
        return f"{start:%b}–{end:%b %Y}"
    return f"{start:%b %Y}–{end:%b %Y}"


def period_name(system_id: str, label: str, start: dt.date, end: dt.date) -> str:
    """What a period is called on every page."""
    name = span_name(start, end)
    if system_id == "acf-1993":
        year, _, month = label.partition("-")
        if year.isdigit() and month.isdigit():
            listed = dt.date(int(year), int(month), 1)
            return f"{name}, {listed:%B %Y} list"
    return name


def label_name(system: Any, label: str) -> str:
    """The name of ``system``'s period ``label`` (a rating change keeps only the label);
    the label itself where the system cannot read it (a period of another system)."""
    try:
        start, end = system.period_bounds(label)
    except (ValueError, KeyError, NotImplementedError):
        return label
    return period_name(system.id, label, start, end)
