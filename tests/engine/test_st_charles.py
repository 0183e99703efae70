"""st-charles: every rule, every worked example of St. Charles' page, the boundaries.

Ratings move after every game. "ann" plays "bob" unless a test says otherwise; both have
played enough games to be official unless the test is about the '*' marker.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from ratings.engine import EngineError, Event, Game, PlayerState, rate
from ratings.engine.base import STATE_FIELDS, RatingResult
from ratings.engine.st_charles import StCharles

ROOT = Path(__file__).resolve().parents[2]
DAY = date(2024, 3, 2)


def player(pid: str, rating: float | None, games: int = 20) -> PlayerState:
    return PlayerState(id=pid, rating=rating, games=games)


def run(
    players: list[PlayerState],
    *events: list[Game],
    **params: object,
) -> RatingResult:
    return rate(
        "st-charles",
        players=players,
        events=[Event(id=f"e{i}", date=DAY, games=tuple(games)) for i, games in enumerate(events)],
        params=params,
    )


def one_game(own: int, opponent: int, score: float, **params: object) -> tuple[int, int]:
    """ann's and bob's change after one game (ann's score ``score``)."""
    result = run(
        [player("ann", own), player("bob", opponent)], [Game("ann", "bob", score)], **params
    )
    after = {p.id: p.rating for p in result.players}
    assert after["ann"] is not None and after["bob"] is not None
    return int(after["ann"]) - own, int(after["bob"]) - opponent


def lines_of(result: RatingResult, pid: str, event: int = 0) -> list[dict[str, object]]:
    change = next(c for c in result.events[event].changes if c.player == pid)
    return [
        {"opponent_rating": line.opponent_rating, "change": line.change, **line.detail}
        for line in change.games
    ]


# -- the formula ------------------------------------------------------------------


@pytest.mark.parametrize("gap", [0, 1, 7, 12])
@pytest.mark.parametrize("ann_is_higher", [True, False])
def test_within_12_points_the_winner_gains_21_and_the_loser_drops_21(
    gap: int, ann_is_higher: bool
) -> None:
    own, opponent = (1000 + gap, 1000) if ann_is_higher else (1000, 1000 + gap)
    assert one_game(own, opponent, 1) == (21, -21)
    assert one_game(own, opponent, 0) == (-21, 21)


@pytest.mark.parametrize("gap", [0, 5, 12, -12])
def test_within_12_points_a_draw_changes_nothing(gap: int) -> None:
    assert one_game(1000, 1000 + gap, 0.5) == (0, 0)


def test_within_12_points_is_the_rule_named_in_the_breakdown() -> None:
    result = run([player("ann", 1000), player("bob", 1012)], [Game("ann", "bob", 1)])
    assert lines_of(result, "ann") == [
        {"opponent_rating": 1012, "change": 21, "shift": 0, "rule": "within-12"}
    ]


@pytest.mark.parametrize(
    ("score", "changes"),
    [(1, (25, -25)), (0, (-17, 17)), (0.5, (4, -4))],
    ids=["win", "loss", "draw"],
)
def test_document_example_opponent_rated_100_points_higher(
    score: float, changes: tuple[int, int]
) -> None:
    # "if your opponent is rated 100 points higher than you and you win ... 25 points
    # added ... they will lose 25"; a loss is -21 + 4 = -17; a draw is +4 / -4.
    assert one_game(900, 1000, score) == changes


@pytest.mark.parametrize(
    ("opponent_minus_own", "win"),
    [(13, 22), (-13, 20), (14, 22), (20, 22)],
)
def test_a_difference_of_13_is_outside_the_band_and_shifts_by_one(
    opponent_minus_own: int, win: int
) -> None:
    assert one_game(1000, 1000 + opponent_minus_own, 1)[0] == win


def test_a_difference_of_13_is_the_formula_rule_in_the_breakdown() -> None:
    result = run([player("ann", 1000), player("bob", 1013)], [Game("ann", "bob", 0.5)])
    assert lines_of(result, "ann") == [
        {"opponent_rating": 1013, "change": 1, "shift": 1, "rule": "formula"}
    ]
    assert lines_of(result, "bob") == [
        {"opponent_rating": 1000, "change": -1, "shift": -1, "rule": "formula"}
    ]


@pytest.mark.parametrize(
    ("opponent_minus_own", "shift"),
    [(37, 1), (38, 2), (62, 2), (63, 3), (100, 4), (-37, -1), (-38, -2), (-63, -3)],
)
def test_the_shift_is_the_difference_over_25_rounded_to_the_nearest_point(
    opponent_minus_own: int, shift: int
) -> None:
    assert one_game(1000, 1000 + opponent_minus_own, 0.5) == (shift, -shift)


@pytest.mark.parametrize(
    ("opponent_minus_own", "shift"), [(24, 0), (38, 1), (49, 1), (50, 2), (-38, -1)]
)
def test_the_shift_can_be_truncated_instead(opponent_minus_own: int, shift: int) -> None:
    changes = one_game(1000, 1000 + opponent_minus_own, 0.5, shift_rounding="truncate")
    assert changes == (shift, -shift)


@pytest.mark.parametrize("gap", range(0, 40))
def test_the_12_point_band_is_exactly_where_the_nearest_shift_is_zero(gap: int) -> None:
    in_band = one_game(1000, 1000 + gap, 1, band=12)
    by_formula_alone = one_game(1000, 1000 + gap, 1, band=0)
    assert in_band == by_formula_alone


def test_an_even_divisor_rounds_half_shifts_away_from_zero_for_both_players() -> None:
    # With integer ratings and the divisor 25 no shift is ever exactly half a point;
    # with 24 it can be (36 / 24 = 1.5): both players' shifts round away from zero.
    assert one_game(1000, 1036, 0.5, divisor=24) == (2, -2)
    assert one_game(1036, 1000, 0.5, divisor=24) == (-2, 2)


# -- the four overrides -------------------------------------------------------------


@pytest.mark.parametrize(("gap", "formula"), [(488, 1), (500, 1), (600, -3), (1000, -19)])
def test_the_winner_always_gains_at_least_two_points(gap: int, formula: int) -> None:
    # ann is rated ``gap`` above bob: by the formula she would gain 21 - gap / 25.
    assert 21 + round(-gap / 25) == formula
    assert one_game(1000 + gap, 1000, 1) == (2, -2)


@pytest.mark.parametrize("gap", [488, 625, 1000])
def test_the_loser_always_loses_at_least_two_points(gap: int) -> None:
    # ann is rated ``gap`` below bob and loses: -21 + gap / 25 would be -1 or a gain.
    assert one_game(1000, 1000 + gap, 0) == (-2, 2)


def test_the_minimum_of_two_is_named_in_the_breakdown() -> None:
    result = run([player("ann", 1600), player("bob", 1000)], [Game("ann", "bob", 1)])
    assert lines_of(result, "ann") == [
        {"opponent_rating": 1000, "change": 2, "shift": -24, "rule": "min-2"}
    ]
    assert lines_of(result, "bob") == [
        {"opponent_rating": 1600, "change": -2, "shift": 24, "rule": "min-2"}
    ]


@pytest.mark.parametrize("gap", [13, 37])
def test_the_minimum_of_two_does_not_apply_to_draws(gap: int) -> None:
    assert one_game(1000, 1000 + gap, 0.5) == (1, -1)


def test_a_win_exactly_at_two_points_is_the_formula() -> None:
    # 21 - 475 / 25 = 2: nothing to override.
    result = run([player("ann", 1475), player("bob", 1000)], [Game("ann", "bob", 1)])
    assert lines_of(result, "ann")[0]["rule"] == "formula"
    assert lines_of(result, "ann")[0]["change"] == 2


@pytest.mark.parametrize(("gap", "formula"), [(500, 41), (512, 41), (513, 42), (600, 45)])
def test_nobody_gains_or_loses_more_than_41_points_in_a_game(gap: int, formula: int) -> None:
    # bob is rated ``gap`` above ann and ann wins: 21 + gap / 25 by the formula.
    assert 21 + round(gap / 25) == formula
    assert one_game(1000, 1000 + gap, 1) == (min(formula, 41), -min(formula, 41))


def test_the_41_point_cap_applies_to_draws() -> None:
    # 1100 / 25 = 44: the draw's shift alone would be 44.
    assert one_game(1000, 2100, 0.5) == (41, -41)


def test_the_41_point_cap_is_named_in_the_breakdown() -> None:
    result = run([player("ann", 1000), player("bob", 1600)], [Game("ann", "bob", 1)])
    assert lines_of(result, "ann") == [
        {"opponent_rating": 1600, "change": 41, "shift": 24, "rule": "max-41"}
    ]


def test_nobody_is_rated_under_300() -> None:
    assert one_game(310, 310, 0) == (-10, 21)


def test_the_floor_is_named_in_the_breakdown_and_the_opponent_keeps_the_full_change() -> None:
    result = run([player("ann", 310), player("bob", 305)], [Game("ann", "bob", 0)])
    assert lines_of(result, "ann") == [
        {"opponent_rating": 305, "change": -10, "shift": 0, "rule": "floor"}
    ]
    assert lines_of(result, "bob") == [
        {"opponent_rating": 310, "change": 21, "shift": 0, "rule": "within-12"}
    ]


def test_the_floor_bites_after_the_minimum_loss_of_two() -> None:
    assert one_game(301, 1200, 0) == (-1, 2)


def test_a_player_on_the_floor_who_loses_stays_on_the_floor() -> None:
    assert one_game(300, 300, 0) == (0, 21)


@pytest.mark.parametrize(("given", "kept"), [(250.0, 300.0), (412.6, 413.0), (412.5, 413.0)])
def test_ratings_are_whole_numbers_and_never_under_the_floor(given: float, kept: float) -> None:
    assert StCharles().prepare(player("ann", given)).rating == kept


@pytest.mark.parametrize(
    ("own", "opponent", "score"),
    [
        (own, opponent, score)
        for own in (300, 412, 1000, 1500)
        for opponent in (300, 400, 413, 425, 988, 1000, 1012, 1013, 1500, 2200)
        for score in (1.0, 0.5, 0.0)
    ],
)
def test_every_game_is_zero_sum_unless_the_floor_bites(
    own: int, opponent: int, score: float
) -> None:
    ann, bob = one_game(own, opponent, score)
    if own + ann == 300 or opponent + bob == 300:  # a player on the floor
        assert ann + bob >= 0
    else:
        assert ann + bob == 0


# -- new players, order, the official marker ------------------------------------------


def test_a_new_player_starts_on_a_tentative_400() -> None:
    result = run([], [Game("ann", "bob", 1)])
    assert {c.player: c.before for c in result.events[0].changes} == {"ann": 400, "bob": 400}
    assert result.displays == {"ann": "421*", "bob": "379*"}


def test_ratings_move_after_every_game() -> None:
    # Game 1: 1000 beats 1000 (+21 -> 1021). Game 2 is then played at 1021 against
    # 1021: within 12, +21 again. On the pre-event rating (1000 v 1021) the second win
    # would have been worth 22.
    result = run(
        [player("ann", 1000), player("bob", 1000), player("cat", 1021)],
        [Game("ann", "bob", 1, round=1), Game("ann", "cat", 1, round=2)],
    )
    assert lines_of(result, "ann") == [
        {"opponent_rating": 1000, "change": 21, "shift": 0, "rule": "within-12"},
        {"opponent_rating": 1021, "change": 21, "shift": 0, "rule": "within-12"},
    ]
    assert result.displays["ann"] == "1042"


def test_games_are_taken_in_round_order_whatever_the_list_order() -> None:
    in_order = run(
        [player("ann", 1000), player("bob", 1000), player("cat", 1100)],
        [Game("ann", "bob", 1, round=1), Game("ann", "cat", 1, round=2)],
    )
    reversed_list = run(
        [player("ann", 1000), player("bob", 1000), player("cat", 1100)],
        [Game("ann", "cat", 1, round=2), Game("ann", "bob", 1, round=1)],
    )
    assert reversed_list.displays == in_order.displays
    assert [line.round for line in reversed_list.events[0].changes[0].games] == [1, 2]


def test_games_in_the_same_round_are_taken_in_list_order() -> None:
    # ann plays twice in one round (a simultaneous or a double round): list order decides.
    result = run(
        [player("ann", 1000), player("bob", 1000), player("cat", 1100)],
        [Game("ann", "cat", 1, round=1), Game("ann", "bob", 1, round=1)],
    )
    # 1000 beats 1100: +25 -> 1025; then 1025 beats 1000: shift -1 -> +20.
    assert [line["change"] for line in lines_of(result, "ann")] == [25, 20]


def test_the_next_event_starts_from_the_ratings_after_the_last() -> None:
    result = run(
        [player("ann", 1000), player("bob", 1000)],
        [Game("ann", "bob", 1)],
        [Game("ann", "bob", 1)],
    )
    # 1021 v 979 (42 apart, shift -2): ann +19, bob -19.
    assert [c.before for c in result.events[1].changes] == [1021, 979]
    assert result.displays == {"ann": "1040", "bob": "960"}


@pytest.mark.parametrize(
    ("games", "display"), [(0, "412*"), (3, "412*"), (4, "412*"), (5, "412"), (10, "412")]
)
def test_a_rating_is_official_from_five_games(games: int, display: str) -> None:
    assert StCharles().display(player("ann", 412, games)) == display


def test_the_fifth_game_makes_a_rating_official() -> None:
    result = run(
        [player("ann", 1000, games=4), player("bob", 1000, games=3)], [Game("ann", "bob", 1)]
    )
    ann, bob = result.events[0].changes
    assert (ann.display_before, ann.display_after, ann.detail["official"]) == (
        "1000*",
        "1021",
        True,
    )
    assert (bob.display_before, bob.display_after, bob.detail["official"]) == (
        "1000*",
        "979*",
        False,
    )


def test_the_official_game_count_and_marker_are_parameters() -> None:
    system = StCharles({"official_games": 10, "provisional_mark": "?"})
    assert system.display(player("ann", 412, 9)) == "412?"
    assert system.display(player("ann", 412, 10)) == "412"


def test_a_player_change_counts_games_and_score() -> None:
    result = run(
        [player("ann", 1000), player("bob", 1000), player("cat", 1000)],
        [Game("ann", "bob", 1, round=1), Game("cat", "ann", 1, round=2)],
    )
    ann = result.events[0].changes[0]
    assert ann.detail == {"played": 2, "score": 1.0, "official": True}
    assert {p.id: p.games for p in result.players} == {"ann": 22, "bob": 21, "cat": 21}


def test_guests_are_rated_like_anyone() -> None:
    result = run(
        [PlayerState(id="ann", rating=1000, games=20, guest=True), player("bob", 1000)],
        [Game("ann", "bob", 1)],
    )
    assert result.displays == {"ann": "1021", "bob": "979"}


def test_every_rule_a_club_could_set_differently_is_a_parameter() -> None:
    assert one_game(1000, 1100, 1, at_risk=16, divisor=50) == (18, -18)
    assert one_game(1000, 1000, 1, start_rating=500, min_gain=5, max_change=10) == (10, -10)
    assert one_game(1000, 1015, 0.5, band=20) == (0, 0)
    assert one_game(110, 110, 0, floor=100) == (-10, 21)
    with pytest.raises(EngineError, match="shift_rounding"):
        StCharles({"shift_rounding": "up"})


# -- plumbing -----------------------------------------------------------------------


def test_rating_keeps_every_other_field_of_the_state() -> None:
    full = PlayerState(
        id="ann", rating=1000.0, games=2, guest=True, born=date(2010, 5, 6), gender="F",
        title="WCM",
    )  # fmt: skip
    assert {name for name in STATE_FIELDS if getattr(full, name) is None} == set()
    result = rate(
        "st-charles",
        players=[full],
        events=[Event("e1", date(2024, 1, 6), (Game("ann", "bob", 1.0),))],
    )
    (moved,) = [p for p in result.players if p.id == "ann"]
    assert moved == replace(full, rating=1002.0, games=3)  # a win over a new player


def test_the_command_line_prints_the_published_list() -> None:
    document = {
        "system": "st-charles",
        "players": [{"id": "you", "rating": 900, "games": 12}, {"id": "opp", "rating": 1000}],
        "events": [
            {
                "id": "e1",
                "date": "2024-03-02",
                "games": [
                    {"a": "you", "b": "opp", "score": 1, "round": 1},
                    {"a": "new", "b": "opp", "score": 0.5, "round": 2},
                ],
            }
        ],
    }
    done = subprocess.run(
        [sys.executable, "-m", "ratings.engine"],
        input=json.dumps(document),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    # you: 900 beats 1000 -> +25 (document example). opp: 975 after round 1, then draws
    # the new player's 400: shift (400 - 975) / 25 = -23.
    assert {p["id"]: (p["rating"], p["display"]) for p in out["players"]} == {
        "you": (925, "925"),
        "opp": (952, "952*"),
        "new": (423, "423*"),
    }
    you = out["events"][0]["changes"][0]
    assert you["games"] == [
        {
            "opponent": "opp",
            "score": 1,
            "opponent_rating": 1000,
            "round": 1,
            "change": 25,
            "shift": 4,
            "rule": "formula",
        }
    ]
    assert (you["played"], you["score"], you["official"]) == (1, 1, True)


def test_rating_in_two_runs_gives_the_same_list_as_one() -> None:
    players = [player("ann", 1000, 2), player("bob", 1013, 4), player("cat", 310, 9)]
    events = (
        [Game("ann", "bob", 1, round=1), Game("cat", "ann", 0.5, round=2)],
        [Game("bob", "cat", 1), Game("new", "ann", 1)],
    )
    at_once = run(players, *events)
    first = run(players, events[0])
    second = rate(
        "st-charles",
        players=first.players,
        events=[Event(id="e1", date=DAY, games=tuple(events[1]))],
    )
    assert second.displays == at_once.displays
    assert second.players == at_once.players


def test_a_players_lines_need_the_games_that_moved_their_opponents_before_they_met() -> None:
    # cat's first game (with dan) moved the rating ann met in round 2; bob and dan's
    # round-2 game came after every game of ann's.
    event = Event(
        id="e0",
        date=DAY,
        games=(
            Game("ann", "cat", 1, round=2),
            Game("bob", "dan", 0.5, round=2),
            Game("ann", "bob", 1, round=1),
            Game("cat", "dan", 0, round=1),
        ),
    )
    assert StCharles().games_to_rate(event, {"ann"}) == (
        Game("ann", "bob", 1, round=1),
        Game("cat", "dan", 0, round=1),
        Game("ann", "cat", 1, round=2),
    )
