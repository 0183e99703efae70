"""nz-club-elo: every rule of the club's text (the NZ club's rules), one behaviour a test.

The text: expected score 1 / (1 + 10^((Rb - Ra)/400)); K 32, 16 once a player has played
MORE than 30 rated games; new players 1500; guests fixed at 1500; floor 1000; at most 32
points a game; ratings worked out after each rated event from the ratings before it; and
its own claims: E_A + E_B = 1, equal ratings drawing change nothing, a game is zero-sum when
the K-factors are equal.
"""

from __future__ import annotations

import random
from datetime import date
from typing import Any

import pytest

from ratings.engine import Event, Game, PlayerChange, PlayerState, RatingResult, rate
from ratings.engine.base import round_half_up
from ratings.engine.nz_club_elo import _round_half_up

DAY = date(2024, 3, 2)


def elo_expected(own: float, opponent: float) -> float:
    return 1 / (1 + 10 ** ((opponent - own) / 400))


def run(
    players: list[PlayerState],
    *events: list[Game],
    **params: Any,
) -> RatingResult:
    """Rate one event per list of games, a week apart."""
    return rate(
        "nz-club-elo",
        players=players,
        events=[
            Event(id=f"e{i}", date=date(2024, 3, 2 + 7 * i), games=tuple(games))
            for i, games in enumerate(events)
        ],
        params=params,
    )


def rating(result: RatingResult, pid: str) -> float:
    (state,) = [p for p in result.players if p.id == pid]
    assert state.rating is not None
    return state.rating


def change(result: RatingResult, pid: str, event: int = 0) -> PlayerChange:
    (found,) = [c for c in result.events[event].changes if c.player == pid]
    return found


# -- expected score -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("ra", "rb"),
    [(1500, 1500), (1600, 1500), (1500, 1600), (2000, 1400), (1000, 2400), (1234.56, 1789.01)],
)
def test_expected_score_is_one_over_one_plus_ten_to_the_difference_over_400(
    ra: float, rb: float
) -> None:
    result = run(
        [PlayerState("a", rating=ra, games=50), PlayerState("b", rating=rb, games=50)],
        [Game("a", "b", 0.5)],
    )
    (line_a,) = change(result, "a").games
    (line_b,) = change(result, "b").games
    assert line_a.expected == pytest.approx(elo_expected(ra, rb), abs=5e-5)
    assert line_b.expected == pytest.approx(elo_expected(rb, ra), abs=5e-5)
    assert line_a.opponent_rating == rb
    assert line_b.opponent_rating == ra


@pytest.mark.parametrize(("ra", "rb"), [(1500, 1500), (1600, 1500), (1000, 2400), (1877, 1123.5)])
def test_expected_scores_of_the_two_players_add_up_to_one(ra: float, rb: float) -> None:
    result = run(
        [PlayerState("a", rating=ra, games=50), PlayerState("b", rating=rb, games=50)],
        [Game("a", "b", 1.0)],
    )
    (line_a,) = change(result, "a").games
    (line_b,) = change(result, "b").games
    assert line_a.expected is not None and line_b.expected is not None
    assert line_a.expected + line_b.expected == pytest.approx(1.0, abs=1e-4)


@pytest.mark.parametrize("score", [1.0, 0.5, 0.0])
def test_new_rating_is_old_plus_k_times_score_minus_expected(score: float) -> None:
    result = run(
        [PlayerState("a", rating=1700, games=50), PlayerState("b", rating=1550, games=50)],
        [Game("a", "b", score)],
    )
    expected = elo_expected(1700, 1550)
    assert rating(result, "a") == pytest.approx(1700 + 16 * (score - expected), abs=0.005)
    assert rating(result, "b") == pytest.approx(1550 + 16 * (expected - score), abs=0.005)


# -- K-factor ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("games_before", "k"),
    [(0, 32), (1, 32), (29, 32), (30, 32), (31, 16), (32, 16), (200, 16)],
)
def test_k_is_32_until_more_than_30_games_then_16(games_before: int, k: float) -> None:
    result = run(
        [PlayerState("a", rating=1500, games=games_before), PlayerState("b", rating=1500)],
        [Game("a", "b", 1.0)],
    )
    assert change(result, "a").detail["k"] == k
    assert rating(result, "a") == 1500 + k / 2


def test_k_is_judged_once_per_event_from_the_games_before_it() -> None:
    players = [PlayerState("a", rating=1500, games=30)] + [
        PlayerState(o, rating=1500, games=50) for o in "bcd"
    ]
    result = run(
        players,
        [Game("a", "b", 1.0, 1), Game("a", "c", 1.0, 2), Game("a", "d", 1.0, 3)],
        [Game("a", "b", 1.0, 1)],
    )
    first = change(result, "a", 0)
    assert [line.detail["k"] for line in first.games] == [32, 32, 32]  # 30 before: all at 32
    assert first.after == 1548.0
    assert change(result, "a", 1).detail["k"] == 16  # 33 before the second event


@pytest.mark.parametrize("update", ["event", "game"])
def test_games_against_guests_count_toward_the_30_rated_games(update: str) -> None:
    # A game against a guest is a rated game (it moves the member's rating), so it counts:
    # 29 games, then two against a guest, and the next event is at K 16.
    players = [PlayerState("m", rating=1500, games=29), PlayerState("g", guest=True)]
    result = run(
        players,
        [Game("m", "g", 1.0, 1), Game("g", "m", 0.5, 2)],
        [Game("m", "g", 1.0, 1)],
        update=update,
    )
    assert change(result, "m", 0).detail["k"] == 32
    assert change(result, "m", 1).detail["k"] == 16
    (member,) = [p for p in result.players if p.id == "m"]
    assert member.games == 32


def test_k_is_judged_before_each_game_with_update_game() -> None:
    players = [PlayerState("a", rating=1500, games=30), PlayerState("b", rating=1500, games=50)]
    result = run(players, [Game("a", "b", 0.5, 1), Game("a", "b", 0.5, 2)], update="game")
    assert [line.detail["k"] for line in change(result, "a").games] == [32, 16]


@pytest.mark.parametrize("k_games", [0, 10, 50])
def test_k_games_parameter_moves_the_boundary(k_games: int) -> None:
    at, past = (
        PlayerState("at", rating=1500, games=k_games),
        PlayerState("past", rating=1500, games=k_games + 1),
    )
    result = run([at, past], [Game("at", "past", 0.5)], k_games=k_games)
    assert change(result, "at").detail["k"] == 32
    assert change(result, "past").detail["k"] == 16


# -- new players and guests ---------------------------------------------------------------


def test_new_players_not_listed_start_at_1500() -> None:
    result = run([], [Game("x", "y", 0.5)])
    assert change(result, "x").before == 1500
    assert change(result, "y").before == 1500
    assert change(result, "x").detail["k"] == 32


def test_listed_players_without_a_rating_start_at_1500() -> None:
    result = run([PlayerState("x", games=0), PlayerState("y", rating=None)], [Game("x", "y", 1)])
    assert change(result, "x").before == 1500
    assert rating(result, "x") == 1516
    assert rating(result, "y") == 1484


@pytest.mark.parametrize("given", [None, 1000.0, 1500.0, 2300.0])
@pytest.mark.parametrize("score", [1.0, 0.5, 0.0])
def test_guests_are_rated_at_1500_and_never_change(given: float | None, score: float) -> None:
    players = [PlayerState("g", rating=given, guest=True), PlayerState("m", rating=1700, games=5)]
    result = run(players, [Game("g", "m", score)], [Game("m", "g", score)])
    for event in (0, 1):
        guest = change(result, "g", event)
        assert (guest.before, guest.after) == (1500, 1500)
        assert all(line.change == 0 for line in guest.games)
        assert [line.opponent_rating for line in change(result, "m", event).games] == [1500]
    assert rating(result, "g") == 1500


def test_guests_never_change_with_update_game() -> None:
    players = [PlayerState("g", rating=1800, guest=True), PlayerState("m", rating=1500)]
    result = run(players, [Game("g", "m", 0.0, 1), Game("g", "m", 0.0, 2)], update="game")
    assert rating(result, "g") == 1500
    assert [line.opponent_rating for line in change(result, "m").games] == [1500, 1500]


@pytest.mark.parametrize("update", ["event", "game"])
def test_a_guest_rated_below_the_floor_is_not_lifted_to_it(update: str) -> None:
    players = [PlayerState("g", guest=True), PlayerState("m", rating=1500)]
    games = [Game("g", "m", 0.0, 1), Game("g", "m", 0.0, 2)]
    result = run(players, games, update=update, guest_rating=900.0)
    assert [line.opponent_rating for line in change(result, "m").games] == [900, 900]
    assert rating(result, "g") == 900


def test_a_guests_opponent_is_rated_as_usual() -> None:
    players = [PlayerState("g", guest=True), PlayerState("m", rating=1500, games=40)]
    result = run(players, [Game("m", "g", 1.0)])
    assert rating(result, "m") == 1508  # 16 * (1 - 0.5)


@pytest.mark.parametrize("guest_rating", [1200.0, 1800.0])
def test_guest_rating_parameter_sets_the_fixed_rating(guest_rating: float) -> None:
    players = [PlayerState("g", guest=True), PlayerState("m", rating=1500, games=40)]
    result = run(players, [Game("m", "g", 0.5)], guest_rating=guest_rating)
    assert rating(result, "g") == guest_rating
    assert rating(result, "m") == pytest.approx(
        1500 + 16 * (0.5 - elo_expected(1500, guest_rating)), abs=0.005
    )


# -- floor and cap --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "opponent", "score", "after"),
    [
        (1005.0, 1005.0, 0.0, 1000.0),  # a loss of 8 would take it to 997
        (1000.0, 1000.0, 0.0, 1000.0),  # already on the floor
        (1000.0, 800.0, 0.5, 1000.0),  # the favourite's draw costs points: not below 1000
        (1020.0, 1020.0, 0.0, 1012.0),  # above the floor: the whole loss
        (1000.0, 1000.0, 1.0, 1008.0),  # on the floor, a win still counts
    ],
)
def test_no_rating_drops_below_1000(
    start: float, opponent: float, score: float, after: float
) -> None:
    players = [
        PlayerState("a", rating=start, games=50),
        PlayerState("b", rating=opponent, games=50),
    ]
    result = run(players, [Game("a", "b", score)])
    assert rating(result, "a") == after


def test_the_floor_applies_to_the_events_total() -> None:
    # Three losses at K 16 between equals cost 8 each; the floor is checked on the total.
    players = [PlayerState("a", rating=1030, games=50)] + [
        PlayerState(o, rating=1030, games=50) for o in "bcd"
    ]
    result = run(players, [Game("a", o, 0.0, r) for r, o in enumerate("bcd", 1)])
    assert [line.change for line in change(result, "a").games] == [-8, -8, -8]
    assert rating(result, "a") == 1006
    players[0] = PlayerState("a", rating=1020, games=50)
    result = run(players, [Game("a", o, 0.0, r) for r, o in enumerate("bcd", 1)])
    assert rating(result, "a") == 1000  # 1020 - 24 would be 996


@pytest.mark.parametrize("floor", [0.0, 1200.0])
def test_floor_parameter_moves_the_floor(floor: float) -> None:
    players = [PlayerState("a", rating=1210, games=50), PlayerState("b", rating=1210, games=50)]
    result = run(players, [Game("a", "b", 0.0)], floor=floor)
    assert rating(result, "a") == max(floor, 1202)


@pytest.mark.parametrize("update", ["event", "game"])
def test_no_rating_below_1000_not_even_in_the_input(update: str) -> None:
    # "No rating is allowed to drop below 1000": a rating given under it is raised to it
    # before the first event (as st-charles does), so a 900 losing to a 1500 is rated,
    # and shown, from 1000: before 1000, after 1000, and the game line's change (-1.7) is
    # the one the floor stopped. Its opponent meets a 1000, not a 900.
    players = [PlayerState("x", rating=900.0, games=5), PlayerState("y", rating=1500.0)]
    result = run(players, [Game("x", "y", 0.0, 1)], update=update)
    x = change(result, "x")
    assert (x.before, x.after, x.display_before, x.display_after) == (1000, 1000, "1000", "1000")
    (line,) = x.games
    assert line.change == round(32 * (0 - elo_expected(1000, 1500)), 2) == -1.7
    (line_y,) = change(result, "y").games
    assert line_y.opponent_rating == 1000
    assert rating(result, "y") == round(1500 + 32 * (1 - elo_expected(1500, 1000)), 2)
    # Below the floor and never playing: raised all the same, and a start rating too.
    idle = run([PlayerState("z", rating=850.0)], floor=1000.0)
    assert rating(idle, "z") == 1000
    low_start = run([], [Game("n", "m", 0.5)], start_rating=900.0)
    assert [c.before for c in low_start.events[0].changes] == [1000, 1000]


@pytest.mark.parametrize(("score", "capped"), [(1.0, 32.0), (0.0, -32.0)])
def test_at_most_32_points_a_game(score: float, capped: float) -> None:
    # K 64 would give an underdog's win 64 * (1 - 0.15) = 54: the cap keeps it to 32.
    ra, rb = (1500.0, 1800.0) if score == 1.0 else (1800.0, 1500.0)
    players = [PlayerState("a", rating=ra), PlayerState("b", rating=rb)]
    result = run(players, [Game("a", "b", score)], k_new=64.0)
    (line,) = change(result, "a").games
    assert abs(64 * (score - elo_expected(ra, rb))) > 32
    assert line.change == capped
    assert rating(result, "a") == ra + capped
    assert rating(result, "b") == rb - capped


def test_the_cap_is_per_game_not_per_event() -> None:
    players = [PlayerState("a", rating=1500.0)] + [
        PlayerState(o, rating=1800.0, games=50) for o in "bc"
    ]
    result = run(players, [Game("a", "b", 1.0, 1), Game("a", "c", 1.0, 2)], k_new=64.0)
    assert rating(result, "a") == 1564


@pytest.mark.parametrize("ra", [1000.0, 1500.0, 2400.0])
@pytest.mark.parametrize("rb", [1000.0, 2400.0])
def test_the_cap_never_binds_with_k_32(ra: float, rb: float) -> None:
    players = [PlayerState("a", rating=ra), PlayerState("b", rating=rb)]
    result = run(players, [Game("a", "b", 1.0)])
    (line,) = change(result, "a").games
    assert line.change == pytest.approx(32 * (1 - elo_expected(ra, rb)), abs=0.005)


@pytest.mark.parametrize("cap", [5.0, 10.0])
def test_max_per_game_parameter_sets_the_cap(cap: float) -> None:
    players = [PlayerState("a", rating=1500.0), PlayerState("b", rating=1500.0)]
    result = run(players, [Game("a", "b", 1.0)], max_per_game=cap)
    assert rating(result, "a") == 1500 + cap


# -- when ratings move ----------------------------------------------------------------------


def three_player_event() -> tuple[list[PlayerState], list[Game]]:
    players = [
        PlayerState("a", rating=1500, games=50),
        PlayerState("b", rating=1600, games=50),
        PlayerState("c", rating=1700, games=50),
    ]
    return players, [Game("a", "b", 1.0, 1), Game("a", "c", 1.0, 2)]


def test_every_game_of_an_event_is_rated_on_the_ratings_before_it() -> None:
    players, games = three_player_event()
    result = run(players, games)
    first, second = change(result, "a").games
    assert first.opponent_rating == 1600 and second.opponent_rating == 1700
    gain = 16 * (1 - elo_expected(1500, 1600)) + 16 * (1 - elo_expected(1500, 1700))
    assert second.expected == pytest.approx(elo_expected(1500, 1700), abs=5e-5)
    assert rating(result, "a") == pytest.approx(1500 + gain, abs=0.005)


def test_update_game_moves_ratings_after_every_game() -> None:
    players, games = three_player_event()
    result = run(players, games, update="game")
    first_gain = 16 * (1 - elo_expected(1500, 1600))
    second = change(result, "a").games[1]
    assert second.expected == pytest.approx(elo_expected(1500 + first_gain, 1700), abs=5e-5)
    gain = first_gain + 16 * (1 - elo_expected(1500 + first_gain, 1700))
    assert rating(result, "a") == pytest.approx(1500 + gain, abs=0.005)


def test_update_game_takes_games_in_round_order() -> None:
    players, games = three_player_event()
    in_order = run(players, games, update="game")
    reversed_list = run(players, games[::-1], update="game")
    assert rating(in_order, "a") == rating(reversed_list, "a")


def test_events_are_rated_in_date_order() -> None:
    players = [PlayerState("a", rating=1500, games=50), PlayerState("b", rating=1600, games=50)]
    later = Event("later", date(2024, 5, 1), (Game("a", "b", 1.0),))
    earlier = Event("earlier", date(2024, 4, 1), (Game("a", "b", 0.0),))
    result = rate("nz-club-elo", players=players, events=[later, earlier])
    assert [e.id for e in result.events] == ["earlier", "later"]


def test_ratings_are_kept_to_two_decimals_and_listed_as_whole_numbers() -> None:
    result = run(
        [PlayerState("a", rating=1600, games=40), PlayerState("b", rating=1500, games=40)],
        [Game("a", "b", 1.0)],
    )
    assert rating(result, "a") == 1605.76
    assert result.displays["a"] == "1606"


@pytest.mark.parametrize(
    ("kept", "shown"), [(1011.5, "1012"), (1011.49, "1011"), (1500.0, "1500")]
)
def test_the_list_rounds_halves_up(kept: float, shown: str) -> None:
    result = run([PlayerState("a", rating=kept)])
    assert result.displays["a"] == shown


# -- the text's own claims ------------------------------------------------------------------


@pytest.mark.parametrize("both", [1000.0, 1500.0, 2250.5])
@pytest.mark.parametrize(("games_a", "games_b"), [(0, 0), (50, 50), (0, 50)])
def test_two_equal_rated_players_drawing_do_not_change(
    both: float, games_a: int, games_b: int
) -> None:
    players = [
        PlayerState("a", rating=both, games=games_a),
        PlayerState("b", rating=both, games=games_b),
    ]
    result = run(players, [Game("a", "b", 0.5)])
    assert rating(result, "a") == both
    assert rating(result, "b") == both


@pytest.mark.parametrize(("ra", "rb"), [(1500, 1500), (1600, 1450), (1200, 2100), (1333.33, 1777)])
@pytest.mark.parametrize("score", [1.0, 0.5, 0.0])
@pytest.mark.parametrize("games", [0, 50])
def test_a_game_is_zero_sum_when_the_k_factors_are_equal(
    ra: float, rb: float, score: float, games: int
) -> None:
    players = [
        PlayerState("a", rating=ra, games=games),
        PlayerState("b", rating=rb, games=games),
    ]
    result = run(players, [Game("a", "b", score)])
    (line_a,) = change(result, "a").games
    (line_b,) = change(result, "b").games
    assert line_a.change is not None and line_b.change is not None
    assert line_a.change == -line_b.change
    gained = rating(result, "a") - ra
    lost = rb - rating(result, "b")
    assert gained == pytest.approx(lost, abs=0.011)  # each rating is kept to the cent


def test_a_game_is_not_zero_sum_when_the_k_factors_differ() -> None:
    players = [PlayerState("new", rating=1500, games=0), PlayerState("old", rating=1500, games=50)]
    result = run(players, [Game("new", "old", 1.0)])
    assert rating(result, "new") == 1516
    assert rating(result, "old") == 1492


# -- the contract's example (docs/engine-io.md) ----------------------------------------


def test_the_contract_example_ann_beats_guest_gus() -> None:
    players = [PlayerState("ann", rating=1600, games=40), PlayerState("gus", guest=True)]
    result = run(players, [Game("ann", "gus", 1.0, 1)])
    assert rating(result, "ann") == 1605.76
    assert result.displays["ann"] == "1606"
    (ann,) = [p for p in result.players if p.id == "ann"]
    assert ann.games == 41
    assert (change(result, "ann").before, change(result, "ann").after) == (1600, 1605.76)
    assert rating(result, "gus") == 1500


_ROUNDING_CASES = [0.0, -0.0, 0.3, -0.3, 0.5, -0.5, 1.5, 2.5, -2.5, 4999.5, 5000.5, 1234.49]
_ROUNDING_CASES += [-1234.51, 9999.999, 3200.0, -3200.0, 1e12 - 0.5, -(1e12 - 0.5)]
_ROUNDING_CASES += [2.0**51 - 0.5, 0.49999999999999994, -0.49999999999999994, 2.675, 1.005]
_ROUNDING_CASES += [0.125, 0.00005, 1605.755, 1605.765, -1605.745, 1e7 - 0.005, 1e300]


@pytest.mark.parametrize("y", _ROUNDING_CASES)
@pytest.mark.parametrize("ndigits", [0, 2, 4, 6])
def test_the_fast_rounding_is_round_half_up(y: float, ndigits: int) -> None:
    # The same float (a zero's sign aside: -0.0 and 0.0 are written alike).
    assert repr(_round_half_up(y, ndigits) + 0.0) == repr(round_half_up(y, ndigits) + 0.0)


def test_the_fast_rounding_is_exact_on_many_values() -> None:
    rng = random.Random(20240302)
    for _ in range(100_000):
        y = rng.uniform(-1e4, 1e4) if rng.random() < 0.5 else rng.randrange(-20000, 20000) / 200
        ndigits = rng.choice((0, 2, 4))
        assert repr(_round_half_up(y, ndigits) + 0.0) == repr(round_half_up(y, ndigits) + 0.0)


# -- a player's change from their own games -----------------------------------------


@pytest.mark.parametrize("seed", range(20))
def test_with_update_event_a_players_own_games_give_their_whole_change(seed: int) -> None:
    """What ``rates_players_apart`` promises (member pages rate only a member's games)."""
    rng = random.Random(seed)
    players = [
        PlayerState(
            id=f"p{i}", rating=rng.choice([None, 1200.0 + 50 * i]), games=rng.randint(0, 40)
        )
        for i in range(6)
    ]
    games = [
        Game(*rng.sample([p.id for p in players], 2), rng.choice([0.0, 0.5, 1.0]), round_)
        for round_ in (1, 2, 3)
        for _ in range(3)
    ]
    whole = run(players, games)
    for player in players:
        own = [g for g in games if player.id in (g.a, g.b)]
        if not own:
            continue
        alone = run(players, own)
        assert change(alone, player.id) == change(whole, player.id)


def test_a_system_moving_ratings_game_by_game_does_not_rate_players_apart() -> None:
    from ratings.engine import get_system

    assert get_system("nz-club-elo", {}).rates_players_apart
    assert not get_system("nz-club-elo", {"update": "game"}).rates_players_apart
    assert not get_system("st-charles", {}).rates_players_apart
