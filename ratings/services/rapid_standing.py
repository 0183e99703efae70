"""ecf-2020's rapid standing-in: the standard list reading a new player's rapid rating.

Where ecf-2020 rates the standard list and the club keeps a rapid list of its own, also
rated by ecf-2020, a player new to standard play stands in with their rapid rating as it
stood when the period began. The re-rate, the period ripple and an event's preview all
read it from here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from ..engine import PlayerState, RatingSystem
from ..models import ClubSettings, RatingList
from ..rules.time_classes import RAPID, STANDARD
from .chain import Position, last_changes_before


def rapid_feeds_standard(system: RatingSystem | None = None, time_class: str = STANDARD) -> bool:
    """Whether the standard list reads rapid ratings: ecf-2020 rates it and the club keeps
    a rapid list of its own, rated by ecf-2020 too (the method's "category K or A" is one
    of its own ratings: another system's rapid figure has no category to read)."""
    if time_class != STANDARD:
        return False
    if system is None:
        system = ClubSettings.load().engine()
    if not system.reads_rapid_list:
        return False
    return RatingList.objects.filter(
        time_class=RAPID, online=False, kept=RatingList.Kept.OWN, rating_system=system.id
    ).exists()


def holds_rapid(state: PlayerState) -> bool:
    """Whether a state carries a rapid standing (only a system that reads the rapid list
    keeps one in its state: others have no such fields)."""
    return any(
        getattr(state, name, None) is not None
        for name in ("rapid_rating", "rapid_category", "rapid_last_played")
    )


def rapid_ratings_set(
    *,
    states: dict[str, PlayerState],
    key: Position,
    member_ids: Iterable[int],
    system: RatingSystem[Any],
) -> dict[str, PlayerState]:
    """The new players among ``member_ids`` (no standard games, no rating) with their
    rapid standing before rating position ``key``: their last rapid change's rating,
    category and last rapid game. Whether it counts is the engine's to say (ecf-2020:
    a current full rating)."""
    new = [
        pk
        for pk in member_ids
        if (state := states.get(str(pk))) is not None and state.games == 0 and state.rating is None
    ]
    prior = last_changes_before(key, new, RAPID)
    out = {}
    for pk in new:
        # The system's own states (a row read back without its system may be another's):
        # the rapid list is rated by the same system as the standard one.
        rapid = system.own_state(prior[pk].state) if pk in prior else None
        state = states[str(pk)]
        standing = replace(
            system.own_state(state),
            rapid_rating=rapid.rating if rapid else None,
            rapid_category=rapid.category if rapid else None,
            rapid_last_played=rapid.last_played if rapid else None,
        )
        if standing != state:
            out[str(pk)] = standing
    return out
