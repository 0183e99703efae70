"""What a system needs of a rating brought in: it says so (``brought_in_missing``) exactly
when, without it, the rating would be dropped and the player started as new."""

from __future__ import annotations

import datetime as dt

import pytest

from ratings.engine import SYSTEMS
from ratings.engine.base import PlayerState

#: Every standing word any system reads, and none.
STANDINGS = (None, "confirmed", "provisional", "full", "partial")


def kept(system, games: int, standing: str | None) -> bool:  # type: ignore[no-untyped-def]
    """Whether a 1500 brought in with ``games`` and ``standing`` survives the system's start:
    a rating to rate from, shown as one."""
    state = PlayerState(id="1", rating=1500.0, games=games)
    if system.brought_in_standing is None:
        standing = None
    started = system.prepare(
        system.brought_in(state, standing=standing, since=dt.date(2026, 1, 1))
    )
    return started.rating is not None and system.display(started) != ""


@pytest.mark.parametrize("system_id", sorted(SYSTEMS))
@pytest.mark.parametrize("games", [0, 5, 40])
@pytest.mark.parametrize("standing", STANDINGS)
def test_a_system_names_what_is_missing_exactly_when_it_would_drop_the_rating(
    system_id: str, games: int, standing: str | None
) -> None:
    system = SYSTEMS[system_id]()
    if system.brought_in_standing is None:
        standing = None
    missing = system.brought_in_missing(rating=1500.0, games=games, standing=standing)
    assert (missing is None) == kept(system, games, standing)


@pytest.mark.parametrize("system_id", sorted(SYSTEMS))
def test_no_rating_brought_in_lacks_nothing(system_id: str) -> None:
    assert SYSTEMS[system_id]().brought_in_missing(rating=None, games=0, standing=None) is None


def test_acf_1993_names_the_games_or_a_confirmed_status() -> None:
    missing = SYSTEMS["acf-1993"]().brought_in_missing(rating=1500.0, games=0)
    assert missing == "the games played before it (or the status “confirmed”)"


def test_ecf_2020_names_the_games() -> None:
    missing = SYSTEMS["ecf-2020"]().brought_in_missing(rating=1500.0, games=0)
    assert missing == "the games played before it"
