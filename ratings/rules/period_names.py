"""Rating periods named by their dates, as a reader says them: "July 2026" (ecf-2020's
months), "Jul–Oct 2026, December 2026 list" (acf-1993's periods, named in the booklet by
the list they feed). Each system says how its periods are called
(``RatingSystem.period_name``); the label ("2026-12") is the engine's key, which reads as
the wrong month for acf-1993: it stays in URLs, never in the words."""

from __future__ import annotations

import datetime as dt
from functools import cache
from typing import Any

from ..engine import SYSTEMS
from ..engine.base import span_name

__all__ = ["label_name", "period_name", "span_name"]


def period_name(system: Any, label: str, start: dt.date, end: dt.date) -> str:
    """What a period of ``system`` (an engine, or its id as a period records it) is called
    on every page; by its months alone for a system no longer known."""
    if isinstance(system, str):
        system = _system_named(system)
    if system is None:
        return span_name(start, end)
    return str(system.period_name(label, start, end))


@cache
def _system_named(system_id: str) -> Any:
    """A system by its id, on its defaults (period names do not depend on parameters)."""
    cls = SYSTEMS.get(system_id)
    return cls() if cls is not None else None


def label_name(system: Any, label: str) -> str:
    """The name of ``system``'s period ``label`` (a rating change keeps only the label);
    the label itself where the system cannot read it (a period of another system)."""
    try:
        start, end = system.period_bounds(label)
    except (ValueError, KeyError, NotImplementedError):
        return label
    return period_name(system, label, start, end)
