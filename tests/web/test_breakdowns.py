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
    RatingSystem,
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
    shapes_of,
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


# -- stored rows of every shape read back under the numbers they were stored with ----------

#: A row of each shape as the app has stored them since shapes were numbered, and the
#: figures it names: each system declares its shapes in its module now, and a stored row
#: must still read as it was written (a shape's number is its for good).
STORED_ROWS = [
    (
        [0, "confirmed", "confirmed", "established", 1, 1, 1500, -100, 100, 0.64, 0.64, 0, 5.4,
         [1500, None]],
        {"status_before": "confirmed", "status_after": "confirmed",
         "calculation": "established", "NG": 1, "Sa": 1, "AR": 1500, "D": -100,
         "D_table": 100, "P": 0.64, "Se": 0.64, "BP": 0, "Ri": 5.4},
    ),
    (
        [1, "confirmed", "confirmed", "established", 0, 0, None, None, None, 0, 0, 0, [None]],
        {"status_before": "confirmed", "status_after": "confirmed",
         "calculation": "established", "NG": 0, "Sa": 0, "AR": None, "D": None, "P": None,
         "Se": 0, "BP": 0, "Ri": 0},
    ),
    (
        [2, "new", "provisional", "performance", 1, 0.5, 1, 0.5, 1700, 50, 0, 1700, [1700]],
        {"status_before": "new", "status_after": "provisional",
         "calculation": "performance", "played": 1, "Sa": 0.5, "NG": 1, "TS": 0.5,
         "AR": 1700, "percentage": 50, "Dp": 0, "Rp": 1700},
    ),
    (
        [3, "unrated", "unrated", True, "performance", 1, 0, 1, 0, 1600, None, None, None,
         [1600]],
        {"status_before": "unrated", "status_after": "unrated", "reset": True,
         "calculation": "performance", "played": 1, "Sa": 0, "NG": 1, "TS": 0, "AR": 1600,
         "percentage": None, "Dp": None, "Rp": None},
    ),
    (
        [4, "new", "partial", "P", 1, 0.5, 1800, 2, 1, 1700, 0.5, 0, 1700, 1700, 1, 2, 1700,
         0.5, 0, [1600]],
        {"category_before": "new", "category_after": "partial", "pass": "P",
         "month_games": 1, "month_points": 0.5, "dummy_rating": 1800, "total_games": 2,
         "total_points": 1, "avg_opp": 1700, "p": 0.5, "dp": 0, "rating_a": 1700,
         "rating_b": 1700, "pass1_games_used": 1, "pass1_total_games": 2,
         "pass1_avg_opp": 1700, "pass1_p": 0.5, "pass1_dp": 0},
    ),
    (
        [5, "full", "full", "K", 2, 1.5, 20, True, 10, 0,
         [[1500, -100, -2.8, 10, 7.2], [1700, 100, 2.8, 0, 2.8]]],
        {"category_before": "full", "category_after": "full", "pass": "K",
         "month_games": 2, "month_points": 1.5, "player_k": 20, "improving": True,
         "sum_offsets": 10, "adjustment": 0},
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    ("row", "figures"), STORED_ROWS, ids=[f"shape {row[0]}" for row, _ in STORED_ROWS]
)
def test_a_stored_row_of_every_shape_reads_back_with_its_figures_names(row, figures):
    assert breakdown_read(row) == figures
    assert breakdown_unpacked(row, None) == figures


def test_every_shape_is_stored_under_the_number_its_system_gives_it():
    assert set(SHAPES) == {row[0] for row, _ in STORED_ROWS}
    assert {
        at: system_id
        for system_id in PERIOD_SYSTEMS
        for at in get_system(system_id).breakdown_shapes
    } == {0: "acf-1993", 1: "acf-1993", 2: "acf-1993", 3: "acf-1993", 4: "ecf-2020", 5: "ecf-2020"}


def test_a_stored_acf_row_reads_its_held_rating_with_its_games():
    row = [0, "confirmed", "confirmed", "established", 2, 1, 1700, -100, 100, 0.64, 1.28, 0,
           -2.8, [[1700, 2100], 1700]]  # fmt: skip
    whole = breakdown_unpacked(row, [("joe", 0.0, 1), ("sue", 1.0, 2)], score=1.0)
    assert breakdown_read(whole)["games"] == [
        {"opponent": "joe", "score": 0.0, "opponent_rating": 1700, "round": 1, "held_from": 2100},
        {"opponent": "sue", "score": 1.0, "opponent_rating": 1700, "round": 2},
    ]


def test_two_systems_giving_one_shape_number_is_said_when_the_app_starts():
    class Other(RatingSystem[PlayerState]):
        id = "other-test"
        title = "Another period system (a test's own)"
        breakdown_shapes = {4: (("spread",), ())}

        def rate_period(self, players, events, period):
            return []

        def display(self, player):
            return ""

    with pytest.raises(ValueError, match="other-test's breakdown shape 4 is ecf-2020's"):
        shapes_of([get_system("ecf-2020").__class__, Other])
