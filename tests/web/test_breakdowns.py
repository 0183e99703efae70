"""How a period system's rating change is stored packed (ratings/models/breakdowns.py), no
database.

Packed, a change keeps its figures' values and each game's engine-worked figures; the
opponent, score and round come back from the games. Read back with its games, it must be
the whole breakdown the engine gave, on any history.
"""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.engine import (
    AcfState,
    EcfState,
    Event,
    Game,
    PlayerChange,
    PlayerState,
    get_system,
    rated_games,
)
from ratings.models.breakdowns import (
    SHAPES,
    PlayedGame,
    breakdown_json,
    breakdown_packed,
    breakdown_read,
    breakdown_stored,
    breakdown_unpacked,
)

from ..engine.test_properties import PROFILE, draw_run, rate

PERIOD_SYSTEMS = ["acf-1993", "ecf-2020"]


def games_of(player: str, event: Event) -> list[PlayedGame]:
    """The player's games in the event as the Game rows give them, in the order rated."""
    out: list[PlayedGame] = []
    for game in event.games:
        if game.a == player:
            out.append((game.b, game.score, game.round))
        elif game.b == player:
            out.append((game.a, 1.0 - game.score, game.round))
    return out


def changes_with_games(history: list[Event], result) -> list[tuple[PlayerChange, list]]:
    by_id = {event.id: event for event in history}
    return [
        (change, games_of(change.player, by_id[event.id]))
        for event in result.events
        for change in event.changes
    ]


@pytest.mark.parametrize("system_id", PERIOD_SYSTEMS)
@PROFILE
@given(data=st.data())
def test_a_packed_change_read_with_its_games_is_the_engines_whole_breakdown(
    system_id: str, data: st.DataObject
) -> None:
    listed, history, params = draw_run(data, system_id)
    result = rate(system_id, listed, history, **params)
    for change, games in changes_with_games(history, result):
        packed = breakdown_packed(change)
        assert packed is not None, change.detail
        # A change stores its rated games' score (``rated_games``), as the re-rate writes it.
        whole = breakdown_unpacked(packed, games, score=rated_games(change.games)[1])
        assert breakdown_read(whole) == breakdown_read(breakdown_json(change))


def _one_period(system_id: str, players: list[PlayerState], games: list[Game]):
    event = Event(id="e1", date=date(2024, 5, 10), games=tuple(games))
    return get_system(system_id).rate(players, [event]), event


def test_every_shape_is_one_the_engine_gives():
    # acf-1993: two confirmed players; a confirmed one who meets only a new player; a
    # partially rated player with no score yet, reset to new as the period opens.
    acf, _ = _one_period(
        "acf-1993",
        [
            AcfState("ann", 1600.0, 50, status="confirmed"),
            AcfState("bob", 1500.0, 40, status="confirmed"),
            AcfState("cat", 1700.0, 60, status="confirmed"),
            AcfState("zed", None, 3, status="unrated", avg_opp=1500.0, score=0.0),
        ],
        [Game("ann", "bob", 1.0, 1), Game("cat", "new", 0.5, 1), Game("zed", "ann", 0.0, 2)],
    )
    # ecf-2020: two fully rated players (K ratings) and a new one (a P rating).
    ecf, _ = _one_period(
        "ecf-2020",
        [
            EcfState("ann", 1600.0, 50, category="full", last_played=date(2024, 1, 1)),
            EcfState("bob", 1500.0, 40, category="full", last_played=date(2024, 1, 1)),
        ],
        [Game("ann", "bob", 1.0, 1), Game("new", "ann", 0.5, 2)],
    )
    given_shapes = {
        breakdown_packed(change)[0]  # type: ignore[index]
        for result in (acf, ecf)
        for change in result.events[0].changes
    }
    assert given_shapes == set(range(len(SHAPES)))


def test_a_packed_line_keeps_only_what_the_engine_worked_out():
    result, _ = _one_period(
        "acf-1993",
        [
            AcfState("ann", 1051.0, 50, status="confirmed"),
            AcfState("joe", 2400.0, 50, status="confirmed"),
        ],
        [Game("ann", "joe", 0.0, 1), Game("ann", "new", 1.0, 2)],
    )
    ann = next(c for c in result.events[0].changes if c.player == "ann")
    # The 336 rule: Jones counts at 1387, held from 2400; the new player is not rated.
    assert breakdown_packed(ann)[-1] == [[1387, 2400], None]  # type: ignore[index]


def test_games_that_no_longer_fit_give_the_figures_without_lines():
    result, event = _one_period(
        "ecf-2020",
        [EcfState("ann", 1600.0, 50, category="full", last_played=date(2024, 1, 1))],
        [Game("ann", "new", 1.0, 1), Game("new", "ann", 0.5, 2)],
    )
    ann = next(c for c in result.events[0].changes if c.player == "ann")
    packed = breakdown_packed(ann)
    games = games_of("ann", event)
    figures = {key: value for key, value in breakdown_json(ann).items() if key != "lines"}
    assert breakdown_unpacked(packed, games[:1]) == figures  # a game taken out
    assert breakdown_unpacked(packed, games, score=0.5) == figures  # a result changed
    assert breakdown_unpacked(packed, None) == figures
    assert breakdown_read(packed) == breakdown_read(figures)


def test_a_breakdown_no_shape_fits_is_stored_whole():
    change = PlayerChange("ann", 1500.0, 1510.0, "1500", "1510", [], {"a new figure": 1})
    assert breakdown_stored(change, system=get_system("ecf-2020")) == breakdown_json(change)
    assert breakdown_stored(change, system=get_system("nz-club-elo")) == {}
