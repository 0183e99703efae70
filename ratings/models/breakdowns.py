"""How a rating change's breakdown is stored, and read back as the engine's JSON has it.

A per-event system's change stores none: its game lines and figures are worked out again
when a page asks (``pages/game_lines.py``), from the event's games and its players'
states before it, which the chain keeps anyway.

A period system's change cannot be worked out again so cheaply (it would mean rating its
whole period: docs/performance.md, "What a rating change stores"), so it stores what the
engine worked out and nothing else, packed: ``[shape, *figures, lines]``.

- ``shape``: the number of the change's shape in ``SHAPES`` (its system's
  ``breakdown_shapes``), which names its figures, so that a row stores their values alone
  (the names were most of a breakdown).
- ``lines``: one item a game, in the order the engine rated the member's games in the
  event (round, board, game): the opponent's rating as the system used it (null: not
  rated), or ``[rating, *own figures]`` where the line has figures of its own (acf-1993's
  rating held by the 336 rule, ecf-2020's offsets and increment). The opponent, the score
  and the round are the game's, so they are read from the Game rows, not stored twice
  (``breakdown_unpacked``).

A breakdown no shape fits (the engine gave figures this module does not know yet) is
stored whole, its lines as rows under one list of keys (``breakdown_json``): larger, but
never wrong.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from operator import attrgetter
from typing import Any, TypeGuard

from ..engine import SYSTEMS, PlayerChange, RatingSystem

#: A game line's values, in this order, before the system's own figures (``breakdown_json``).
LINE_KEYS = ("opponent", "score", "opponent_rating", "round", "expected", "change", "rated")

#: One game of a member's in an event, as a packed line is read with it: (opponent, the
#: member's score, round).
PlayedGame = tuple[str, float, int | None]


@dataclass(frozen=True, slots=True)
class Shape:
    """The figures of a period system's change, in the order stored, and the names of its
    game lines' own figures (after the opponent's rating)."""

    figures: tuple[str, ...]
    line: tuple[str, ...] = ()


def shapes_of(systems: Sequence[type[RatingSystem[Any]]]) -> dict[int, Shape]:
    """Every system's ``breakdown_shapes`` by their numbers, in number order. Two systems
    giving one number are a mistake in a system's module, said when the app starts: a
    stored row would read as the other system's."""
    shapes: dict[int, Shape] = {}
    owners: dict[int, str] = {}
    for system in systems:
        for at, (figures, line) in system.breakdown_shapes.items():
            if at in shapes:
                raise ValueError(
                    f"{system.id}'s breakdown shape {at} is {owners[at]}'s: take a number no "
                    "system has used"
                )
            shapes[at] = Shape(tuple(figures), tuple(line))
            owners[at] = system.id
    return dict(sorted(shapes.items()))


#: The shapes of the period systems' changes, by the number a stored change names its
#: shape by: each system declares its own in its module with their numbers (acf-1993's
#: 0 to 3, ecf-2020's 4 and 5), so a shape is only ever added under a new number, never
#: renumbered or changed (a migration copies them as they were). Matched by the figures'
#: names, not their order: PostgreSQL's jsonb gives a dict's keys sorted by length.
SHAPES: dict[int, Shape] = shapes_of(list(SYSTEMS.values()))
_SHAPE_OF = {frozenset(shape.figures): at for at, shape in SHAPES.items()}
_LINE_FIGURES = {at: frozenset(shape.line) for at, shape in SHAPES.items()}


def _plain(value: Any) -> Any:
    """Whole floats as integers (1600, not 1600.0), as the engine's JSON writes them."""
    if type(value) is float and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


#: A line's own figures in ``LINE_KEYS``' order, read in one call.
_LINE_FIGURES_OF = attrgetter(*LINE_KEYS)


def breakdown_json(change: PlayerChange) -> dict[str, Any]:
    """The engine's breakdown of a change, whole: its figures, and its game lines as rows
    under one list of keys (``breakdown_read`` gives them back as dicts).

    Rows, not a dict a line: a club's history has two game lines a game, and the names of
    their figures repeated on each would be most of the table. (Each line's keys and
    figures read in C-level passes: a period system's re-rate writes every change so.)
    """
    data = dict(change.detail)
    games = change.games
    own = list(dict.fromkeys(chain.from_iterable(line.detail for line in games)))
    data["lines"] = {
        "keys": [*LINE_KEYS, *own],
        "rows": [[*_LINE_FIGURES_OF(line), *map(line.detail.get, own)] for line in games],
    }
    return data


#: Whole floats below this are written as integers (``_plain``).
_EXACT = 2.0**53


def breakdown_packed(change: PlayerChange) -> list[Any] | None:
    """A period system's change packed (the module's docstring); None when no shape fits
    it, or a line holds what a packed line cannot (an expected score, a change of its own,
    a rated game without a rating).

    A line is its opponent's rating and its own figures, null trailing ones left off,
    whole floats as integers (``_plain``, written out in the loop: a full re-rate packs
    two lines a game, and the calls were most of the packing's time).
    """
    at = _SHAPE_OF.get(frozenset(change.detail))
    if at is None:
        return None
    shape = SHAPES[at]
    keys = shape.line
    own_figures = _LINE_FIGURES[at]
    lines = []
    for line in change.games:
        rating = line.opponent_rating
        detail = line.detail
        if (
            line.expected is not None
            or line.change is not None
            or line.rated != (rating is not None)
            or not detail.keys() <= own_figures
        ):
            return None
        values = [rating, *map(detail.get, keys)] if detail else [rating]
        while len(values) > 1 and values[-1] is None:
            values.pop()
        values = [
            int(v) if type(v) is float and v.is_integer() and -_EXACT < v < _EXACT else v
            for v in values
        ]
        lines.append(values[0] if len(values) == 1 else values)
    detail = change.detail
    return [at, *(_plain(detail[key]) for key in shape.figures), lines]


def breakdown_stored(change: PlayerChange, *, system: RatingSystem) -> dict[str, Any] | list[Any]:
    """What a change's row keeps of its breakdown: nothing for a per-event system; for a
    period system, packed (whole where no shape fits)."""
    if not system.period_based:
        return {}
    packed = breakdown_packed(change)
    return breakdown_json(change) if packed is None else packed


def breakdown_is_packed(data: Any) -> TypeGuard[list[Any]]:
    return isinstance(data, list)


def breakdown_has_lines(data: Any) -> bool:
    """Whether a stored breakdown holds its game lines: packed, or whole (rows, or dicts as
    older rows had)."""
    return breakdown_is_packed(data) or "lines" in data or "games" in data


def breakdown_unpacked(
    data: list[Any], games: Sequence[PlayedGame] | None, *, score: float | None = None
) -> dict[str, Any]:
    """A packed breakdown whole (as ``breakdown_json`` gives it), its lines read with
    ``games``, the member's games in the event in the order rated.

    Games that do not fit the stored lines (not as many, or, given the row's ``score``, a
    different total) were changed since the period was rated: the figures come back
    without lines until the re-rate writes the row again.
    """
    shape = SHAPES[data[0]]
    out = dict(zip(shape.figures, data[1:-1], strict=True))
    lines = data[-1]
    if games is None or len(games) != len(lines):
        return out
    if score is not None and not _scores_agree(games, lines, score):
        return out
    width = len(shape.line)
    rows = []
    for (opponent, game_score, round_), line in zip(games, lines, strict=True):
        rating, *own = line if isinstance(line, list) else [line]
        own += [None] * (width - len(own))
        rows.append([opponent, game_score, rating, round_, None, None, rating is not None, *own])
    out["lines"] = {"keys": [*LINE_KEYS, *shape.line], "rows": rows}
    return out


def _scores_agree(games: Sequence[PlayedGame], lines: list[Any], score: float) -> bool:
    """Whether the row's score is its rated games' (a packed line's rating is None where
    the game was not rated), as a change stores it. A row written before a game left out
    was told apart stored every game's score: it reads without lines until its re-rate,
    as a row whose games changed since does."""
    rated = sum(
        game[1]
        for game, line in zip(games, lines, strict=True)
        if (line[0] if isinstance(line, list) else line) is not None
    )
    return math.isclose(rated, score, rel_tol=0, abs_tol=1e-9)


def breakdown_read(data: dict[str, Any] | list[Any]) -> dict[str, Any]:
    """A stored breakdown with its game lines as dicts under ``games``, as the engine's JSON
    has them: a line's round, expected score and change only where it has one, ``rated``
    only when false, and the system's own figures only where they have a value.

    A packed breakdown gives its figures alone (``breakdown_unpacked`` reads its lines).
    """
    if isinstance(data, list):
        shape = SHAPES[data[0]]
        return {key: _plain(value) for key, value in zip(shape.figures, data[1:-1], strict=True)}
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
        for key in keys[len(LINE_KEYS) :]:
            if line[key] is None:
                del line[key]
        games.append(line)
    out["games"] = games
    return out


def game_line_change(*, line: dict[str, Any]) -> float | None:
    """One game's own change, from a breakdown's game line (None: the system has none).

    Most systems give it as ``change``; ecf-2020 gives each game's ``increment``.
    """
    change = line.get("change")
    return line.get("increment") if change is None else change
