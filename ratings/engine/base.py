"""The engine's vocabulary: the dataclasses every rating system takes and returns.

Nothing here (or anywhere under ``ratings.engine``) imports Django: the web app,
the command line and the tests all drive the same pure functions.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from itertools import chain
from operator import attrgetter
from typing import Any, ClassVar, overload

#: A game's score from player ``a``'s side.
SCORES = (1.0, 0.5, 0.0)

Number = float | int
ParamValue = float | int | str | bool | None


class EngineError(ValueError):
    """Input the engine cannot rate; ``problems`` holds one message per field."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = list(problems)


def round_half_up(value: float, ndigits: int = 0) -> float:
    """Round halves away from zero, as people do on paper (2.5 -> 3, -2.5 -> -3).

    The value is taken as its shortest repr, the decimal a person reads: 2.675 (stored
    as 2.67499999999999982236431605997495353221893310546875) rounds to 2.68, where
    Python's ``round`` (half to even, on the binary value) gives 2.67. It does not absorb
    noise from arithmetic: 1011.4999999999999 is not a half and rounds to 1011. Values of
    2**52 or more (or not finite) come back unchanged when ``ndigits`` >= 0.
    """
    if ndigits >= 0 and not -(2.0**52) < value < 2.0**52:
        return value  # already whole (or not finite); quantize would overflow its context
    quantum = Decimal(1).scaleb(-ndigits)
    return float(Decimal(repr(value)).quantize(quantum, rounding=ROUND_HALF_UP))


def whole(value: float) -> int:
    """The nearest whole number, halves away from zero (the published figure)."""
    return int(round_half_up(value, 0))


@dataclass(frozen=True, slots=True)
class PlayerState:
    """A player's standing between events: what a system needs to go on rating.

    One class serves every system; a system reads the fields it defines and leaves
    the others alone, so a state can be fed back in unchanged.
    """

    id: str
    rating: float | None = None
    games: int = 0
    guest: bool = False
    born: date | None = None
    gender: str | None = None
    title: str | None = None
    # acf-1993: status, avg_opp (AR) and score (TS) over ``games`` games.
    status: str | None = None
    avg_opp: float | None = None
    score: float | None = None
    # ecf-2020: category (full / partial / None = new), avg_opp, points, last_played.
    category: str | None = None
    points: float | None = None
    last_played: date | None = None
    # ecf-2020: a current rapid rating, used as the dummy opponent by a player who
    # has never played a standard game (see docs/rating-systems.md).
    rapid_rating: float | None = None

    def age_on(self, day: date) -> int | None:
        """Whole years of age on ``day``; None when the birth date is unknown."""
        if self.born is None:
            return None
        years = day.year - self.born.year
        if (day.month, day.day) < (self.born.month, self.born.day):
            years -= 1
        return years


STATE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(PlayerState))


@dataclass(frozen=True, slots=True)
class Game:
    a: str
    b: str
    score: float  # a's score: 1, 0.5 or 0
    round: int | None = None


@dataclass(frozen=True, slots=True)
class Event:
    id: str
    date: date
    games: tuple[Game, ...]
    period: str | None = None


@dataclass(slots=True)
class GameLine:
    """One game seen from one player's side, with what a player checks by hand."""

    opponent: str
    score: float
    opponent_rating: float | None  # the rating used for the opponent, after any rule
    expected: float | None = None  # expected score, where the system has one
    change: float | None = None  # this game's own change, where the system has one
    rated: bool = True  # False when the rules leave this game out of the calculation
    round: int | None = None
    detail: dict[str, Any] = field(default_factory=dict)


#: The values that open each game line in ``GameRows.values``, in this order.
GAME_ROW_FIELDS = ("opponent", "score", "opponent_rating", "expected", "change", "round")
_ROW = len(GAME_ROW_FIELDS)


class GameRows(Sequence[GameLine]):
    """A player's game lines in one event, kept as plain values until someone reads them.

    A big history has two game lines a game; building a ``GameLine`` for each costs the
    rating more than the rating itself, and the command line's writer only needs the
    figures (``io`` writes them straight out). ``values`` is flat, a line after another:
    the six ``GAME_ROW_FIELDS`` (of the types ``GameLine`` gives them: str, float, float or
    None three times, int or None), then a value for each of ``keys``. A line's detail is
    ``detail`` (shared by all the lines) followed by its own values of ``keys``. Read as a
    sequence, it is the list of ``GameLine``s, all rated; with no ``keys`` they share one
    detail dict (treat it as read-only).

    ``GameRows.later`` takes a function that gives the values when they are first read:
    the rating chain then leaves the breakdown's arithmetic to whoever reads it (the
    command line's writer, in forked processes).
    """

    __slots__ = ("_build", "_lines", "_values", "_width", "detail", "keys", "line_count")

    def __init__(
        self, values: list[Any], detail: dict[str, Any], keys: tuple[str, ...] = ()
    ) -> None:
        self._values: list[Any] | None = values
        self._build: Callable[[], list[Any]] | None = None
        self.detail = detail
        self.keys = keys
        self._width = _ROW + len(keys)
        #: How many lines (read without working the values out).
        self.line_count = len(values) // self._width
        self._lines: list[GameLine] | None = None

    @classmethod
    def later(
        cls,
        build: Callable[[], list[Any]],
        count: int,
        detail: dict[str, Any],
        keys: tuple[str, ...] = (),
    ) -> GameRows:
        """``count`` lines whose values ``build()`` gives, called when they are first read."""
        rows = cls.__new__(cls)
        rows._values = None
        rows._build = build
        rows.detail = detail
        rows.keys = keys
        rows._width = _ROW + len(keys)
        rows.line_count = count
        rows._lines = None
        return rows

    @property
    def values(self) -> list[Any]:
        values = self._values
        if values is None:
            assert self._build is not None
            values = self._build()
            if len(values) != self.line_count * self._width:
                raise ValueError(f"GameRows: {len(values)} values for {self.line_count} lines")
            self._values = values
            self._build = None
        return values

    def lines(self) -> list[GameLine]:
        if self._lines is None:
            v = self.values
            width = self._width
            shared = self.detail
            keys = self.keys
            self._lines = [
                GameLine(
                    v[i], v[i + 1], v[i + 2], v[i + 3], v[i + 4], True, v[i + 5],
                    {**shared, **dict(zip(keys, v[i + _ROW : i + width], strict=True))}
                    if keys
                    else shared,
                )
                for i in range(0, len(v), width)
            ]  # fmt: skip
        return self._lines

    def __len__(self) -> int:
        return self.line_count

    @overload
    def __getitem__(self, index: int) -> GameLine: ...

    @overload
    def __getitem__(self, index: slice) -> list[GameLine]: ...

    def __getitem__(self, index: int | slice) -> GameLine | list[GameLine]:
        return self.lines()[index]

    def __iter__(self) -> Iterator[GameLine]:
        return iter(self.lines())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, GameRows):
            return self.lines() == other.lines()
        if isinstance(other, list):
            return self.lines() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, like the list it stands for

    def __repr__(self) -> str:
        return f"GameRows({self.lines()!r})"


@dataclass(slots=True)
class PlayerChange:
    """A player's rating before and after an event (or the period holding it)."""

    player: str
    before: float | None
    after: float | None
    display_before: str
    display_after: str
    games: list[GameLine] | GameRows = field(default_factory=list)
    detail: dict[str, Any] = field(default_factory=dict)
    #: The player's whole state after the event (after its period, for period systems),
    #: filled in by the driver: the web app restarts the chain from it.
    state: PlayerState | None = None


@dataclass(slots=True)
class EventResult:
    id: str
    period: str | None
    changes: list[PlayerChange]


@dataclass(slots=True)
class RatingResult:
    system: str
    players: list[PlayerState]
    displays: dict[str, str]
    events: list[EventResult]


@dataclass(frozen=True, slots=True)
class Parameter:
    """A documented rule a club could reasonably set differently."""

    name: str
    default: ParamValue
    help: str
    choices: tuple[ParamValue, ...] | None = None
    minimum: float | None = None
    nullable: bool = False

    def check(self, value: object) -> str | None:
        """The problem with ``value``, or None when it is acceptable."""
        if value is None:
            return None if self.nullable else "must not be null"
        expected = type(self.default) if self.default is not None else float
        if expected is bool:
            if not isinstance(value, bool):
                return "must be true or false"
        elif expected in (int, float):
            if isinstance(value, bool) or not isinstance(value, int | float):
                return "must be a number"
            if expected is int and not float(value).is_integer():
                return "must be a whole number"
            if isinstance(value, float) and not math.isfinite(value):
                return "must be a finite number"
            if self.minimum is not None and value < self.minimum:
                return f"must be at least {self.minimum:g}"
        elif not isinstance(value, expected):
            return f"must be a {expected.__name__}"
        if self.choices is not None and value not in self.choices:
            return "must be one of " + ", ".join(str(c) for c in self.choices)
        return None


_PAIR = attrgetter("a", "b")
_GAMES = attrgetter("games")


class RatingSystem(ABC):
    """One club rating system. Subclasses are registered in ``ratings.engine.SYSTEMS``.

    The shared driver (``rate``) orders the events, groups them into rating periods
    and hands each group to ``rate_period``; per-event systems see one event a time.
    """

    id: ClassVar[str]
    title: ClassVar[str]
    #: True for systems that rate by period (acf-1993, ecf-2020).
    period_based: ClassVar[bool] = False
    parameters: ClassVar[tuple[Parameter, ...]] = ()

    def __init__(self, params: Mapping[str, object] | None = None) -> None:
        problems = self.check_params(params or {})
        if problems:
            raise EngineError(problems)
        self.params: dict[str, Any] = {p.name: p.default for p in self.parameters}
        self.params.update(params or {})

    @classmethod
    def check_params(cls, params: Mapping[str, object], path: str = "params") -> list[str]:
        known = {p.name: p for p in cls.parameters}
        problems = []
        for name, value in params.items():
            if name not in known:
                problems.append(f"{path}.{name}: unknown parameter for {cls.id}")
                continue
            problem = known[name].check(value)
            if problem:
                problems.append(f"{path}.{name}: {problem}")
        return problems

    # -- periods ---------------------------------------------------------------

    def period_of(self, day: date) -> str | None:
        """The rating period an event on ``day`` belongs to; None for per-event systems."""
        return None

    def period_bounds(self, label: str) -> tuple[date, date]:
        """First and last day of a period label (period systems only)."""
        raise NotImplementedError(f"{self.id} does not rate by period")

    # -- rating ----------------------------------------------------------------

    def new_player(self, player_id: str) -> PlayerState:
        """The state of a player met in a game but not listed in the input."""
        return PlayerState(id=player_id)

    def prepare(self, player: PlayerState) -> PlayerState:
        """Bring an input state into the form the system works with (e.g. start ratings)."""
        return player

    def period_opening(self, player: PlayerState) -> PlayerState:
        """What the opening of a rating period makes of a state, games or none (acf-1993's
        zero-score reset); the state itself when the period's rules leave it alone.

        A caller that rates only some players needs it: a player whose state it would
        change must be rated along with the period even without a game in it.
        """
        return player

    @abstractmethod
    def rate_period(
        self, players: dict[str, PlayerState], events: Sequence[Event], period: str | None
    ) -> list[EventResult]:
        """Rate one period (or one event), replacing states in ``players`` in place."""

    @abstractmethod
    def display(self, player: PlayerState) -> str:
        """Exactly what the published list shows for this player."""

    def rate(
        self,
        players: Iterable[PlayerState],
        events: Sequence[Event],
        *,
        on_period: Callable[[Sequence[EventResult]], object] | None = None,
    ) -> RatingResult:
        """Rate ``events`` in order from ``players``' states.

        ``on_period``, if given, is called after each period (each event, for per-event
        systems) with the results so far, final from then on: the command line starts
        writing them out while the rating goes on.
        """
        states: dict[str, PlayerState] = {}
        for player in players:
            states[player.id] = self.prepare(player)
        # Everyone met in a game, in order of first appearance (C-level passes: this sees
        # every game of the history).
        met = dict.fromkeys(
            chain.from_iterable(map(_PAIR, chain.from_iterable(map(_GAMES, events))))
        )
        for pid in met:
            if pid not in states:
                states[pid] = self.prepare(self.new_player(pid))
        results: list[EventResult] = []
        for label, group in self.group_events(events):
            rated = self.rate_period(states, group, label)
            for event_result in rated:
                for change in event_result.changes:
                    change.state = states[change.player]
            results.extend(rated)
            if on_period is not None:
                on_period(results)
        ordered = list(states.values())
        return RatingResult(
            system=self.id,
            players=ordered,
            displays={p.id: self.display(p) for p in ordered},
            events=results,
        )

    def group_events(self, events: Sequence[Event]) -> list[tuple[str | None, list[Event]]]:
        """Events in rating order: by date, ties in list order; periods as whole groups.

        A period is rated when its earliest event comes up, with all of its events.
        """
        ordered = sorted(events, key=lambda e: e.date)  # stable: ties keep list order
        if not self.period_based:
            return [(None, [e]) for e in ordered]
        groups: dict[str, list[Event]] = {}
        for event in ordered:
            label = event.period or self.period_of(event.date)
            assert label is not None
            groups.setdefault(label, []).append(event)
        return list(groups.items())


# -- copying states --------------------------------------------------------------------
#
# Rating a long history makes a new PlayerState per player per event (or period): the
# engine's most frequent allocation after the games. ``dataclasses.replace`` and the frozen
# dataclass's ``__init__`` (one ``object.__setattr__`` call per field) are slow for that.
# ``state_copier`` generates, once per set of fields, a function that fills an unfrozen
# object with PlayerState's slots and then relabels it a PlayerState (allowed: same slots,
# same base): about four times faster than the constructor and twenty times faster than
# ``replace``. The code is generated from PlayerState's fields, so a new field is copied
# without anyone remembering it, and each copier is checked against ``dataclasses.replace``
# when it is made (if the trick ever stops working, ``replace`` is used).


class _Draft:
    """PlayerState's slots without its frozen ``__setattr__``: filled in, then relabelled."""

    __slots__ = STATE_FIELDS


_PROBE = PlayerState(
    id="probe", rating=1.0, games=1, guest=True, born=date(2000, 1, 2), gender="F",
    title="WIM", status="new", avg_opp=2.0, score=3.0, category="full", points=4.0,
    last_played=date(2020, 3, 4), rapid_rating=5.0,
)  # fmt: skip


def _generate_copier(names: tuple[str, ...]) -> Callable[..., PlayerState]:
    params = "".join(f", _v{i}" for i in range(len(names)))
    lines = [f"def copy(state{params}):"]
    lines.append("    new = _Draft()")
    for name in STATE_FIELDS:
        value = f"_v{names.index(name)}" if name in names else f"state.{name}"
        lines.append(f"    new.{name} = {value}")
    lines += ["    new.__class__ = PlayerState", "    return new", ""]
    namespace: dict[str, Any] = {"_Draft": _Draft, "PlayerState": PlayerState}
    exec("\n".join(lines), namespace)
    copier: Callable[..., PlayerState] = namespace["copy"]
    return copier


@cache
def state_copier(*names: str) -> Callable[..., PlayerState]:
    """A fast ``(state, value, ...) -> copy of state`` setting the fields ``names``, in order.

    ``state_copier("rating", "games")(state, 1612.0, 41)`` equals
    ``dataclasses.replace(state, rating=1612.0, games=41)``.
    """
    unknown = [name for name in names if name not in STATE_FIELDS]
    if unknown or len(set(names)) != len(names):
        raise TypeError(f"state_copier: unknown or repeated fields {names!r}")

    def slow(state: PlayerState, *values: Any) -> PlayerState:
        return replace(state, **dict(zip(names, values, strict=True)))

    values = tuple(f"new-{name}" for name in names)
    try:
        fast = _generate_copier(names)
        copied = fast(_PROBE, *values)
        works = type(copied) is PlayerState and copied == slow(_PROBE, *values)
        works = works and hash(copied) == hash(slow(_PROBE, *values))
    except (TypeError, AttributeError, SyntaxError):  # pragma: no cover - layout changed
        works = False
    return fast if works else slow


def with_changes(state: PlayerState, **changes: Any) -> PlayerState:
    """A copy of ``state`` with some fields changed: ``dataclasses.replace``, faster.

    For hot loops, ``state_copier`` saves the keyword handling too.
    """
    return state_copier(*changes)(state, *changes.values())
