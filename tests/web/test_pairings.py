"""Who plays whom (``ratings.rules.pairings``): the round robin's schedule, the grid's games,
rematches; and an event's standings and crosstable (``ratings.pages.crosstable``)."""

from __future__ import annotations

import itertools

import pytest

from ratings.models import Event, Game
from ratings.pages import crosstable
from ratings.rules import pairings

from ..factories import EventFactory, GameFactory


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6, 7, 8])
def test_a_round_robin_schedule_pairs_everyone_once(count):
    schedule = pairings.round_robin_schedule(list(range(count)))
    met = [frozenset(pair) for games in schedule.values() for pair in games if pair[1] is not None]
    assert sorted(map(sorted, met)) == sorted(map(list, itertools.combinations(range(count), 2)))
    assert len(schedule) == count - 1 + count % 2


@pytest.mark.parametrize("count", [4, 5, 6])
def test_nobody_plays_twice_in_a_round_of_the_schedule(count):
    for games in pairings.round_robin_schedule(list(range(count))).values():
        seated = [p for game in games for p in game if p is not None]
        assert len(seated) == len(set(seated)) == count  # the odd one out: (them, None)


def test_an_odd_player_out_sits_each_round_out_once():
    schedule = pairings.round_robin_schedule(["a", "b", "c"])
    out = [w for games in schedule.values() for w, b in games if b is None]
    assert sorted(out) == ["a", "b", "c"]


def test_a_grid_filled_in_from_scratch_is_the_schedule():
    players = [1, 2, 3, 4]
    cells = {pair: Game.Result.WHITE_WIN for pair in itertools.combinations(players, 2)}
    games = pairings.grid_games(players=players, cells=cells, existing={}, sitting=[], rounds=3)
    scheduled = {
        frozenset((w, b)): number
        for number, pairs in pairings.round_robin_schedule(players).items()
        for w, b in pairs
    }
    assert {frozenset((g.white_id, g.black_id)): g.round for g in games} == scheduled


def test_a_grid_cell_is_the_row_players_score_whatever_their_colour():
    games = pairings.grid_games(
        players=[1, 2], cells={(1, 2): Game.Result.WHITE_WIN}, existing={}, sitting=[], rounds=1
    )
    (game,) = games
    winner = game.white_id if game.result == Game.Result.WHITE_WIN else game.black_id
    assert winner == 1


def test_a_new_pair_moves_to_a_round_where_both_are_free():
    # Player 1 sat out round 1 with a bye; the schedule has them playing 2 there.
    schedule = pairings.round_robin_schedule([1, 2, 3, 4])
    number = next(n for n, games in schedule.items() for g in games if set(g) == {1, 2})
    games = pairings.grid_games(
        players=[1, 2, 3, 4],
        cells={(1, 2): Game.Result.DRAW},
        existing={},
        sitting=[(number, 1)],
        rounds=3,
    )
    assert games[0].round != number


def test_a_rematch_names_the_pair_and_the_other_rounds():
    games = [(1, 10, 11), (2, 12, 10), (3, 11, 10), (3, 12, 13)]
    assert pairings.rematches(games, 3) == [((10, 11), [1])]
    assert pairings.rematches(games, 2) == []


@pytest.mark.django_db
def test_players_level_on_points_and_every_tie_break_share_a_place(alice, bob, carol, dave):
    event = EventFactory(rounds=2)
    GameFactory(event=event, round=1, white=alice, black=bob, result=Game.Result.WHITE_WIN)
    GameFactory(event=event, round=1, white=carol, black=dave, result=Game.Result.WHITE_WIN)
    event.tie_breaks = "WIN"  # both winners won, both losers lost: nothing splits them
    players = [dave, carol, bob, alice]
    standing = crosstable.event_standing(event, players, list(event.games.all()))
    name = {m.pk: m.name for m in players}
    assert [name[pk] for pk in standing.order] == [
        "Alice Archer",
        "Carol Chen",
        "Bob Brown",
        "Dave Dunn",
    ]
    assert [standing.places[pk] for pk in standing.order] == ["1=", "1=", "3=", "3="]
    _points, games = crosstable.event_scores(event)
    assert games == {alice.pk: 1, bob.pk: 1, carol.pk: 1, dave.pk: 1}


@pytest.mark.django_db
def test_a_swiss_crosstable_gives_each_round_the_opponents_place_colour_and_points(
    alice, bob, carol
):
    event = EventFactory(rounds=2, kind=Event.Kind.SWISS)
    GameFactory(event=event, round=1, white=alice, black=bob, result=Game.Result.WHITE_WIN)
    GameFactory(event=event, round=1, white=carol, black=None, result=Game.Result.BYE)
    GameFactory(event=event, round=2, white=carol, black=alice, result=Game.Result.DRAW)
    cells = crosstable.crosstable_cells([alice, carol, bob], event.games.all(), event)
    assert cells == [["3w1", "2b½"], ["bye 1", "1w½"], ["1b0", ""]]


@pytest.mark.django_db
def test_a_round_robin_crosstable_is_a_grid_with_forfeits_marked(alice, bob, carol):
    event = EventFactory(rounds=3, kind=Event.Kind.ROUND_ROBIN)
    GameFactory(event=event, round=1, white=alice, black=bob, result=Game.Result.WHITE_WIN)
    GameFactory(
        event=event, round=2, white=carol, black=alice, result=Game.Result.BLACK_FORFEIT_WIN
    )
    cells = crosstable.crosstable_cells([alice, bob, carol], event.games.all(), event)
    assert cells == [["×", "1", "1f"], ["0", "×", ""], ["0f", "", "×"]]
