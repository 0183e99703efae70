"""Every game once: the games of an event coming in, compared with the games recorded.

Plain Python (no Django): the imports, the pasted round and the completion ask the
record once for the games that could match (``services.duplicates``) and this module
says which do.

A game's fingerprint is its two players (members' ids), its round and its result, read
from the side of the player with the lower id, so that the same game written with the
colours swapped (white and black exchanged, the result turned round) is the same game;
the event's name plays no part. A game coming in matches a game recorded in another
event with the same fingerprint whose dates overlap its event's dates. Byes (one player)
have no fingerprint: a bye is not a game rated twice.

The rule: every matching game is shown at the preview, with the events holding them; the
games coming in are a duplicate (the same games again: a file imported twice, renamed)
when at least ``DUPLICATE_AT_LEAST`` of them match, or at least half of them. A duplicate
is saved only with the officer's reason, kept with the event; fewer matches (the same
pair, the same result, on the same days: it happens) are shown and saved as they are.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from .results import flipped

#: (round, one player, the other, the result from the first one's side as white).
Fingerprint = tuple[int, int, int, str]

#: So many matching games make the games coming in a duplicate, whatever their number.
DUPLICATE_AT_LEAST = 3


def fingerprint(*, round: int, white: int, black: int | None, result: str) -> Fingerprint | None:
    """A game's fingerprint, the same whichever player the record calls white; None for a
    bye."""
    if black is None:
        return None
    if white <= black:
        return (round, white, black, result)
    return (round, black, white, flipped(result))


@dataclass(frozen=True)
class RecordedGame:
    """A game recorded, as the comparison reads it: its event and that event's dates."""

    event: int
    name: str
    start: dt.date
    end: dt.date
    print: Fingerprint


@dataclass(frozen=True)
class Overlap:
    """An event already recorded holding some of the games coming in."""

    event: int
    name: str
    start: dt.date
    games: int


@dataclass(frozen=True)
class Duplicates:
    """What the comparison found for one event's games coming in."""

    games: int  # the games coming in (byes aside)
    matched: int  # those already recorded in some other event
    overlaps: list[Overlap] = field(default_factory=list)  # most matches first

    @property
    def found(self) -> bool:
        return self.matched > 0

    @property
    def is_duplicate(self) -> bool:
        """The same games again: saved only with the officer's reason."""
        return self.matched >= min(DUPLICATE_AT_LEAST, (self.games + 1) // 2) > 0

    def words(self) -> str:
        """What the officer reads: how many games, and where they are recorded."""
        places = "; ".join(
            f"{o.games} in “{o.name}” ({o.start.day} {o.start:%b %Y})" for o in self.overlaps
        )
        return (
            f"{self.matched} of these {self.games} games (the same players, round and result "
            f"on the same days) are already recorded: {places}."
        )


NONE_FOUND = Duplicates(games=0, matched=0)


def compare(
    *,
    games: Iterable[Fingerprint | None],
    start: dt.date,
    end: dt.date,
    recorded: Iterable[RecordedGame],
) -> Duplicates:
    """The games coming in (an event dated ``start`` to ``end``) compared with ``recorded``.

    Each recorded game matches one game coming in at most (two games between the same
    pair in the same round match two recorded ones, not one twice), and a game coming in
    is counted once however many events hold it.
    """
    coming = Counter(p for p in games if p is not None)
    total = sum(coming.values())
    by_event: dict[int, Counter[Fingerprint]] = {}
    about: dict[int, RecordedGame] = {}
    for game in recorded:
        if game.print in coming and game.start <= end and game.end >= start:
            by_event.setdefault(game.event, Counter())[game.print] += 1
            about.setdefault(game.event, game)
    overlaps = []
    matched: Counter[Fingerprint] = Counter()
    for event, held in by_event.items():
        common = held & coming
        matched |= common
        overlaps.append(
            Overlap(
                event=event,
                name=about[event].name,
                start=about[event].start,
                games=sum(common.values()),
            )
        )
    overlaps.sort(key=lambda o: (-o.games, o.start, o.event))
    return Duplicates(games=total, matched=sum(matched.values()), overlaps=overlaps)
