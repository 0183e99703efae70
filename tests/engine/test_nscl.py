"""nscl (NSCL's rules): every rule, the worked example by the rules and as the document has it.

All games of a meet (one event) are rated on the ratings from before it; then the bonus
points are added and the rating is rounded to a whole number.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from ratings.engine import EngineError, Event, Game, PlayerState, rate
from ratings.engine.base import RatingResult
from ratings.engine.nscl import Nscl

ROOT = Path(__file__).resolve().parents[2]
DAY = date(2024, 3, 2)


def run(ratings: dict[str, float | None], *meets: list[Game], **params: object) -> RatingResult:
    return rate(
        "nscl",
        players=[PlayerState(id=pid, rating=r) for pid, r in ratings.items()],
        events=[Event(id=f"m{i}", date=DAY, games=tuple(games)) for i, games in enumerate(meets)],
        params=params,
    )


def game_points(own: int, opponent: int, score: float, **params: object) -> tuple[float, float]:
    """The points ann and bob get for one game (ann's score ``score``), before bonuses."""
    result = run({"ann": own, "bob": opponent}, [Game("ann", "bob", score)], **params)
    ann, bob = (change.games[0].change for change in result.events[0].changes)
    assert ann is not None and bob is not None
    return ann, bob


def change_of(result: RatingResult, pid: str, meet: int = 0) -> dict[str, object]:
    change = next(c for c in result.events[meet].changes if c.player == pid)
    return {"before": change.before, "after": change.after, **change.detail}


# -- the per-game rules ---------------------------------------------------------------


@pytest.mark.parametrize(("gap", "points"), [(0, 20.8), (50, 18.2), (100, 15.6), (250, 7.8)])
def test_higher_rated_winner_gains_20_8_minus_5_2_percent_of_the_difference(
    gap: int, points: float
) -> None:
    assert game_points(1000 + gap, 1000, 1) == (points, -points)


@pytest.mark.parametrize(("gap", "points"), [(50, 23.4), (100, 26.0), (350, 39.0)])
def test_lower_rated_winner_gains_20_8_plus_5_2_percent_of_the_difference(
    gap: int, points: float
) -> None:
    assert game_points(1000, 1000 + gap, 1) == (points, -points)


@pytest.mark.parametrize(("gap", "points"), [(50, 2.6), (250, 13.0), (350, 18.2)])
def test_in_a_draw_the_lower_rated_player_gains_5_2_percent_of_the_difference(
    gap: int, points: float
) -> None:
    assert game_points(1000, 1000 + gap, 0.5) == (points, -points)
    assert game_points(1000 + gap, 1000, 0.5) == (-points, points)


def test_equal_ratings_a_win_is_worth_20_8_and_a_draw_nothing() -> None:
    assert game_points(1000, 1000, 1) == (20.8, -20.8)
    assert game_points(1000, 1000, 0) == (-20.8, 20.8)
    assert game_points(1000, 1000, 0.5) == (0, 0)


@pytest.mark.parametrize(
    ("own", "opponent", "score"),
    [
        (own, opponent, score)
        for own in (400, 750, 1000, 1600)
        for opponent in (300, 700, 750, 1000, 1100, 1450, 2500)
        for score in (1.0, 0.5, 0.0)
    ],
)
def test_the_loser_loses_what_the_winner_gains(own: int, opponent: int, score: float) -> None:
    ann, bob = game_points(own, opponent, score)
    assert ann == -bob


@pytest.mark.parametrize(
    ("own", "opponent", "score", "points"),
    [
        (1000, 1407, 1, 41.964),  # 20.8 + 0.052 * 407: just under the cap
        (1000, 1408, 1, 42.0),  # 20.8 + 0.052 * 408 = 42.016
        (1000, 1500, 1, 42.0),  # 20.8 + 26 = 46.8
        (1000, 1807, 0.5, 41.964),  # 0.052 * 807
        (1000, 1808, 0.5, 42.0),  # 0.052 * 808 = 42.016
        (1000, 1900, 0.5, 42.0),  # 0.052 * 900 = 46.8
        (1500, 1000, 0, -42.0),  # the lower-rated bob wins: ann loses at most 42
    ],
)
def test_the_most_a_game_can_win_or_lose_is_42(
    own: int, opponent: int, score: float, points: float
) -> None:
    assert game_points(own, opponent, score)[0] == points


@pytest.mark.parametrize(("gap", "formula"), [(400, 0.0), (450, -2.6), (500, -5.2)])
def test_a_big_gap_win_by_the_higher_rated_player_is_worth_nothing_not_less(
    gap: int, formula: float
) -> None:
    # 20.8 - 0.052 * d goes negative beyond d = 400: the winner would lose points.
    assert round(20.8 - 0.052 * gap, 6) == formula
    assert game_points(1000 + gap, 1000, 1) == (0, 0)


def test_without_the_win_minimum_a_big_gap_win_costs_the_winner_points() -> None:
    assert game_points(1500, 1000, 1, win_minimum=None) == (-5.2, 5.2)


def test_the_breakdown_names_the_formula_each_game_used() -> None:
    result = run(
        {"ann": 1000, "bob": 900, "cat": 1100, "dan": 1000},
        [
            Game("ann", "bob", 1),
            Game("ann", "cat", 1),
            Game("ann", "dan", 0.5),
            Game("ann", "dan", 1),
        ],
    )
    ann = next(c for c in result.events[0].changes if c.player == "ann")
    assert [(line.opponent_rating, line.change, line.detail["rule"]) for line in ann.games] == [
        (900, 15.6, "higher-wins"),
        (1100, 26.0, "lower-wins"),
        (1000, 0.0, "draw"),
        (1000, 20.8, "higher-wins"),
    ]


# -- rule 5: per meet ---------------------------------------------------------------


def test_every_game_of_a_meet_is_rated_on_the_ratings_from_before_it() -> None:
    # ann beats bob twice: both games at 1000 v 1000 (20.8 each), not 1021 v 979 the
    # second time.
    result = run({"ann": 1000, "bob": 1000}, [Game("ann", "bob", 1), Game("bob", "ann", 0)])
    assert [line.change for line in result.events[0].changes[0].games] == [20.8, 20.8]
    assert [line.opponent_rating for line in result.events[0].changes[0].games] == [1000, 1000]


def test_the_next_meet_is_rated_on_the_ratings_after_the_last() -> None:
    result = run({"ann": 1200, "bob": 1200}, [Game("ann", "bob", 1)], [Game("ann", "bob", 1)])
    # Meet 1: ann 1200 + 20.8 + bonus 1 of 0.8 = 1221.6 -> 1222; bob 1179.2 -> 1179.
    # Meet 2: ann 43 above: 20.8 - 2.236 = 18.564.
    assert change_of(result, "ann", 1)["before"] == 1222
    assert result.events[1].changes[0].games[0].change == 18.564
    assert result.displays == {"ann": "1241", "bob": "1160"}


# -- the worked example -------------------------------------------------------------

#: You (750) beat a 700, lose to an 1100 and draw with a 1000.
EXAMPLE_RATINGS: dict[str, float | None] = {"you": 750, "p700": 700, "p1100": 1100, "p1000": 1000}
EXAMPLE_GAMES = [Game("you", "p700", 1), Game("you", "p1100", 0), Game("you", "p1000", 0.5)]
EXAMPLE = (EXAMPLE_RATINGS, EXAMPLE_GAMES)

#: The figures as the document prints them. Its game 2 is written as
#: -20.8 + 0.052 * (1100 - 750) but 0.052 * 350 is evaluated as 13 (it is 18.2), so the
#: game comes to -7.8 where rule 1 gives -2.6 (the 1100 player, the higher rated,
#: gains 20.8 - 18.2 = 2.6 and you lose the same). Game 1 is written as
#: 20.8 - 0.052 * (700 - 750) but evaluated as 20.8 - 2.6 = 18.2, which rule 1 agrees
#: with. Everything after game 2 follows from the slip: total 23.4, 773.4 -> 773, bonus 1
#: 3.4, bonus 2 6.8 (3 * 0.01 * 227 = 6.81, printed to one decimal), 773.4 + 10.2 = 784,
#: "picked up 34 points". By the rules the meet is worth 794 (see below).
DOCUMENT_FIGURES = {
    "games": (18.2, -7.8, 13.0),
    "gained": 23.4,
    "after_games": 773,
    "bonus1": 3.4,
    "bonus2": 6.8,
    "after": 784,
}


def test_worked_example_game_points_by_the_rules() -> None:
    result = run(*EXAMPLE)
    you = result.events[0].changes[0]
    assert [line.change for line in you.games] == [18.2, -2.6, 13.0]
    assert [line.detail["rule"] for line in you.games] == ["higher-wins", "higher-wins", "draw"]


def test_worked_example_new_rating_by_the_rules_is_794_not_the_documents_784() -> None:
    result = run(*EXAMPLE)
    assert change_of(result, "you") == {
        "before": 750,
        "after": 794,
        "gained": 28.6,  # 18.2 - 2.6 + 13
        "after_games": 779,  # 778.6 rounded
        "bonus1": 8.6,  # 28.6 - 20
        "bonus2": 6.63,  # 3 * 0.01 * (1000 - 779)
        "played": 3,
        "score": 1.5,
    }
    assert result.displays["you"] == "794"  # round(778.6 + 8.6 + 6.63) = round(793.83)
    assert DOCUMENT_FIGURES["after"] == 784  # the document's figure, from its slip


def test_worked_example_document_game_2_slip() -> None:
    # Its own formula, -20.8 + 0.052 * (1100 - 750), done right: the loss costs 2.6.
    assert game_points(750, 1100, 0) == (-2.6, 2.6)
    # Its -7.8 (0.052 * 350 taken as 13) is what a loss to a player 250 above costs.
    assert game_points(750, 1000, 0)[0] == DOCUMENT_FIGURES["games"][1] == -7.8


def test_worked_example_document_game_1_is_written_with_the_sign_flipped() -> None:
    # Evaluated (and by rule 1): 18.2, what the higher-rated winner gains.
    assert game_points(750, 700, 1)[0] == DOCUMENT_FIGURES["games"][0] == 18.2
    # Written: 20.8 - 0.052 * (700 - 750) = 23.4, what the lower-rated winner would gain.
    assert game_points(700, 750, 1)[0] == 23.4


def test_worked_example_documents_own_totals_round_to_784() -> None:
    # The document's three games through the engine (its game 2 as a loss to a 1000).
    result = run(
        {"you": 750, "p700": 700, "p1000": 1000, "q1000": 1000},
        [Game("you", "p700", 1), Game("you", "p1000", 0), Game("you", "q1000", 0.5)],
    )
    you = change_of(result, "you")
    assert you["gained"] == DOCUMENT_FIGURES["gained"]
    assert you["after_games"] == DOCUMENT_FIGURES["after_games"]  # 773.4 half up
    assert you["after"] == DOCUMENT_FIGURES["after"] == 784
    assert result.displays["you"] == "784"
    assert you["after"] - you["before"] == 34  # "You picked up 34 points"


def test_worked_example_bonus_arithmetic_on_the_documents_own_numbers() -> None:
    # The document's gain (23.4) through the engine: beat a 700 (18.2), lose to a 1000
    # (-7.8, the figure the document has for game 2), draw with a 1000 (13).
    result = run(
        {"you": 750, "p700": 700, "p1000": 1000, "q1000": 1000},
        [Game("you", "p700", 1), Game("you", "p1000", 0), Game("you", "q1000", 0.5)],
    )
    you = change_of(result, "you")
    assert [line.change for line in result.events[0].changes[0].games] == [18.2, -7.8, 13.0]
    assert you["gained"] == DOCUMENT_FIGURES["gained"]
    assert you["after_games"] == DOCUMENT_FIGURES["after_games"]  # 773.4 -> 773
    assert you["bonus1"] == DOCUMENT_FIGURES["bonus1"]  # 23.4 - 20
    assert you["bonus2"] == 6.81  # 3 * 0.01 * (1000 - 773), printed as 6.8
    assert round(6.81, 1) == DOCUMENT_FIGURES["bonus2"]
    assert you["after"] == DOCUMENT_FIGURES["after"]  # round(773.4 + 3.4 + 6.81) = 784


# -- bonus points -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("games", "gained", "bonus1"),
    [
        ([Game("ann", "bob", 1)], 20.8, 0.8),  # equal ratings: 20.8
        ([Game("ann", "bob", 0.5)], 0.0, 0.0),
        ([Game("ann", "cat", 1)], 18.2, 0.0),  # ann 50 above cat
        ([Game("ann", "bob", 1), Game("ann", "cat", 1)], 39.0, 19.0),
        ([Game("ann", "bob", 0)], -20.8, 0.0),
    ],
)
def test_bonus_1_is_every_point_gained_above_20(
    games: list[Game], gained: float, bonus1: float
) -> None:
    result = run({"ann": 1500, "bob": 1500, "cat": 1450}, games)
    assert (change_of(result, "ann")["gained"], change_of(result, "ann")["bonus1"]) == (
        gained,
        bonus1,
    )


def test_bonus_1_is_worked_out_on_the_unrounded_gain() -> None:
    # 1500 beats a 1450 and draws a 1600: 18.2 + 5.2 = 23.4 -> bonus 3.4, not 3.
    result = run(
        {"ann": 1500, "cat": 1450, "dan": 1600},
        [Game("ann", "cat", 1), Game("ann", "dan", 0.5)],
    )
    assert change_of(result, "ann")["bonus1"] == 3.4
    assert change_of(result, "ann")["after"] == 1527  # 1500 + 23.4 + 3.4 = 1526.8


def test_bonus_1_at_exactly_20_points_is_nothing() -> None:
    # With the documented figures every game is worth a multiple of 0.052 (20.8 is
    # 400 * 0.052), so a gain of exactly 20 cannot happen; a threshold of 20.8 can.
    result = run({"ann": 1500, "bob": 1500}, [Game("ann", "bob", 1)], bonus1_threshold=20.8)
    assert change_of(result, "ann")["bonus1"] == 0.0


@pytest.mark.parametrize(
    ("rating", "bonus2"),
    [(998, 0.02), (999, 0.01), (1000, 0.0), (1200, 0.0), (700, 3.0)],
)
def test_bonus_2_is_one_percent_of_the_gap_to_1000_per_game_for_players_under_1000(
    rating: int, bonus2: float
) -> None:
    # A draw between equals: no points, so the rating after the games is the rating.
    result = run({"ann": rating, "bob": rating}, [Game("ann", "bob", 0.5)])
    assert change_of(result, "ann")["bonus2"] == bonus2


def test_bonus_2_counts_every_game_of_the_meet() -> None:
    result = run(
        {"ann": 900, "bob": 900, "cat": 900, "dan": 900},
        [Game("ann", "bob", 0.5), Game("ann", "cat", 0.5), Game("dan", "ann", 0.5)],
    )
    assert change_of(result, "ann")["bonus2"] == 3.0  # 3 * 0.01 * 100
    assert change_of(result, "ann")["after"] == 903


def test_bonus_2_is_judged_on_the_rounded_rating_after_the_games() -> None:
    # 990 beats an equal: 1010.8 -> 1011 after the games, no longer under 1000.
    result = run({"ann": 990, "bob": 990}, [Game("ann", "bob", 1)])
    assert change_of(result, "ann")["after_games"] == 1011
    assert change_of(result, "ann")["bonus2"] == 0.0
    assert change_of(result, "bob")["bonus2"] == 0.31  # 969.2 -> 969: 0.01 * 31


def test_bonus_2_goes_to_a_player_whose_games_take_them_under_1000() -> None:
    # Judged after the games, it cuts both ways: 1005 loses three games to equals,
    # -62.4: 942.6 -> 943 after the games, under 1000, so bonus 2 is 3 * 0.01 * 57 = 1.71
    # and the new rating round(942.6 + 1.71) = 944 (943 judged before the meet).
    players = {"ann": 1005.0, "bob": 1005.0, "cat": 1005.0, "dan": 1005.0}
    games = [Game("ann", "bob", 0.0), Game("ann", "cat", 0.0), Game("dan", "ann", 1.0)]
    ann = change_of(run(players, games), "ann")
    assert (ann["after_games"], ann["bonus2"], ann["after"]) == (943, 1.71, 944)
    ann = change_of(run(players, games, bonus2_basis="before-meet"), "ann")
    assert (ann["after_games"], ann["bonus2"], ann["after"]) == (943, 0.0, 943)


def test_bonus_2_can_be_judged_on_the_rating_before_the_meet() -> None:
    result = run(*EXAMPLE, bonus2_basis="before-meet")
    assert change_of(result, "you")["bonus2"] == 7.5  # 3 * 0.01 * (1000 - 750)
    assert change_of(result, "you")["after"] == 795  # round(778.6 + 8.6 + 7.5 = 794.7)


def test_bonus_points_do_not_count_toward_the_42_point_cap() -> None:
    # 700 beats 1200: 20.8 + 26 = 46.8, capped at 42 for the game; then bonus 1 (22) and
    # bonus 2 (0.01 * (1000 - 742) = 2.58) on top: 766.58 -> 767, a change of 67.
    result = run({"ann": 700, "bob": 1200}, [Game("ann", "bob", 1)])
    assert change_of(result, "ann") == {
        "before": 700,
        "after": 767,
        "gained": 42.0,
        "after_games": 742,
        "bonus1": 22.0,
        "bonus2": 2.58,
        "played": 1,
        "score": 1.0,
    }


# -- ratings, new players, rounding --------------------------------------------------


@pytest.mark.parametrize(
    ("own", "opponent", "after"),
    [(1100, 1225, 1107), (1225, 1100, 1219)],  # 1106.5 and 1218.5
)
def test_new_ratings_are_rounded_half_up_to_whole_numbers(
    own: int, opponent: int, after: int
) -> None:
    # A draw 125 apart is worth 0.052 * 125 = 6.5 points; nobody is under 1000.
    result = run({"ann": own, "bob": opponent}, [Game("ann", "bob", 0.5)])
    assert change_of(result, "ann")["after"] == after
    assert result.displays["ann"] == str(after)


def test_a_new_player_starts_at_750() -> None:
    result = run({"ann": None}, [Game("ann", "bob", 1)])
    assert [c.before for c in result.events[0].changes] == [750, 750]


def test_the_start_rating_is_a_parameter() -> None:
    result = run({}, [Game("ann", "bob", 1)], start_rating=1000)
    assert [c.before for c in result.events[0].changes] == [1000, 1000]


def test_ratings_given_with_fractions_are_rounded_to_whole_numbers() -> None:
    assert Nscl().prepare(PlayerState(id="ann", rating=812.5)).rating == 813.0


def test_the_played_games_are_counted() -> None:
    result = run({"ann": 1000, "bob": 1000}, [Game("ann", "bob", 1), Game("ann", "bob", 0)])
    assert {p.id: p.games for p in result.players} == {"ann": 2, "bob": 2}


def test_every_rule_a_club_could_set_differently_is_a_parameter() -> None:
    params = {"win_points": 21, "difference_share": 0.05, "max_per_game": 30}
    assert game_points(1000, 1100, 1, **params) == (26.0, -26.0)
    assert game_points(1000, 1300, 1, **params) == (30.0, -30.0)
    assert game_points(1400, 1000, 1, win_minimum=1.0) == (1.0, -1.0)
    result = run(
        {"ann": 800, "bob": 800},
        [Game("ann", "bob", 1)],
        bonus1_threshold=10,
        bonus2_limit=900,
        bonus2_rate=0.1,
    )
    assert change_of(result, "ann")["bonus1"] == 10.8
    assert change_of(result, "ann")["bonus2"] == 7.9  # 0.1 * (900 - 821)
    with pytest.raises(EngineError, match="bonus2_basis"):
        Nscl({"bonus2_basis": "after-meet"})


def test_the_command_line_prints_the_worked_example() -> None:
    document = {
        "system": "nscl",
        "players": [{"id": pid, "rating": r} for pid, r in EXAMPLE[0].items()],
        "events": [
            {
                "id": "meet",
                "date": "2024-03-02",
                "games": [{"a": g.a, "b": g.b, "score": g.score} for g in EXAMPLE[1]],
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
    assert {p["id"]: (p["rating"], p["display"]) for p in out["players"]} == {
        "you": (794, "794"),
        "p700": (685, "685"),  # -18.2: 681.8 -> 682; bonus 2 0.01 * 318 = 3.18
        "p1100": (1103, "1103"),  # +2.6
        "p1000": (987, "987"),  # -13: 987; bonus 2 0.01 * 13 = 0.13
    }
    you = out["events"][0]["changes"][0]
    assert [(g["change"], g["rule"]) for g in you["games"]] == [
        (18.2, "higher-wins"),
        (-2.6, "higher-wins"),
        (13, "draw"),
    ]
    assert (you["gained"], you["bonus1"], you["bonus2"]) == (28.6, 8.6, 6.63)


def test_rating_in_two_runs_gives_the_same_list_as_one() -> None:
    ratings: dict[str, float | None] = {"ann": 990.4, "bob": 1200, "cat": None}
    meets = (
        [Game("ann", "bob", 1), Game("cat", "ann", 0.5), Game("bob", "cat", 0)],
        [Game("bob", "ann", 0.5), Game("new", "cat", 1)],
    )
    at_once = run(ratings, *meets)
    first = run(ratings, meets[0])
    second = rate(
        "nscl",
        players=first.players,
        events=[Event(id="m1", date=DAY, games=tuple(meets[1]))],
    )
    assert second.displays == at_once.displays
    assert second.players == at_once.players


def test_a_players_change_in_a_meet_needs_their_own_games_only() -> None:
    # Every game is rated on the ratings from before the meet, the bonuses on the
    # player's own points: a member's page rates just the member's games again.
    games = (Game("ann", "bob", 1.0, 1), Game("cat", "dan", 0.5, 1), Game("bob", "cat", 0.0, 2))
    meet = Event(id="m0", date=DAY, games=games)
    assert Nscl().games_to_rate(meet, {"ann"}) == (games[0],)
