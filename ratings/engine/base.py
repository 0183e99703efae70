"""The engine's vocabulary: the dataclasses every rating system takes and returns.

Nothing here (or anywhere under ``ratings.engine``) imports Django: the web app,
the command line and the tests all drive the same pure functions.
"""

from __future__ import annotations

import math
import re
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from itertools import chain
from operator import attrgetter
from typing import Any, ClassVar, Generic, TypeVar, cast

from .declarations import BroughtInField as BroughtInField
from .declarations import FigureUsed as FigureUsed
from .declarations import Marker as Marker
from .declarations import Parameter as Parameter
from .declarations import ParamValue as ParamValue
from .declarations import StatusChange as StatusChange
from .declarations import day_words as day_words
from .declarations import games_words as games_words
from .declarations import span_name as span_name
from .states import DATE as DATE
from .states import NUMBER as NUMBER
from .states import STATE_FIELDS as STATE_FIELDS
from .states import STATE_TYPES as STATE_TYPES
from .states import TITLES as TITLES
from .states import PlayerState as PlayerState
from .states import StateKind as StateKind
from .states import state_as as state_as
from .states import state_fields as state_fields
from .states import state_kinds as state_kinds
from .states import with_changes as with_changes

#: A game's score from player ``a``'s side.
SCORES = (1.0, 0.5, 0.0)

Number = float | int


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


#: Below this, a float is within 1e-7 of the decimal it reads as (its repr).
_NEAR_EXACT = 2.0**30


def whole(value: float) -> int:
    """The nearest whole number, halves away from zero (the published figure)."""
    if -_NEAR_EXACT < value < _NEAR_EXACT:
        # Away from a half the nearest whole number is plain; only a half (or what reads
        # as one) needs the decimal reading, which costs ten times as much: a re-rate
        # shows two figures a change.
        low = math.floor(value)
        fraction = value - low
        if abs(fraction - 0.5) > 1e-6:
            return int(low + 1 if fraction > 0.5 else low)
    return int(round_half_up(value, 0))


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


def rated_games(lines: Iterable[GameLine | Mapping[str, Any]]) -> tuple[int, float]:
    """How many of a player's games the system rated, and their score: the one count of
    games and score every page gives (the event's report, the member's page, the stored
    change). A game the rules left out (``rated`` false: an opponent with no usable
    rating yet) counts in neither. ``lines``: the engine's, or stored lines as dicts
    (``rated`` left out where true)."""
    played, score = 0, 0.0
    for line in lines:
        if type(line) is GameLine:  # the engine's (a re-rate writes a change a player)
            if line.rated:
                played += 1
                score += float(line.score)
            continue
        if isinstance(line, GameLine):
            rated, points = line.rated, line.score
        else:
            rated, points = line.get("rated", True), line.get("score") or 0.0
        if rated:
            played += 1
            score += float(points)
    return played, score


@dataclass(slots=True)
class PlayerChange:
    """A player's rating before and after an event (or the period holding it)."""

    player: str
    before: float | None
    after: float | None
    display_before: str
    display_after: str
    games: list[GameLine] = field(default_factory=list)
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
    #: Each player's figure as the list shows it, by id (``RatingSystem.rate``: worked out
    #: as it is read).
    displays: Mapping[str, str]
    events: list[EventResult]


class Displays(Mapping[str, str]):
    """Players' figures as the list shows them, by id, each worked out when first read
    (``RatingSystem.display``): the command line and the calculator read them, a
    re-rate's batches (the web app's) never do, and working out every player's after
    every batch cost a correction's ripple a tenth of its engine time."""

    __slots__ = ("_display", "_shown", "_states")

    def __init__(self, display: Callable[[Any], str], states: Mapping[str, PlayerState]) -> None:
        self._display = display
        self._states = states
        self._shown: dict[str, str] = {}

    def __getitem__(self, pid: str) -> str:
        shown = self._shown.get(pid)
        if shown is None:
            shown = self._shown[pid] = self._display(self._states[pid])
        return shown

    def __iter__(self) -> Iterator[str]:
        return iter(self._states)

    def __len__(self) -> int:
        return len(self._states)

    def __repr__(self) -> str:
        return repr(dict(self))


_PAIR = attrgetter("a", "b")
_GAMES = attrgetter("games")


#: A system's own state type (``RatingSystem.state_type``); any state (``with_changes``).
S = TypeVar("S", bound=PlayerState)
T = TypeVar("T", bound=PlayerState)


class RatingSystem(ABC, Generic[S]):
    """One club rating system, keeping states of type ``S`` (its ``state_type``).
    Subclasses are registered in ``ratings.engine.SYSTEMS``.

    The shared driver (``rate``) orders the events, groups them into rating periods
    and hands each group to ``rate_period``; per-event systems see one event a time.
    """

    id: ClassVar[str]
    title: ClassVar[str]
    #: True for systems that rate by period (acf-1993, ecf-2020).
    period_based: ClassVar[bool] = False
    #: True for systems with a floor (a parameter of at least 0) that no rating goes
    #: under, so a rating below 0 is never theirs: the command line refuses one. Without
    #: a floor (acf-1993, nscl) a weak player's rating can fall below 0, and one run's
    #: output must be the next run's input.
    has_floor: ClassVar[bool] = False
    #: True for systems whose game lines carry each game's expected score (the report's
    #: Expected column). Each system's module says so for itself: acf-1993 expects a
    #: score of a whole period against the average opponent, the others none at all.
    per_game_expected: ClassVar[bool] = False
    parameters: ClassVar[tuple[Parameter, ...]] = ()
    #: The word a rating brought in from outside carries besides its figure and games, for
    #: the systems that keep one ("status" for acf-1993, "category" for ecf-2020): the
    #: member's form asks for it only when the club's system reads it.
    brought_in_standing: ClassVar[str | None] = None
    #: The words a rating brought in carries for this system, as the member's record,
    #: forms and file take them (``BroughtInField``); its first is ``brought_in_standing``.
    brought_in_fields: ClassVar[tuple[BroughtInField, ...]] = ()
    #: Whether a rating brought in is started from only with the games behind it: a
    #: system that reads its games (acf-1993's status, ecf-2020's category) takes a bare
    #: figure for a new player's, so every form that takes one asks for its games too.
    brought_in_needs_games: ClassVar[bool] = False
    #: Whether the event report explains the list's markers: for a system whose markers a
    #: reader cannot guess from the figure (acf-1993's "4 R" and "Unr").
    legend_on_report: ClassVar[bool] = False
    #: Whether the standard list reads the player's own rapid rating (ecf-2020's rapid
    #: standing-in for a new player), when the club keeps a rapid list on this system.
    reads_rapid_list: ClassVar[bool] = False
    #: The first day an event played online counts on the system's online lists, where
    #: its method took effect for online play later than over the board (ecf-2020: 1
    #: September 2021); None: from the first. An earlier online event is left unrated.
    online_rated_from: ClassVar[date | None] = None
    #: The player's own details a system rates with besides their games (ecf-2020: a new
    #: player's dummy rating from their age and title): erasing a member keeps these,
    #: so that no other member's rating moves.
    reads_player_details: ClassVar[frozenset[str]] = frozenset()
    #: How far a changed state reaches within one of a period system's periods, for the
    #: ripple that rates again only what a correction can change: "opponents" (a player
    #: is rated from their own state and their opponents' ratings as the period opened:
    #: acf-1993, glicko-2), "performance" (performance ratings read their opponents' ratings before
    #: the month and each other's: ecf-2020, with ``rated_by_performance``), or
    #: "everyone" (nothing narrower is known: the whole period is rated again).
    period_reach: ClassVar[str] = "everyone"
    #: The state this system keeps of a player: ``PlayerState`` for a figure and its games
    #: alone, or the system's own subclass of it, declared in its module with its fields'
    #: kinds (acf-1993's ``AcfState``). The driver, the codec and a stored row's reading
    #: ask for it; nothing outside the system's module names its fields.
    state_type: ClassVar[type[PlayerState]] = PlayerState
    #: The figures of a change's breakdown (``PlayerChange.detail``) as a reader names
    #: them, in the order a page lists them. Here, the figures every system may give; a
    #: system that gives its own declares its whole table in its module, placing the
    #: shared ones among its own with ``**RatingSystem.detail_labels`` (the shared ones it
    #: leaves out follow its own). A figure no table names reads as its key does
    #: ("inactive_periods": "Inactive periods"). Pages keep this order, not the stored
    #: one: PostgreSQL keeps a breakdown (jsonb) with its keys sorted by length.
    detail_labels: ClassVar[Mapping[str, str]] = {
        "played": "Games",
        "score": "Score",
        "expected": "Expected score",
        "guest": "Guest",
    }
    #: A game line's own figures (``GameLine.detail``) as column headings, in the order
    #: of the columns: beyond the opponent, their rating, the score, the expected score
    #: and the change, which every report shows.
    line_labels: ClassVar[Mapping[str, str]] = {}
    #: The system's rule names (``GameLine.detail["rule"]``) in a reader's words.
    rule_words: ClassVar[Mapping[str, str]] = {}
    #: A game line's own figures that read with their sign, as offsets do ("+10").
    signed_line_figures: ClassVar[frozenset[str]] = frozenset()
    #: A game line's own figures that are ratings, read whole as the rating column is.
    rating_line_figures: ClassVar[frozenset[str]] = frozenset()
    #: The forms a period system's change breakdown takes, for the web app's packed
    #: storage (docs/performance.md, "What a rating change stores"): each form's number,
    #: then its figures (``PlayerChange.detail``'s keys, in the order stored) and its game
    #: lines' own figures. A stored row names its form by the number, so a number is the
    #: form's for good, across every system: a new form takes a number no system has used,
    #: and a form once stored is never changed (a new one is added instead).
    breakdown_shapes: ClassVar[Mapping[int, tuple[tuple[str, ...], tuple[str, ...]]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # The word ``brought_in`` is given is the one the system declares a field for.
        if "brought_in_fields" in cls.__dict__:
            cls.brought_in_standing = (
                cls.brought_in_fields[0].name if cls.brought_in_fields else None
            )
        # Every system's state type, for a state read back without its system (the codec).
        if cls.state_type not in STATE_TYPES:
            STATE_TYPES.append(cls.state_type)

    @property
    def rates_players_apart(self) -> bool:
        """Whether a player's change in an event follows from their own games and the
        states everyone came into the event with alone, so that rating just those games
        gives their change and lines exactly. Not for a system where a game moves the
        ratings later games are played on, or that rates newcomers on the event's games."""
        return False

    def games_to_rate(self, event: Event, players: Collection[str]) -> tuple[Game, ...]:
        """The games of ``event`` that, rated from the states everyone came into it with,
        give ``players``' changes and lines exactly as rating the whole event does (the
        other players' changes then fall short): a member's page rates no more of an event
        than their own lines need. Their own games where the system rates players apart;
        otherwise every game, unless the system knows a narrower set."""
        if not self.rates_players_apart:
            return event.games
        return tuple(g for g in event.games if g.a in players or g.b in players)

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

    def period_name(self, label: str, start: date, end: date) -> str:
        """What a period is called on every page: its months, as a reader says them. The
        label is the engine's key, never the words."""
        return span_name(start, end)

    # -- what the system says about itself --------------------------------------

    @classmethod
    def rules_words(cls) -> str:
        """The system's rules in a paragraph, as its module states them (the "Rules:"
        paragraph of its docstring, the one place they are written down), for the site's
        help page; what points into the source (a repository path) left out."""
        doc = sys.modules[cls.__module__].__doc__ or ""
        paragraphs = [" ".join(p.split()) for p in doc.split("\n\n")]
        rules = next((p for p in paragraphs if p.startswith("Rules")), "")
        rules = re.sub(r"^Rules(:|,)\s*", "", rules)
        rules = rules[:1].upper() + rules[1:]
        sentences = re.split(r"(?<=[.;])\s+(?=[A-Z])", rules)
        return " ".join(s for s in sentences if "docs/" not in s and ".py" not in s)

    def legend(self) -> tuple[Marker, ...]:
        """The markers this system puts on its list, each with its status and meaning."""
        return (Marker("1500", "rated", "the member's rating"),)

    def marker_of(self, display: str) -> Marker | None:
        """The legend's marker ``display`` carries; None for no rating, or one unknown."""
        if not display:
            return None
        return next((m for m in self.legend() if m.marks(display)), None)

    def status_word(self, display: str) -> str:
        """A listed rating's status in a word or two, in the system's own terms."""
        if not display:
            return "no rating yet"
        marker = self.marker_of(display)
        return marker.status if marker is not None else "rated"

    def event_share(
        self, detail: Mapping[str, Any], lines: Sequence[Mapping[str, Any]]
    ) -> float | None:
        """A period system's change is the whole period's, stored on each of its events:
        the part of it one event's games made, from that event's breakdown (``detail``, its
        figures; ``lines``, its game lines as dicts). None where the change is not a sum
        of its events' parts (a performance rating over the whole period), and for a
        per-event system, whose change is the event's own."""
        return None

    def opponent_figure(self, line: Mapping[str, Any]) -> FigureUsed | None:
        """Why a game line's opponent rating (``line``: a game line as a dict, its own
        figures among its keys) is not the rating the opponent held, where the system
        used another (held within a band, a floor, a default); None where it is theirs."""
        return None

    def status_changes(self, player: S, *, today: date) -> tuple[StatusChange, ...]:
        """When ``player``'s status next changes under this system's rules, and to what,
        from their state after their last rated event, read on ``today``: each way it can
        change (ecf-2020's partial rating becomes full after more games, or lapses on a
        day without them), none where the rules change it no more (a confirmed rating, or
        a system with one status). The next rated game is taken to fall in a later period
        than the state's last (period systems open it first, ``period_opening``).
        """
        return ()

    def brought_in(
        self, state: PlayerState, *, standing: str | None = None, since: date | None = None
    ) -> S:
        """A rating brought in from outside (``state``: its figure and games) as this
        system starts from it; ``standing`` is the word of ``brought_in_standing`` (None
        when not given), ``since`` the day it is taken as current."""
        return self.own_state(state)

    def brought_in_missing(
        self, *, rating: float | None, games: int, standing: str | None = None
    ) -> str | None:
        """What a rating brought in lacks for this system to start from it, in words
        ("the games played before it"); None when nothing is (or no rating is brought in).
        ``brought_in`` followed by ``prepare`` keeps the rating exactly when this is None:
        without it the player would start as new, the figure dropped."""
        if rating is not None and self.brought_in_needs_games and not games:
            return "the games played before it"
        return None

    @classmethod
    def list_params(cls, params: Mapping[str, object], time_class: str) -> dict[str, object]:
        """The parameters as a list of ``time_class`` play rates with them."""
        return dict(params)

    @classmethod
    def list_param_problems(cls, params: Mapping[str, object], time_class: str) -> list[str]:
        """Parameters that contradict the list they are for (its time control)."""
        return []

    # -- rating ----------------------------------------------------------------

    def own_state(self, state: PlayerState) -> S:
        """``state`` as this system's ``state_type``: what it shares with the system's own
        state kept, the rest at its defaults (a bare state the web app builds from a
        member's columns; one read back without its system)."""
        if type(state) is self.state_type:
            return cast(S, state)
        return cast(S, state_as(self.state_type, state))

    def new_player(self, player_id: str) -> S:
        """The state of a player met in a game but not listed in the input."""
        return cast(S, self.state_type(id=player_id))

    def prepare(self, player: PlayerState) -> S:
        """Bring an input state into the form the system works with (e.g. start ratings):
        its own ``state_type`` first. A system's own ``prepare`` calls this one first."""
        return self.own_state(player)

    def period_opening(self, player: S) -> S:
        """What the opening of a rating period makes of a state, games or none (acf-1993's
        zero-score reset); the state itself when the period's rules leave it alone.

        A caller that rates only some players needs it: a player whose state it would
        change must be rated along with the period even without a game in it.
        """
        return player

    @abstractmethod
    def rate_period(
        self, players: dict[str, S], events: Sequence[Event], period: str | None
    ) -> list[EventResult]:
        """Rate one period (or one event), replacing states in ``players`` in place."""

    @abstractmethod
    def display(self, player: S) -> str:
        """Exactly what the published list shows for this player."""

    def expected_score(self, player: S, opponent: S) -> float | None:
        """``player``'s expected score against ``opponent`` on these (prepared) states, in
        0..1: the system's own expectation (for the comparison of systems). None when the
        system has no rating to expect from for either of them.

        Each system defines it from its own rules (docs/rating-systems.md, "Expected
        scores"); opponent's expectation is 1 minus it.
        """
        return None

    def rate(
        self,
        players: Iterable[PlayerState],
        events: Sequence[Event],
    ) -> RatingResult:
        """Rate ``events`` in order from ``players``' states."""
        states: dict[str, S] = {}
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
        ordered = list(states.values())
        return RatingResult(
            system=self.id,
            players=list[PlayerState](ordered),
            displays=Displays(self.display, states),
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
