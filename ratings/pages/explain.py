"""The engine's breakdowns (a change's detail and its game lines' own figures) for readers.

The rating report, the officer's previews and the calculator show the same figures under
the same names, so a player can check a calculation by hand whichever page they are on.
The names are the system's own (``RatingSystem.detail_labels``, ``line_labels`` and
``rule_words``, declared in its module): each function takes the system whose breakdown it
reads, and names nothing of any system here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from typing import Any

from ..engine import SYSTEMS, RatingSystem

#: The line columns every report already shows; the rest are a system's own.
_SHOWN_LINE_KEYS = frozenset(
    ("opponent", "score", "opponent_rating", "expected", "change", "increment", "rated", "round")
)


@dataclass(frozen=True, slots=True)
class Words:
    """What a system calls its breakdown's figures (``RatingSystem.detail_labels`` and the
    tables beside it), with each figure's place in the order a page lists them."""

    details: Mapping[str, str]
    lines: Mapping[str, str]
    rules: Mapping[str, str]
    signed: frozenset[str]
    ratings: frozenset[str]
    detail_order: Mapping[str, int]
    line_order: Mapping[str, int]


@cache
def _words_of(systems: tuple[type[RatingSystem[Any]], ...]) -> Words:
    """The words of ``systems`` together, the first to name a figure naming it; the
    figures every system shares after a system's own where it did not place them."""
    details: dict[str, str] = {}
    lines: dict[str, str] = {}
    rules: dict[str, str] = {}
    for system in systems:
        for key, label in system.detail_labels.items():
            details.setdefault(key, label)
        for key, label in system.line_labels.items():
            lines.setdefault(key, label)
        for key, word in system.rule_words.items():
            rules.setdefault(key, word)
    for key, label in RatingSystem.detail_labels.items():
        details.setdefault(key, label)
    return Words(
        details=details,
        lines=lines,
        rules=rules,
        signed=frozenset().union(*(system.signed_line_figures for system in systems)),
        ratings=frozenset().union(*(system.rating_line_figures for system in systems)),
        detail_order={key: n for n, key in enumerate(details)},
        line_order={key: n for n, key in enumerate(lines)},
    )


def _words(system: RatingSystem[Any] | None) -> Words:
    """The words of the system whose breakdown a page shows; where a page reads one
    without its system, every system's (a figure then reads as the system that gives it
    names it)."""
    if system is None:
        return _words_of(tuple(SYSTEMS.values()))
    return _words_of((type(system),))


def detail_label(key: str, system: RatingSystem[Any] | None = None) -> str:
    return _words(system).details.get(key) or key.replace("_", " ").capitalize()


def detail_text(value: object) -> str:
    """A breakdown value for a reader: yes/no, a whole number, or at most two decimals."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = f"{value:.2f}".rstrip("0").rstrip(".")
        return "0" if text == "-0" else text
    return str(value)


def breakdown_keys(
    detail: Mapping[str, Any], system: RatingSystem[Any] | None = None
) -> list[str]:
    """The keys of a change's detail ``breakdown_items`` shows, in its order."""
    order = _words(system).detail_order
    keys = sorted(detail, key=lambda key: order.get(key, len(order)))
    return [
        key for key in keys if isinstance(detail[key], int | float | str | None) and key != "games"
    ]


def breakdown_items(
    detail: Mapping[str, Any], system: RatingSystem[Any] | None = None
) -> list[tuple[str, str]]:
    """A change's detail as (label, text) pairs, in the order of the system's
    ``detail_labels``; lists and dicts (the game lines) are not figures."""
    return [
        (detail_label(key, system), detail_text(detail[key]))
        for key in breakdown_keys(detail, system)
    ]


def line_columns(
    lines: Sequence[Mapping[str, Any]],
    detail: Mapping[str, Any],
    system: RatingSystem[Any] | None = None,
) -> list[str]:
    """The keys of a system's own game-line figures worth a column of their own.

    A key is left out where every line gives it the value the change's detail already
    shows (nz-club-elo's K, judged once an event), or where no line gives it a value.
    """
    keys: dict[str, None] = {}
    for line in lines:
        keys.update((key, None) for key in line if key not in _SHOWN_LINE_KEYS)
    order = _words(system).line_order
    columns = []
    for key in sorted(keys, key=lambda key: order.get(key, len(order))):
        values = [line.get(key) for line in lines]
        if all(value is None for value in values):
            continue
        if key in detail and all(value == detail[key] for value in values):
            continue
        columns.append(key)
    return columns


def line_label(key: str, system: RatingSystem[Any] | None = None) -> str:
    return _words(system).lines.get(key) or key.replace("_", " ").capitalize()


def line_text(key: str, value: object, system: RatingSystem[Any] | None = None) -> str:
    """A game line's own figure: a rule in words, a signed offset, a plain number."""
    words = _words(system)
    if key == "rule" and isinstance(value, str):
        return words.rules.get(value, value)
    if key in words.ratings and isinstance(value, int | float):
        # a rating, shown whole as the "their rating" column beside it shows the one used
        return str(Decimal(repr(value)).quantize(Decimal(1), ROUND_HALF_UP))
    if key in words.signed and isinstance(value, int | float):
        text = detail_text(value)
        return "+" + text if value > 0 else text
    return detail_text(value)
