"""The site's own help page: the rating systems as the engine states them (their rules,
their markers) and the ratings officer's evening in short. An officer reads this on the
site; the repository's documentation is not theirs to open."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import SYSTEMS
from ..engine.base import Marker
from ..rules.results import KEYS, SHORT_LABELS


@dataclass(frozen=True)
class SystemHelp:
    id: str
    title: str
    period_based: bool
    rules: str
    markers: tuple[Marker, ...]
    current: bool


def systems_help(current: str) -> list[SystemHelp]:
    """Every system the club may rate with, the club's own (``current``) first."""
    found = [
        SystemHelp(
            id=system_id,
            title=cls.title,
            period_based=cls.period_based,
            rules=cls.rules_words(),
            markers=cls().legend(),
            current=system_id == current,
        )
        for system_id, cls in SYSTEMS.items()
    ]
    return sorted(found, key=lambda s: not s.current)


def result_keys() -> list[tuple[str, str]]:
    """The keys a result is typed with on the results pages, and the result each gives
    (white's side; on the grid the row player's)."""
    by_result: dict[str, list[str]] = {}
    for key, result in KEYS.items():
        by_result.setdefault(result, []).append(key)
    return [(" or ".join(keys), SHORT_LABELS[result]) for result, keys in by_result.items()]
