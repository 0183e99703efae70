"""How a rating change's breakdown is stored, and read back as the engine's JSON has it.

A per-event system's change stores none: its game lines and figures are worked out again
when a page asks (``services/game_lines.py``), from the event's games and its players'
states before it, which the chain keeps anyway. A period system's change stores them
(rows under one list of keys): working one event's lines out again means rating its
whole period (docs/performance.md, "What a rating change stores").
"""

from __future__ import annotations

from typing import Any

from .engine import PlayerChange, RatingSystem

#: A stored game line's values, in this order, before the system's own figures.
LINE_KEYS = ("opponent", "score", "opponent_rating", "round", "expected", "change", "rated")


def _plain(value: Any) -> Any:
    """Whole floats as integers (1600, not 1600.0), as the engine's JSON writes them: read
    back from the stored rows, where the writer leaves them as floats (it sees millions)."""
    if type(value) is float and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


def breakdown_json(change: PlayerChange) -> dict[str, Any]:
    """The engine's breakdown of a change as stored: its figures, and its game lines as
    rows under one list of keys (``breakdown_read`` gives them back as dicts).

    Rows, not a dict a line: a club's history has two game lines a game, and the names of
    their figures repeated on each would be most of the table.
    """
    data = dict(change.detail)
    own: dict[str, None] = {}
    for line in change.games:
        own.update(dict.fromkeys(line.detail))
    data["lines"] = {
        "keys": [*LINE_KEYS, *own],
        "rows": [
            [
                line.opponent,
                line.score,
                line.opponent_rating,
                line.round,
                line.expected,
                line.change,
                line.rated,
                *(line.detail.get(key) for key in own),
            ]
            for line in change.games
        ],
    }
    return data


def breakdown_stored(change: PlayerChange, *, system: RatingSystem) -> dict[str, Any]:
    """What a change's row keeps of its breakdown: nothing for a per-event system."""
    return breakdown_json(change) if system.period_based else {}


def breakdown_has_lines(data: dict[str, Any]) -> bool:
    """Whether a stored breakdown holds its game lines (rows, or dicts as older rows had)."""
    return "lines" in data or "games" in data


def breakdown_read(data: dict[str, Any]) -> dict[str, Any]:
    """A stored breakdown with its game lines as dicts under ``games``, as the engine's JSON
    has them: a line's round, expected score and change only where it has one, ``rated``
    only when false."""
    out = {key: _plain(value) for key, value in data.items() if key != "lines"}
    table = data.get("lines")
    if table is None:
        return out
    keys = table["keys"]
    games = []
    for row in table["rows"]:
        line = dict(zip(keys, map(_plain, row), strict=True))
        for key in ("round", "expected", "change"):
            if line[key] is None:
                del line[key]
        if line["rated"]:
            del line["rated"]
        games.append(line)
    out["games"] = games
    return out


def game_line_change(*, line: dict[str, Any]) -> float | None:
    """One game's own change, from a breakdown's game line (None: the system has none).

    Most systems give it as ``change``; ecf-2020 gives each game's ``increment``.
    """
    change = line.get("change")
    return line.get("increment") if change is None else change
