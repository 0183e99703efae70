"""What a rating system declares of itself besides its rules: its settings (``Parameter``),
the markers its list shows (``Marker``), when a member's status next changes
(``StatusChange``), an opponent's figure as used (``FigureUsed``), the words it reads with
a rating brought in (``BroughtInField``), and the few phrases its sentences share.

Apart from ``base.py``'s states, games and the driver: these are what the pages, forms
and files show of a system, each declared once in the system's own module.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date

#: A parameter's value, as JSON holds it.
ParamValue = float | int | str | bool | None


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
