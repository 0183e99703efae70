"""The record's rules, each named once with the message an officer sees.

Every way into the record asks these: the models' ``clean`` (the officer's forms and the
admin's, inlines included), the services that write (results entered, events completed,
payments recorded), the imports (members and results CSV, TRF, PGN, ``import_club``) and
the management commands through them. Where a rule can be a database constraint it is one
as well (``Meta.constraints``, built from the same bounds), so a write that slips past
every check still fails. docs/officer-guide.md's "The record's rules" lists them and where each is
enforced.

Each ``*_problem`` function answers None (nothing wrong) or the message; a service that
finds one raises ``RecordRefused`` (a ``ValidationError``: forms and the admin show it).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Collection, Iterable, Mapping
from decimal import Decimal
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.utils import timezone

from ..rules.names import name_problem
from ..rules.text import text_problem
from ..rules.tiebreaks import read_codes
from ..words.counts import count_phrase

if TYPE_CHECKING:
    from .events import Event

#: Members' names by pk, or how to find them for the pks asked (``members.member_names``).
Names = Mapping[int, str] | Callable[[Collection[int]], Mapping[int, str]]


class RecordRefused(ValidationError):
    """A write that would break one of the record's rules: nothing of it is saved."""


#: No member was born, no event played and no subscription paid before this: an earlier
#: date is a typing slip (year 1 for 2001).
EARLIEST_DATE = dt.date(1900, 1, 1)
#: How far ahead a payment may be dated: a season paid in advance, not a slip of the year
#: (9999). The same reach as an event's date.
DAYS_AHEAD = 366
#: The most a subscription may be: DecimalField(max_digits=8) holds 999,999.99, far beyond
#: any club's fee; a bigger figure is a slip of the decimal point.
MAX_AMOUNT = Decimal("99999.99")
#: The highest rating a member may bring in. No system here rates anywhere near it
#: (FIDE's highest ever is 2882; club scales run lower): 15000 is a typo for 1500.
MAX_RATING = 3500
#: The most rated games a member may bring in: a lifetime of weekly games is a few
#: thousand; 10^30 is a slip (and would overflow the column).
MAX_GAMES = 100_000
#: An event's rounds (and a game's round): a year of weekly club nights fits.
MAX_ROUNDS = 99
#: A board number: the biggest opens have a few hundred boards.
MAX_BOARD = 9_999


def _day(day: dt.date) -> str:
    return f"{day.day} {day:%b %Y}"


# -- free text ----------------------------------------------------------------------------


def validate_text(value: str) -> None:
    """A field's validator for free text of one line (a region, a time control, a reason):
    no control or invisible character (``rules.text.text_problem``)."""
    if problem := text_problem(value):
        raise ValidationError(problem, code="hidden_characters")


def validate_tie_breaks(value: str) -> None:
    """An event's tie-breaks: the known codes, each once (``rules.tiebreaks.read_codes``)."""
    _codes, problem = read_codes(value)
    if problem:
        raise ValidationError(problem, code="tie_breaks")


def validate_lines(value: str) -> None:
    """As ``validate_text``, for a text of several lines (a note): line breaks and tabs
    allowed."""
    if problem := text_problem(value, lines=True):
        raise ValidationError(problem, code="hidden_characters")


# -- members ------------------------------------------------------------------------------


def member_name_problem(name: str) -> str | None:
    """A member's name needs a letter ("12345" is a number typed in the wrong box), and
    may hold no control or invisible character (``names.name_problem``)."""
    problem = name_problem(name)
    if problem:
        return problem
    if name and not any(char.isalpha() for char in name):
        return "A member's name must contain a letter (this one is only digits or signs)."
    return None


def rating_problem(rating: float | None) -> str | None:
    if rating is not None and not 0 <= rating <= MAX_RATING:
        return f"A rating brought in is from 0 to {MAX_RATING}."
    return None


def games_problem(games: int | None) -> str | None:
    if games is not None and not 0 <= games <= MAX_GAMES:
        return f"Games played before are from 0 to {MAX_GAMES:,}."
    return None


# -- subscriptions ------------------------------------------------------------------------


def paid_on_problem(day: dt.date | None) -> str | None:
    """A payment's date: not before 1900, not more than a year ahead."""
    if day is None:
        return None
    if day < EARLIEST_DATE:
        return f"{_day(day)}: a payment before {EARLIEST_DATE.year} is surely a slip of the year."
    if day > timezone.localdate() + dt.timedelta(days=DAYS_AHEAD):
        return f"{_day(day)} is more than a year ahead: check the year."
    return None


def amount_problem(amount: Decimal | None) -> str | None:
    """A payment's amount: none, or from 0 (a free membership) to ``MAX_AMOUNT``."""
    if amount is None:
        return None
    if amount < 0:
        return "An amount cannot be negative (to take a payment back, remove it)."
    if amount > MAX_AMOUNT:
        return f"An amount is at most {MAX_AMOUNT:,}: check the decimal point."
    return None


# -- events and games ---------------------------------------------------------------------


def results_too_early_problem(event: Event) -> str | None:
    """Results are entered once an event has started, never for a date still to come."""
    if event.start_date is not None and event.start_date > timezone.localdate():
        return (
            f"{event.name} starts on {_day(event.start_date)}: results can be entered once "
            "it has started."
        )
    return None


def imported_event_problem(name: str, *, games: int, played: int, rated: bool) -> str | None:
    """An import (``import_trf``, ``import_pgn``, ``import_results``) records each event
    complete, so it takes an event with results: none at all is refused, and a rated one
    needs a game between two players to rate, as marking an event complete does.
    ``games`` counts every game and bye of the event, ``played`` those between two
    players that count for rating."""
    if games == 0:
        return (
            f"{name} has no games: an import records each event complete, so it needs "
            "the results. Enter an event still to be played on the officer's Events page "
            "(or import its file on the Import page, which leaves it open) and its results "
            "as they come."
        )
    if rated and played == 0:
        return (
            f"{name} has no game between two players to rate (only byes and forfeits): an "
            "import records each event complete and rated. Leave it out of the import, or "
            "enter it on the officer's Events page and untick “rated”."
        )
    return None


def self_play_problem(white_id: int | None, black_id: int | None) -> str | None:
    if black_id is not None and black_id == white_id:
        return "A player cannot play themselves."
    return None


def round_problem(round_: int | None, rounds: int) -> str | None:
    if round_ is not None and not 1 <= round_ <= rounds:
        return (
            f"This event has {count_phrase(rounds, 'round')}: round {round_} is not one of them."
        )
    return None


def twice_in_round_problems(
    games: Iterable[tuple[int, int | None, int | None]], *, names: Names
) -> list[str]:
    """Each player meets one opponent a round: the players found with two opponents (or
    a bye and a game) in one round among ``games`` (round, white id, black id), one
    message each ("Ana Tuilagi has two games in round 3."). Several games between the
    same two players in one round are a match (a knockout's mini-match, a league meet's
    games), allowed. ``names``: members' names by id, or how to find those of the players
    found (``members.member_names``, one query)."""
    opponents: dict[tuple[int, int], int | None] = {}
    twice: dict[tuple[int, int], None] = {}
    for round_, white, black in games:
        for player, opponent in ((white, black), (black, white)):
            if player is None or round_ is None:
                continue
            if (round_, player) in opponents and (
                opponent is None or opponents[round_, player] != opponent
            ):
                twice[(round_, player)] = None
            opponents.setdefault((round_, player), opponent)
    if not twice:
        return []
    if callable(names):
        names = names({player for _, player in twice})
    return [
        f"{names.get(player, player)} has two games in round {round_}: a player meets one "
        "opponent a round (several games against the same one are a match)."
        for round_, player in twice
    ]
