"""The engine's objects as JSON-ready dicts, and a player's state back from one.

The one way a ``PlayerState`` becomes JSON and comes back, and a ``PlayerChange`` becomes
JSON: the command line reads and writes its documents with these (docs/engine-io.md), and
the web app stores states and breakdowns with them. Dates are ISO strings; whole floats are
written as integers (1600, not 1600.0).
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Mapping
from datetime import date
from operator import attrgetter
from typing import Any

from .base import STATE_FIELDS, EngineError, GameLine, PlayerChange, PlayerState

__all__ = ["change_to_dict", "state_from_dict", "state_to_dict"]

TITLES = ("GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM")
ACF_STATUSES = ("new", "unrated", "provisional", "confirmed")
ECF_CATEGORIES = ("full", "partial")

_NUMBER_FIELDS = frozenset(
    ("rating", "avg_opp", "score", "points", "rapid_rating", "deviation", "volatility")
)
_DATE_FIELDS = frozenset(("born", "last_played", "rapid_last_played"))
#: Fields whose values must be one of a few strings, and how a problem names them.
_CHOICES: dict[str, tuple[tuple[str, ...], str]] = {
    "gender": (("M", "F"), "M or F"),
    "title": (TITLES, "one of " + ", ".join(TITLES)),
    "status": (ACF_STATUSES, "one of " + ", ".join(ACF_STATUSES)),
    "category": (ECF_CATEGORIES, "full or partial"),
    "rapid_category": (ECF_CATEGORIES, "full or partial"),
}
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_LARGEST_FLOAT = sys.float_info.max


def _number(value: float | None) -> float | int | None:
    """A figure for JSON: whole floats as integers (1600, not 1600.0), the rest unchanged."""
    if type(value) is float and value.is_integer() and -(2.0**53) < value < 2.0**53:
        return int(value)
    return value


def _is_number(value: object) -> bool:
    """A finite JSON number (not a bool, not an int too big for a float)."""
    if type(value) is int:
        return -_LARGEST_FLOAT <= value <= _LARGEST_FLOAT
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _parse_date(value: object, path: str, problems: list[str]) -> date | None:
    """A ``YYYY-MM-DD`` date, or None with a problem added."""
    if isinstance(value, str) and _DATE.fullmatch(value):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    problems.append(f"{path}: must be a date YYYY-MM-DD, got {value!r}")
    return None


# -- states --------------------------------------------------------------------------


#: Every field but ``id``, read in one call (a full re-rate writes a state a change).
_FIELDS_AFTER_ID = STATE_FIELDS[1:]
_VALUES_AFTER_ID = attrgetter(*_FIELDS_AFTER_ID)


def state_to_dict(state: PlayerState) -> dict[str, Any]:
    """The state as JSON: ``id``, ``games`` and every other field that is set.

    Fields that are None (or ``guest`` false) are left out, so stored states stay small;
    ``state_from_dict`` gives the same state back. (``_number`` written out in the loop.)
    """
    out: dict[str, Any] = {"id": state.id}
    for name, value in zip(_FIELDS_AFTER_ID, _VALUES_AFTER_ID(state), strict=True):
        if value is None or value is False:
            continue
        if type(value) is float:
            out[name] = (
                int(value) if value.is_integer() and -(2.0**53) < value < 2.0**53 else value
            )
        elif isinstance(value, date):
            out[name] = value.isoformat()
        else:
            out[name] = value
    out.setdefault("games", state.games)
    return out


def state_from_dict(data: Mapping[str, Any], path: str = "state") -> PlayerState:
    """The state ``data`` gives, checked field by field.

    Raises ``EngineError`` with one problem per bad field, each starting with its path
    (``players[3].born: must be a date YYYY-MM-DD, got '1990-02-30'``). A ``display`` key
    (the command line's output fed back in) is taken and ignored.
    """
    problems: list[str] = []
    if not isinstance(data, Mapping):
        raise EngineError([f"{path}: must be an object"])
    values: dict[str, Any] = {}
    for key, value in data.items():
        where = f"{path}.{key}"
        if key == "display":
            if value is not None and not isinstance(value, str):
                problems.append(f"{where}: must be a string, got {value!r}")
        elif key not in STATE_FIELDS:
            problems.append(f"{where}: unknown field")
        elif key == "id":
            if isinstance(value, str) and value:
                values["id"] = sys.intern(value)  # the same object as in the games
            else:
                problems.append(f"{where}: must be a non-empty string")
        elif value is None:
            continue
        elif key in _NUMBER_FIELDS:
            if _is_number(value):
                values[key] = float(value)
            else:
                problems.append(f"{where}: must be a number, got {value!r}")
        elif key == "games":
            if type(value) is int and value >= 0:
                values[key] = value
            else:
                problems.append(f"{where}: must be a whole number of games, got {value!r}")
        elif key == "guest":
            if isinstance(value, bool):
                values[key] = value
            else:
                problems.append(f"{where}: must be true or false, got {value!r}")
        elif key in _DATE_FIELDS:
            values[key] = _parse_date(value, where, problems)
        else:
            choices, described = _CHOICES[key]
            if value in choices:
                values[key] = value
            else:
                problems.append(f"{where}: must be {described}, got {value!r}")
    if "id" not in data:
        problems.append(f"{path}.id: required")
    if problems:
        raise EngineError(problems)
    return PlayerState(**values)


# -- changes -------------------------------------------------------------------------


def change_to_dict(change: PlayerChange) -> dict[str, Any]:
    """The change as JSON: ratings and displays before and after, the system's breakdown
    (its ``detail`` keys) and ``games``, one object per game line. The state is left out."""
    out = _change_figures(change)
    out["games"] = [_line_to_dict(line) for line in change.games]
    return out


def _change_figures(change: PlayerChange) -> dict[str, Any]:
    """``change_to_dict`` without the game lines (the command line's ``--no-explain``)."""
    out: dict[str, Any] = {
        "player": change.player,
        "before": _number(change.before),
        "after": _number(change.after),
        "display_before": change.display_before,
        "display_after": change.display_after,
    }
    out.update(change.detail)
    return out


def _line_to_dict(line: GameLine) -> dict[str, Any]:
    """One game line: the figures it has (no ``expected`` where the system has none), then
    its own detail; ``rated`` only when the rules left the game out (``false``)."""
    out: dict[str, Any] = {
        "opponent": line.opponent,
        "score": _number(line.score),
        "opponent_rating": _number(line.opponent_rating),
    }
    if line.round is not None:
        out["round"] = line.round
    if line.expected is not None:
        out["expected"] = line.expected
    if line.change is not None:
        out["change"] = _number(line.change)
    if not line.rated:
        out["rated"] = False
    if line.detail:
        out.update(line.detail)
    return out
