"""Lost updates refused: an event's results as they stood when an officer opened a page.

A results page (a round, a pasted round, the round-robin grid) carries the version of the
results it showed: a short hash of each round's games, as ``round:hash`` pairs. Saving
hands it back to ``games_replace``, which compares the rounds it replaces with what is
stored now, under the event's row lock, in the same transaction as the save: when another
save (another officer, another tab, the admin, an import) changed one of them since, the
save is refused with who changed it and when (``ResultsChanged``), and nothing is written.
A round left alone by the other save does not stand in the way.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.formats import date_format

from ..models import Event, Game

#: What makes a game what the page showed (its id too: a game deleted and entered again
#: is another save's work).
_VERSIONED = ("pk", "round", "board", "white_id", "black_id", "result")


#: "19:42 on 3 Mar 2026"
_WHEN = r"H:i \o\n j M Y"


@dataclass(eq=False)
class ResultsChanged(Exception):
    """A save refused: the results it replaces changed since its page was opened."""

    rounds: tuple[int, ...]
    who: str  # the login that changed them, or "" when no history names one
    when: dt.datetime | None

    def __str__(self) -> str:
        what = (
            f"round {self.rounds[0]}’s results"
            if len(self.rounds) == 1
            else f"the results of rounds {', '.join(map(str, self.rounds))}"
        )
        by = f" by {self.who}" if self.who else ""
        at = ""
        if self.when is not None:
            at = " at " + date_format(timezone.localtime(self.when), _WHEN)
        return (
            f"Not saved: {what} were changed{by}{at}, after you opened this page. "
            "Your entry is below as you left it: check the results now saved, then save "
            "again to replace them with yours."
        )


def _round_hashes(event: Event, *, pairs_only: bool) -> dict[int, str]:
    games = event.games.all()
    if pairs_only:
        games = games.exclude(black__isnull=True)
    rows: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for row in games.order_by("round", "pk").values_list(*_VERSIONED):
        rows[row[1]].append(row)
    hashes = {number: _hash([]) for number in range(1, event.rounds + 1)}
    hashes.update({number: _hash(games_of) for number, games_of in rows.items()})
    return hashes


def _hash(rows: list[tuple[Any, ...]]) -> str:
    return hashlib.blake2b(repr(rows).encode(), digest_size=6).hexdigest()


def results_version(*, event: Event, pairs_only: bool = False) -> str:
    """The version of ``event``'s results a page shows: ``round:hash`` for every round
    (``pairs_only``: the games between two players only, as the grid shows them)."""
    return ",".join(
        f"{n}:{h}" for n, h in sorted(_round_hashes(event, pairs_only=pairs_only).items())
    )


def _read(version: str) -> dict[int, str]:
    """A version as a page sent it back; pieces that are not ``round:hash`` are dropped
    (the rounds they would name then count as changed)."""
    read: dict[int, str] = {}
    for piece in version.split(","):
        number, _, digest = piece.partition(":")
        if number.isascii() and number.isdigit() and len(number) < 6:
            read[int(number)] = digest
    return read


def results_unchanged_check(
    *, event: Event, version: str, rounds: Iterable[int] | None, pairs_only: bool = False
) -> None:
    """Refuse (``ResultsChanged``) a save of ``rounds`` (None: every round) whose results
    differ from ``version``, the page's. Called by ``games_replace`` under the event's
    row lock, so no save slips in between the check and the write."""
    now = _round_hashes(event, pairs_only=pairs_only)
    seen = _read(version)
    wanted = set(now) | set(seen) if rounds is None else set(rounds)
    changed = tuple(sorted(n for n in wanted if now.get(n, _hash([])) != seen.get(n)))
    if changed:
        who, when = _last_change(event, changed)
        raise ResultsChanged(rounds=changed, who=who, when=when)


def _last_change(event: Event, rounds: tuple[int, ...]) -> tuple[str, dt.datetime | None]:
    """Who made the latest change to those rounds' games, and when (the audit trail; a
    deleted game's record keeps its event and round)."""
    record = (
        Game.history.filter(event_id=event.pk, round__in=rounds)
        .select_related("history_user")
        .order_by("-history_date", "-history_id")
        .first()
    )
    if record is None:
        return "", None
    user = record.history_user
    who = (user.get_full_name() or user.get_username()) if user is not None else ""
    return who, record.history_date
