"""A match: several games between the same two players in one round (a knockout's
mini-match, a league meet's games). Every system rates each game of it, as it rates the
same games played in rounds of their own."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from ratings.engine import SYSTEMS, Event, Game, PlayerState, rate

PLAYERS = [
    PlayerState(id="ann", rating=1650.0, games=40),
    PlayerState(id="bob", rating=1500.0, games=40),
    PlayerState(id="cat", rating=1580.0, games=40),
    PlayerState(id="dan", rating=1450.0, games=40),
]
#: Round 1 of single games, then round 2: ann and bob's match of three games beside
#: cat and dan's one.
MATCH = (
    Game("ann", "cat", 1.0, round=1),
    Game("bob", "dan", 0.5, round=1),
    Game("ann", "bob", 0.5, round=2),
    Game("bob", "ann", 1.0, round=2),
    Game("ann", "bob", 0.0, round=2),
    Game("cat", "dan", 1.0, round=2),
)
#: The same games, the match's second and third in rounds of their own.
SPREAD = (*MATCH[:3], replace(MATCH[3], round=3), replace(MATCH[4], round=4), MATCH[5])


def rated(system: str, games: tuple[Game, ...]):
    result = rate(
        system,
        players=PLAYERS,
        events=[Event(id="cup", date=date(2025, 10, 7), games=games)],
    )
    return {
        change.player: (change.after, [(line.opponent, line.score) for line in change.games])
        for event in result.events
        for change in event.changes
    }


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_every_game_of_a_match_in_one_round_is_rated(system):
    changes = rated(system, MATCH)
    assert sorted(changes["ann"][1]) == [("bob", 0.0), ("bob", 0.0), ("bob", 0.5), ("cat", 1.0)]
    assert sorted(changes["bob"][1]) == [("ann", 0.5), ("ann", 1.0), ("ann", 1.0), ("dan", 0.5)]


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_a_match_in_one_round_is_rated_as_its_games_in_rounds_of_their_own(system):
    assert rated(system, MATCH) == rated(system, SPREAD)
