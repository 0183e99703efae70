"""The engine's vocabulary: the dataclasses every rating system takes and returns.

Nothing here (or anywhere under ``ratings.engine``) imports Django: the web app,
the command line and the tests all drive the same pure functions.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from itertools import chain, repeat
from operator import attrgetter
from typing import Any, ClassVar, Generic, TypeVar, cast

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


#: The titles a player's state may carry (the federations' own abbreviations).
TITLES = ("GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM")

#: How the codec reads and checks a state's field (``PlayerState.kinds``): a figure, a
#: day, or one of a few words (a tuple of them). ``id``, ``games`` and ``guest`` have their
#: own kinds.
NUMBER = "number"
DATE = "date"
StateKind = str | tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PlayerState:
    """A player's standing between events: what every system shares (the figure, the
    games behind it, and the player's own details some systems read).

    A system that keeps more declares its own state in its module, a subclass of this
    one with its fields and their ``kinds`` (acf-1993's ``AcfState``: status, average
    opponent, score), and names it as its ``RatingSystem.state_type``; the codec, the
    driver and ``with_changes`` take whatever fields the type has.
    """

    id: str
    rating: float | None = None
    games: int = 0
    guest: bool = False
    born: date | None = None
    gender: str | None = None
    title: str | None = None

    #: Each field this class adds, and how the codec reads it: ``NUMBER``, ``DATE`` or
    #: the words it may be. A subclass names its own fields only; the codec gathers the
    #: rest from the classes above it.
    kinds: ClassVar[Mapping[str, StateKind]] = {
        "id": "id",
        "rating": NUMBER,
        "games": "games",
        "guest": "flag",
        "born": DATE,
        "gender": ("M", "F"),
        "title": TITLES,
    }

    def age_on(self, day: date) -> int | None:
        """Whole years of age on ``day``; None when the birth date is unknown."""
        if self.born is None:
            return None
        years = day.year - self.born.year
        if (day.month, day.day) < (self.born.month, self.born.day):
            years -= 1
        return years


#: Every system's state type, in the order the systems were declared (the shared one
#: first): ``RatingSystem`` adds each system's own.
STATE_TYPES: list[type[PlayerState]] = [PlayerState]

#: The fields every system's state has.
STATE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(PlayerState))


def state_fields(state_type: type[PlayerState]) -> tuple[str, ...]:
    """The fields of a state type, in order: the shared ones, then the system's own."""
    return _layout(state_type)[0]


def state_kinds(state_type: type[PlayerState]) -> dict[str, StateKind]:
    """Each field of a state type and how the codec reads it, from the ``kinds`` the type
    and the types above it declare. A field declared without a kind is a mistake in the
    system's module, said when the type is first used."""
    return _layout(state_type)[4]


def state_as(state_type: type[PlayerState], state: PlayerState) -> PlayerState:
    """``state`` as a ``state_type``: every field the two share kept, the others at the
    new type's defaults (a state from another system's list, or a bare one from outside)."""
    if type(state) is state_type:
        return state
    own = set(_layout(type(state))[0])
    return state_type(**{n: getattr(state, n) for n in _layout(state_type)[0] if n in own})


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
    displays: dict[str, str]
    events: list[EventResult]


@dataclass(frozen=True, slots=True)
class Parameter:
    """A documented rule a club could reasonably set differently.

    ``minimum`` and ``maximum`` bound a number, ``longest`` a text: the range the system's
    own document makes sensible (a rating within 0..3000, a K within what any Elo system
    uses), so that no value typed into a form or a file rates every member at a figure no
    list could show or no column could hold.
    """

    name: str
    default: ParamValue
    help: str
    choices: tuple[ParamValue, ...] | None = None
    minimum: float | None = None
    nullable: bool = False
    maximum: float | None = None
    longest: int = 40

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
            if isinstance(value, float) and not math.isfinite(value):
                return "must be a finite number"
            # The range before the whole-number test: a whole number too big for a float
            # (JSON's 1e400 written out) has no float to test.
            if self.minimum is not None and value < self.minimum:
                return f"must be at least {self.minimum:g}"
            if self.maximum is not None and value > self.maximum:
                return f"must be at most {self.maximum:g}"
            if expected is int and not float(value).is_integer():
                return "must be a whole number"
        elif not isinstance(value, expected):
            return f"must be a {expected.__name__}"
        elif isinstance(value, str) and len(value) > self.longest:
            return f"must be at most {self.longest} characters"
        if self.choices is not None and value not in self.choices:
            return "must be one of " + ", ".join(str(c) for c in self.choices)
        return None


@dataclass(frozen=True, slots=True)
class Marker:
    """One way a system shows a rating on its list: an example of it, its status in a
    word or two (the member page's and the API's), and what it means (the legend's)."""

    example: str
    status: str
    meaning: str

    def marks(self, display: str) -> bool:
        """Whether ``display`` carries this marker: the same text after the figures."""
        return display.lstrip("0123456789") == self.example.lstrip("0123456789")


@dataclass(frozen=True, slots=True)
class StatusChange:
    """When a member's rating status next changes, and to what: the system's own rule
    (``RatingSystem.status_changes``), never a guess.

    ``on``: the first day it has changed, unless the member plays a rated game before it
    (ecf-2020's lapse); ``after_games``: how many more rated games change it (st-charles'
    official rating). ``to`` is the status word it becomes, ``words`` the sentence a page
    or a message says to the member ("official after 2 more rated games").
    """

    to: str
    words: str
    on: date | None = None
    after_games: int | None = None


@dataclass(frozen=True, slots=True)
class FigureUsed:
    """An opponent's rating as a system used it in a game, when it is not the rating they
    held (``RatingSystem.opponent_figure``): ``word`` marks the figure where the rating
    held is shown beside it ("held"), ``words`` where it is not ("held from 1780"), and
    ``why`` says the rule in a sentence, the same for every such game."""

    word: str
    words: str
    why: str


def games_words(count: int) -> str:
    """ "1 more rated game", "3 more rated games"."""
    return f"{count} more rated game{'' if count == 1 else 's'}"


def day_words(day: date) -> str:
    """A day as a member reads it: "1 March 2027"."""
    return f"{day.day} {day:%B %Y}"


def span_name(start: date, end: date) -> str:
    """The months from ``start`` to ``end``: "July 2026", "Jul–Oct 2026", "Nov 2026–Feb 2027"."""
    if (start.year, start.month) == (end.year, end.month):
        return f"{start:%B %Y}"
    if start.year == end.year:
        return f"{start:%b}–{end:%b %Y}"
    return f"{start:%b %Y}–{end:%b %Y}"


_PAIR = attrgetter("a", "b")
_GAMES = attrgetter("games")


@dataclass(frozen=True)
class BroughtInField:
    """A word a system reads with a rating brought in besides its figure and games
    (acf-1993's status, ecf-2020's category): declared in the system's module, so the
    member's record keeps it by ``name`` and the forms, the members file and the member's
    page offer it with no change outside the engine."""

    #: The key the member's record keeps the word under (the same for any system that
    #: reads the same word).
    name: str
    #: The form's and the page's label ("ACF status brought in").
    label: str
    #: The members file's column ("ACF status").
    column: str
    #: The words it may be, (word, label), in the order offered.
    choices: tuple[tuple[str, str], ...]
    help_text: str = ""
    #: Whether the word weighs the games behind the rating, so needs some given.
    needs_games: bool = False

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(word for word, _ in self.choices)

    def problem(self, value: str, *, rating: float | None, games: int) -> str | None:
        """What is wrong with ``value`` as this word for a rating brought in, or None:
        a word describes a rating, so needs one; some weigh its games, so need them."""
        if not value:
            return None
        if value not in self.words:
            return f"The {self.column} is one of: {', '.join(self.words)}."
        if rating is None:
            return f"The {self.column} needs the rating it describes."
        if self.needs_games and not games:
            return f"The {self.column} needs the games behind the rating (games played before)."
        return None


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
    #: acf-1993), "performance" (performance ratings read their opponents' ratings before
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
        import re
        import sys

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


#: Per state type: its fields, their set, a getter of all their values, each one's index,
#: and each one's kind; built once a type (a big history makes a state a player an event).
_Layout = tuple[tuple[str, ...], frozenset[str], Any, dict[str, int], dict[str, StateKind]]
_LAYOUTS: dict[type[PlayerState], _Layout] = {}
_set_field = object.__setattr__


def _layout(state_type: type[PlayerState]) -> _Layout:
    try:
        return _LAYOUTS[state_type]
    except KeyError:
        pass
    names = tuple(f.name for f in fields(state_type))
    kinds: dict[str, StateKind] = {}
    for klass in reversed(state_type.__mro__):
        kinds.update(getattr(klass, "kinds", None) or {})
    missing = [n for n in names if n not in kinds]
    if missing:
        raise TypeError(f"{state_type.__name__} declares no kind for {', '.join(missing)}")
    layout = (
        names,
        frozenset(names),
        attrgetter(*names),
        {name: i for i, name in enumerate(names)},
        {n: kinds[n] for n in names},
    )
    _LAYOUTS[state_type] = layout
    return layout


def with_changes(state: T, **changes: Any) -> T:
    """A copy of ``state`` with some fields changed: ``dataclasses.replace(state, **changes)``
    at a third of its cost (a big history makes a new state for each player in each event).

    The fields are read in one call and set in one C-level pass: a frozen dataclass's own
    ``__init__`` sets them one Python statement at a time, most of the cost. Any system's
    state type: the copy is of the same type."""
    cls = type(state)
    names, name_set, values_of, index, _ = _LAYOUTS.get(cls) or _layout(cls)
    if not changes.keys() <= name_set:
        raise TypeError(f"{cls.__name__} has no field {sorted(changes.keys() - name_set)}")
    values = list(values_of(state))
    for name, value in changes.items():
        values[index[name]] = value
    copy: T = object.__new__(cls)
    deque(map(_set_field, repeat(copy, len(values)), names, values), 0)
    return copy
