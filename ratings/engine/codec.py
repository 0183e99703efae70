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

from .base import (
    DATE,
    NUMBER,
    STATE_TYPES,
    TITLES,
    EngineError,
    GameLine,
    PlayerChange,
    PlayerState,
    RatingSystem,
    state_fields,
    state_kinds,
)

__all__ = ["TITLES", "change_to_dict", "state_from_dict", "state_to_dict"]

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


#: Per state type: every field but ``id``, and a getter of their values in one call (a
#: full re-rate writes a state a change).
_AFTER_ID: dict[type[PlayerState], tuple[tuple[str, ...], Any]] = {}


def _after_id(state_type: type[PlayerState]) -> tuple[tuple[str, ...], Any]:
    try:
        return _AFTER_ID[state_type]
    except KeyError:
        names = state_fields(state_type)[1:]
        _AFTER_ID[state_type] = (names, attrgetter(*names))
        return _AFTER_ID[state_type]


def state_to_dict(state: PlayerState) -> dict[str, Any]:
    """The state as JSON: ``id``, ``games`` and every other field that is set, whichever
    system's state it is (its fields are its type's; no field names its system).

    Fields that are None (or ``guest`` false) are left out, so stored states stay small;
    ``state_from_dict`` gives the same state back. (``_number`` written out in the loop.)
    """
    names, values_of = _AFTER_ID.get(type(state)) or _after_id(type(state))
    out: dict[str, Any] = {"id": state.id}
    for name, value in zip(names, values_of(state), strict=True):
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


def _described(choices: tuple[str, ...]) -> str:
    """How a problem names a field's words: "M or F", "one of GM, IM, ..."."""
    if len(choices) == 2:
        return f"{choices[0]} or {choices[1]}"
    return "one of " + ", ".join(choices)


def _type_holding(keys: set[str]) -> type[PlayerState]:
    """The state type a state read without its system is read as: the smallest of the
    systems' state types with every one of ``keys`` (the shared ``PlayerState`` for the
    shared fields alone), the first declared on a tie; with none, the one holding most of
    them (the rest are then unknown fields). It is a container, not a guess at the system:
    the system that rates it takes it as its own (``RatingSystem.own_state``) with every
    field the two share, so nothing read is lost."""
    # Remembered by the keys (and the state types declared so far): a ripple reads a few
    # thousand stored states a correction, each with the same few sets of keys.
    at = (frozenset(keys), len(STATE_TYPES))
    found = _HOLDING.get(at)
    if found is None:
        holding = [t for t in STATE_TYPES if keys <= set(state_fields(t))]
        if holding:
            found = min(holding, key=lambda t: len(state_fields(t)))
        else:
            found = max(STATE_TYPES, key=lambda t: len(keys & set(state_fields(t))))
        if len(_HOLDING) < 256:  # keys typed in by hand are not kept past a few
            _HOLDING[at] = found
    return found


_HOLDING: dict[tuple[frozenset[str], int], type[PlayerState]] = {}


def state_from_dict(
    data: Mapping[str, Any],
    path: str = "state",
    system: RatingSystem[Any] | type[RatingSystem[Any]] | None = None,
) -> PlayerState:
    """The state ``data`` gives, checked field by field against the fields ``system``'s
    state has (``RatingSystem.state_type``) and the kinds it declares for them.

    Without ``system`` (a stored row read where its list's system is not at hand), the
    state type that holds the fields given (``_type_holding``).

    Raises ``EngineError`` with one problem per bad field, each starting with its path
    (``players[3].born: must be a date YYYY-MM-DD, got '1990-02-30'``). A ``display`` key
    (the command line's output fed back in) is taken and ignored.
    """
    problems: list[str] = []
    if not isinstance(data, Mapping):
        raise EngineError([f"{path}: must be an object"])
    if system is not None:
        state_type = system.state_type
    else:
        state_type = _type_holding({k for k in data if k != "display"})
    kinds = state_kinds(state_type)
    values: dict[str, Any] = {}
    for key, value in data.items():
        where = f"{path}.{key}"
        kind = kinds.get(key)
        if key == "display":
            if value is not None and not isinstance(value, str):
                problems.append(f"{where}: must be a string, got {value!r}")
        elif kind is None:
            problems.append(f"{where}: unknown field")
        elif kind == "id":
            if isinstance(value, str) and value:
                values["id"] = sys.intern(value)  # the same object as in the games
            else:
                problems.append(f"{where}: must be a non-empty string")
        elif value is None:
            continue
        elif kind == NUMBER:
            if _is_number(value):
                values[key] = float(value)
            else:
                problems.append(f"{where}: must be a number, got {value!r}")
        elif kind == "games":
            if type(value) is int and value >= 0:
                values[key] = value
            else:
                problems.append(f"{where}: must be a whole number of games, got {value!r}")
        elif kind == "flag":
            if isinstance(value, bool):
                values[key] = value
            else:
                problems.append(f"{where}: must be true or false, got {value!r}")
        elif kind == DATE:
            values[key] = _parse_date(value, where, problems)
        elif isinstance(kind, tuple):
            if value in kind:
                values[key] = value
            else:
                problems.append(f"{where}: must be {_described(kind)}, got {value!r}")
        else:
            raise TypeError(f"{state_type.__name__}.{key}: no such kind {kind!r}")
    if "id" not in data:
        problems.append(f"{path}.id: required")
    if problems:
        raise EngineError(problems)
    return state_type(**values)


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
