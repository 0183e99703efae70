"""acf-1993's standing of a player: the four statuses the booklet names, and the state the
system carries between events (``AcfState``), apart from the rules that move it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from .states import NUMBER, PlayerState, StateKind

NEW = "new"
UNRATED = "unrated"
PROVISIONAL = "provisional"
CONFIRMED = "confirmed"
#: Every status, in the order a player goes through them.
STATUSES = (NEW, UNRATED, PROVISIONAL, CONFIRMED)
#: The statuses the zero-score reset applies to.
PARTIALLY_RATED = frozenset((UNRATED, PROVISIONAL))


@dataclass(frozen=True, slots=True)
class AcfState(PlayerState):
    """A player's acf-1993 standing: their status, and while not yet confirmed, the
    average rating of their opponents (AR) and their score (TS) over ``games`` games."""

    status: str | None = None
    avg_opp: float | None = None
    score: float | None = None

    kinds: ClassVar[Mapping[str, StateKind]] = {
        "status": STATUSES,
        "avg_opp": NUMBER,
        "score": NUMBER,
    }
