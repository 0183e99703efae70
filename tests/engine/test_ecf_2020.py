"""ecf-2020: the ECF's method from July 2020 (the ECF's 2020 method), one behaviour a test.

The page has no worked example, so every figure here is worked by hand, the arithmetic in
the comments: P ratings (average opponent over the games plus one dummy draw, plus dp from
the performance table), K ratings (D offset + score offset, times K / 20), the dummy
opponent (title, age, time control, lapsed and rapid ratings), the three passes, the
36-month activity window and the month-by-month state that feeds back in unchanged.
"""

from __future__ import annotations

import itertools
import json
import random
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from ratings.engine import (
    EcfState as PlayerState,  # this file's states are the system's own
)
from ratings.engine import (
    EngineError,
    Event,
    Game,
    PlayerChange,
    RatingResult,
    get_system,
    rate,
)
from ratings.engine.__main__ import main
from ratings.engine.base import with_changes
from ratings.engine.codec import state_from_dict, state_to_dict
from ratings.engine.ecf_2020 import Ecf2020
from ratings.engine.ecf_offsets import PADDED_OFFSETS
from ratings.engine.ecf_tables import (
    D_MAX,
    D_OFFSET_BANDS,
    D_OFFSET_FIFTHS,
    D_OFFSET_SIGNED,
    DP_BY_P,
)
from ratings.engine.io import result_to_dict
from ratings.engine.months import month_start, months_before

MARCH = date(2024, 3, 2)
FIRST = date(2024, 3, 1)  # the start of the month being rated: ages and the window count from it
ACTIVE = date(2024, 1, 15)  # a last game well inside the 36 months
#: The first month with the titled players' dummy ratings (the page: "Effective 1st
#: September 2024").
SEPTEMBER = date(2024, 9, 1)


def full(pid: str, rating: float, **fields: Any) -> PlayerState:
    """A fully rated player, active, with 30 games at 50% against their own rating."""
    games = fields.pop("games", 30)
    return PlayerState(
        pid,
        rating=float(rating),
        games=games,
        category="full",
        avg_opp=float(fields.pop("avg_opp", rating)),
        points=float(fields.pop("points", games / 2)),
        last_played=fields.pop("last_played", ACTIVE),
        **fields,
    )


def partial(pid: str, rating: float, games: int, avg_opp: float, points: float) -> PlayerState:
    return PlayerState(
        pid,
        rating=float(rating),
        games=games,
        category="partial",
        avg_opp=float(avg_opp),
        points=float(points),
        last_played=ACTIVE,
    )


def run(
    players: list[PlayerState], games: list[Game], *, day: date = MARCH, **params: Any
) -> RatingResult:
    """One event, on 2 March 2024 unless ``day`` says otherwise."""
    return rate(
        "ecf-2020",
        players=players,
        events=[Event(id="e0", date=day, games=tuple(games))],
        params=params,
    )


def state(result: RatingResult, pid: str) -> PlayerState:
    (found,) = [p for p in result.players if p.id == pid]
    return found


def rating(result: RatingResult, pid: str) -> float | None:
    return state(result, pid).rating


def change(result: RatingResult, pid: str, event: int = 0) -> PlayerChange:
    (found,) = [c for c in result.events[event].changes if c.player == pid]
    return found


def draws(a: str, b: str, n: int) -> list[Game]:
    return [Game(a, b, 0.5)] * n


# -- periods ----------------------------------------------------------------------------


def test_periods_are_calendar_months() -> None:
    system = Ecf2020()
    assert system.period_based
    assert system.period_of(date(2024, 3, 31)) == "2024-03"
    assert system.period_of(date(2024, 12, 1)) == "2024-12"
    assert system.period_bounds("2024-02") == (date(2024, 2, 1), date(2024, 2, 29))
    assert system.period_bounds("2023-12") == (date(2023, 12, 1), date(2023, 12, 31))


@pytest.mark.parametrize("label", ["2024-13", "2024-3", "March 2024", "2024-03-01", ""])
def test_a_label_that_is_not_a_month_has_no_bounds(label: str) -> None:
    assert month_start(label) is None
    with pytest.raises(EngineError):
        Ecf2020().period_bounds(label)


def test_months_before_counts_whole_months() -> None:
    assert months_before(date(2024, 3, 1), 36) == date(2021, 3, 1)
    assert months_before(date(2024, 1, 1), 1) == date(2023, 12, 1)
    assert months_before(date(2024, 12, 1), -1) == date(2025, 1, 1)


def test_all_events_of_a_month_are_one_period_rated_from_the_ratings_before_it() -> None:
    # a (1500) beats b (1500) on the 2nd and again on the 20th: both games count at 1500,
    # so each is worth (0 + 10) x 20 / 20 = +10, and both events report 1500 -> 1520.
    result = rate(
        "ecf-2020",
        players=[full("a", 1500), full("b", 1500)],
        events=[
            Event("e1", date(2024, 3, 2), (Game("a", "b", 1.0),)),
            Event("e2", date(2024, 3, 20), (Game("a", "b", 1.0),)),
            Event("e3", date(2024, 4, 6), (Game("a", "b", 0.5),)),
        ],
    )
    first, second = change(result, "a", 0), change(result, "a", 1)
    assert [r.period for r in result.events] == ["2024-03", "2024-03", "2024-04"]
    assert (first.before, first.after) == (second.before, second.after) == (1500, 1520)
    assert len(first.games) == len(second.games) == 1  # each event shows its own games
    assert first.games[0].opponent_rating == second.games[0].opponent_rating == 1500
    assert first.detail["month_games"] == 2
    # April starts from March's result: a 1520, b 1480; D = -40 -> band 40-46 -> 1.2.
    # a: -1.2 + 0 = -1.2 -> 1518.8 -> 1519; b: +1.2 -> 1481.2 -> 1481.
    assert change(result, "a", 2).before == 1520
    assert (rating(result, "a"), rating(result, "b")) == (1519, 1481)
    assert state(result, "a").last_played == date(2024, 4, 6)


def test_an_explicit_period_label_groups_events_whatever_their_date() -> None:
    result = rate(
        "ecf-2020",
        players=[full("a", 1500), full("b", 1500)],
        events=[
            Event("e1", date(2024, 3, 30), (Game("a", "b", 1.0),), period="2024-03"),
            Event("e2", date(2024, 4, 2), (Game("a", "b", 1.0),), period="2024-03"),
        ],
    )
    assert [r.period for r in result.events] == ["2024-03", "2024-03"]
    assert change(result, "a", 1).before == 1500  # one period: both games from 1500
    assert rating(result, "a") == 1520


# -- the tables -------------------------------------------------------------------------


def test_the_d_offset_bands_cover_every_difference_once() -> None:
    assert D_OFFSET_BANDS[0] == (0, 3, 0.0)
    assert D_OFFSET_BANDS[-1] == (392, None, 8.4)
    for (_, high, offset), (low, _, next_offset) in itertools.pairwise(D_OFFSET_BANDS):
        assert high is not None and low == high + 1
        assert next_offset == pytest.approx(offset + 0.2)
    assert len(D_OFFSET_FIFTHS) == D_MAX + 1 == 393
    assert len(D_OFFSET_SIGNED) == 2 * D_MAX + 1
    assert (D_OFFSET_SIGNED[0], D_OFFSET_SIGNED[D_MAX], D_OFFSET_SIGNED[-1]) == (-42, 0, 42)
    assert all(D_OFFSET_SIGNED[D_MAX + d] == -D_OFFSET_SIGNED[D_MAX - d] for d in range(393))


@pytest.mark.parametrize(
    ("d", "offset"),
    [
        *[(0, 0.0), (3, 0.0), (4, 0.2), (10, 0.2), (11, 0.4), (150, 4.0), (225, 5.6)],
        *[(226, 5.8), (344, 7.6), (345, 7.8), (391, 8.2), (392, 8.4)],
    ],
)
def test_d_offset_lookup(d: int, offset: float) -> None:
    assert D_OFFSET_FIFTHS[d] / 5 == offset


def test_the_performance_table_is_symmetric_with_its_printed_values() -> None:
    assert len(DP_BY_P) == 101
    assert (DP_BY_P[0], DP_BY_P[50], DP_BY_P[100]) == (-800, 0, 800)
    assert (DP_BY_P[1], DP_BY_P[99]) == (-677, 677)
    assert (DP_BY_P[55], DP_BY_P[63], DP_BY_P[67], DP_BY_P[83]) == (36, 95, 125, 273)
    assert all(DP_BY_P[i] == -DP_BY_P[100 - i] for i in range(101))
    assert list(DP_BY_P) == sorted(DP_BY_P)


# -- P rating ---------------------------------------------------------------------------


def test_a_new_adults_p_rating() -> None:
    # n (no birth date: an adult, dummy 1800) beats 1700 and 1900, loses to 2000.
    # games 3 + 1 dummy = 4; opponents 1700 + 1900 + 2000 + 1800 = 7400, average 1850;
    # points 1 + 1 + 0 + 0.5 = 2.5, p = 2.5 / 4 = 0.625 -> 0.63 (half up) -> dp 95;
    # rating 1850 + 95 = 1945, partial (3 games).
    result = run(
        [full("f1", 1700), full("f2", 1900), full("f3", 2000)],
        [Game("n", "f1", 1.0), Game("n", "f2", 1.0), Game("n", "f3", 0.0)],
    )
    c = change(result, "n")
    assert (c.before, c.after, c.display_before, c.display_after) == (None, 1945, "", "1945P")
    assert c.detail["pass"] == "P"
    assert c.detail["category_before"] == "new" and c.detail["category_after"] == "partial"
    assert c.detail["dummy_rating"] == 1800
    assert c.detail["total_games"] == 4
    assert c.detail["total_points"] == 2.5
    assert c.detail["avg_opp"] == 1850
    assert (c.detail["p"], c.detail["dp"]) == (0.63, 95)
    assert [line.opponent_rating for line in c.games] == [1700, 1900, 2000]
    # The state keeps the real games only: 3 games, average (1700 + 1900 + 2000) / 3.
    s = state(result, "n")
    assert (s.games, s.category, s.avg_opp, s.points) == (3, "partial", 1866.67, 2.0)
    assert s.last_played == MARCH


def test_a_partial_rating_becomes_full_at_ten_games() -> None:
    # p: partial 1600 from 8 games averaging 1580 with 4.5 points; beats 1700, loses to 1500.
    # games 8 + 2 + 1 = 11; opponents 8 x 1580 + 1700 + 1500 + 1800 = 17640, / 11 = 1603.64;
    # points 4.5 + 1 + 0 + 0.5 = 6, p = 6 / 11 = 0.545 -> 0.55 -> dp 36;
    # 1603.64 + 36 = 1639.64 -> 1640; 10 games without the dummy: full.
    result = run(
        [partial("p", 1600, 8, 1580, 4.5), full("x", 1700), full("y", 1500)],
        [Game("p", "x", 1.0), Game("p", "y", 0.0)],
    )
    c = change(result, "p")
    assert (c.after, c.display_after) == (1640, "1640")
    assert (c.detail["category_before"], c.detail["category_after"]) == ("partial", "full")
    assert (c.detail["total_games"], c.detail["p"], c.detail["dp"]) == (11, 0.55, 36)
    s = state(result, "p")
    # (8 x 1580 + 1700 + 1500) / 10 = 1584; 4.5 + 1 = 5.5 points.
    assert (s.games, s.category, s.avg_opp, s.points) == (10, "full", 1584, 5.5)


def test_nine_games_stay_partial() -> None:
    # p beats 1700 only: games 8 + 1 + 1 = 10; opponents 12640 + 1700 + 1800 = 16140, 1614;
    # points 4.5 + 1 + 0.5 = 6, p 0.6 -> dp 72; 1614 + 72 = 1686, partial (9 games).
    result = run([partial("p", 1600, 8, 1580, 4.5), full("x", 1700)], [Game("p", "x", 1.0)])
    assert change(result, "p").display_after == "1686P"
    assert state(result, "p").category == "partial"


def test_full_games_parameter() -> None:
    result = run(
        [partial("p", 1600, 8, 1580, 4.5), full("x", 1700)], [Game("p", "x", 1.0)], full_games=9
    )
    assert change(result, "p").display_after == "1686"


def test_a_partial_rating_without_averages_stands_for_its_games_at_fifty_percent() -> None:
    # 4 games, no avg_opp / points: taken as 4 games against 1600 scoring 2.
    # p draws 1600: games 6; opponents 6400 + 1600 + 1800 = 9800, 1633.33; p 3 / 6 = 0.5.
    player = PlayerState("p", rating=1600, games=4, category="partial", last_played=ACTIVE)
    result = run([player, full("x", 1600)], [Game("p", "x", 0.5)])
    assert rating(result, "p") == 1633


def test_the_p_rating_is_never_below_100() -> None:
    # k, aged 5 (dummy 500), loses 9 games to a 300: opponents 9 x 300 + 500 = 3200 over 10
    # games, average 320; points 0.5, p 0.05 -> dp -470; 320 - 470 = -150 -> 100.
    kid = PlayerState("k", born=date(2018, 6, 1))
    result = run([kid, full("w", 300)], [Game("k", "w", 0.0)] * 9)
    c = change(result, "k")
    assert (c.detail["avg_opp"], c.detail["p"], c.detail["dp"]) == (320, 0.05, -470)
    assert c.after == 100 and c.display_after == "100P"


# -- the dummy opponent -----------------------------------------------------------------


def dummy_of(player: PlayerState, *, first: date = FIRST, **params: Any) -> float:
    return float(Ecf2020(params).dummy_rating(player, first))


@pytest.mark.parametrize(
    ("born", "dummy"),
    [
        (date(2012, 6, 15), 1100),  # 11 on 1 March 2024
        (date(2012, 3, 1), 1200),  # 12 that very day
        (date(2006, 3, 2), 1700),  # still 17: a junior
        (date(2006, 3, 1), 1800),  # 18: an adult
        (date(1970, 1, 1), 1800),
        (None, 1800),  # no birth date: an adult
    ],
)
def test_the_dummy_of_a_junior_is_100_per_year_of_age(born: date | None, dummy: float) -> None:
    assert dummy_of(PlayerState("j", born=born)) == dummy


def test_a_juniors_dummy_in_a_p_rating() -> None:
    # j, 11 (dummy 1100), draws a 1500: (1500 + 1100) / 2 = 1300, p 0.5 -> 1300.
    result = run(
        [PlayerState("j", born=date(2012, 6, 15)), full("x", 1500)], [Game("j", "x", 0.5)]
    )
    assert change(result, "j").detail["dummy_rating"] == 1100
    assert rating(result, "j") == 1300


def test_the_dummy_is_never_below_the_minimum_rating() -> None:
    assert dummy_of(PlayerState("baby", born=date(2024, 1, 1))) == 100  # age 0
    assert dummy_of(PlayerState("j", born=date(2019, 1, 1)), time_control="rapid") == 400


@pytest.mark.parametrize(
    ("title", "dummy"),
    [
        *[("GM", 2500), ("IM", 2350), ("FM", 2200), ("CM", 2050)],
        *[("WGM", 2200), ("WIM", 2100), ("WFM", 2000), ("WCM", 1800)],
    ],
)
def test_titled_players_dummy(title: str, dummy: float) -> None:
    assert dummy_of(PlayerState("t", title=title), first=SEPTEMBER) == dummy
    assert dummy_of(PlayerState("t", title=title, born=date(2012, 1, 1)), first=SEPTEMBER) == dummy


def test_a_titled_players_p_rating() -> None:
    # i, an IM (dummy 2350), draws a 2200: (2200 + 2350) / 2 = 2275.
    result = run(
        [PlayerState("i", title="IM"), full("x", 2200)], [Game("i", "x", 0.5)], day=SEPTEMBER
    )
    assert rating(result, "i") == 2275


@pytest.mark.parametrize(
    ("first", "adult", "junior"),
    [
        (date(2024, 8, 1), 1800, 1200),  # August 2024: no title defaults yet (12 years old)
        (SEPTEMBER, 2500, 2500),  # "Effective 1st September 2024"
        (date(2025, 1, 1), 2500, 2500),
    ],
)
def test_title_defaults_take_effect_from_1_september_2024(
    first: date, adult: float, junior: float
) -> None:
    assert dummy_of(PlayerState("g", title="GM"), first=first) == adult
    assert dummy_of(PlayerState("g", title="GM", born=date(2012, 6, 1)), first=first) == junior
    # title_defaults_from: null applies them to every month; another date moves the change.
    assert dummy_of(PlayerState("g", title="GM"), first=first, title_defaults_from=None) == 2500
    moved = dummy_of(PlayerState("g", title="GM"), first=first, title_defaults_from="2024-10-01")
    assert moved == (2500 if first >= date(2024, 10, 1) else 1800)


def test_title_defaults_from_in_a_p_rating_either_side_of_the_date() -> None:
    # i, an IM, draws a 2200: in August 2024 with the adult dummy (2200 + 1800) / 2 = 2000;
    # in September with the IM's 2350: (2200 + 2350) / 2 = 2275.
    players = [PlayerState("i", title="IM"), full("x", 2200, last_played=date(2024, 7, 1))]
    august = run(players, [Game("i", "x", 0.5)], day=date(2024, 8, 31))
    assert (change(august, "i").detail["dummy_rating"], rating(august, "i")) == (1800, 2000)
    september = run(players, [Game("i", "x", 0.5)], day=SEPTEMBER)
    assert (change(september, "i").detail["dummy_rating"], rating(september, "i")) == (2350, 2275)


@pytest.mark.parametrize("value", ["2024-13-01", "20240901", "1 September 2024", 2024])
def test_title_defaults_from_must_be_a_date_or_null(value: object) -> None:
    with pytest.raises(EngineError, match="title_defaults_from"):
        Ecf2020({"title_defaults_from": value})


def test_title_defaults_are_parameters() -> None:
    assert dummy_of(PlayerState("t", title="GM"), first=SEPTEMBER, default_gm=2550) == 2550


def test_other_time_controls_lower_the_adult_and_junior_dummies_by_100() -> None:
    assert dummy_of(PlayerState("a"), time_control="rapid") == 1700
    assert dummy_of(PlayerState("j", born=date(2012, 6, 15)), time_control="blitz") == 1000
    assert dummy_of(PlayerState("a"), time_control="rapid", other_time_control_reduction=50) == (
        1750
    )
    # The page lowers "both" (adults and juniors); titled dummies only when asked.
    gm = PlayerState("g", title="GM")
    assert dummy_of(gm, first=SEPTEMBER, time_control="rapid") == 2500
    assert dummy_of(gm, first=SEPTEMBER, time_control="rapid", reduce_titled_defaults=True) == (
        2400
    )


def test_a_higher_lapsed_full_rating_is_the_dummy() -> None:
    # Full 2100, last played January 2020: lapsed in March 2024, so a new player again.
    # Dummy 2100 (higher than 1800); old games dropped: games 1 + 1, opponents 2000 + 2100,
    # 2050; p 0.5 -> 2050, partial again.
    lapsed = full("back", 2100, games=80, avg_opp=2050, points=45, last_played=date(2020, 1, 15))
    result = run([lapsed, full("x", 2000)], [Game("back", "x", 0.5)])
    c = change(result, "back")
    assert (c.detail["category_before"], c.detail["dummy_rating"]) == ("new", 2100)
    assert (c.before, c.after, c.display_after) == (2100, 2050, "2050P")
    s = state(result, "back")
    assert (s.games, s.avg_opp, s.points, s.category) == (1, 2000, 0.5, "partial")


def test_a_lower_lapsed_rating_or_a_lapsed_partial_rating_is_not_the_dummy() -> None:
    old = date(2020, 1, 15)
    assert dummy_of(full("low", 1600, last_played=old)) == 1800
    lapsed_partial = PlayerState(
        "p", rating=1900, games=3, category="partial", last_played=old, avg_opp=1900, points=1.5
    )
    assert dummy_of(lapsed_partial) == 1800


def test_a_titled_player_with_a_lapsed_full_rating_has_no_title_default() -> None:
    # The title defaults are for players with no prior full rating.
    assert dummy_of(full("g", 2300, title="GM", last_played=date(2020, 1, 15))) == 2300
    assert dummy_of(full("g", 1700, title="GM", last_played=date(2020, 1, 15))) == 1800


def rapid(rating: float, category: str | None = "full", last: date | None = ACTIVE) -> PlayerState:
    """A player new to standard play holding a rapid rating: full and current unless told."""
    return PlayerState(
        "r", rapid_rating=float(rating), rapid_category=category, rapid_last_played=last
    )


def test_a_current_full_rapid_rating_stands_in_for_a_player_who_never_played_standard() -> None:
    assert dummy_of(rapid(1950)) == 1950
    # r (dummy 1950) draws 1800: (1800 + 1950) / 2 = 1875.
    result = run([rapid(1950), full("x", 1800)], [Game("r", "x", 0.5)])
    assert rating(result, "r") == 1875
    assert change(result, "r").detail["dummy_rating"] == 1950


def test_a_lower_rapid_rating_leaves_the_default_dummy() -> None:
    assert dummy_of(rapid(1700)) == 1800


def test_a_partial_rapid_rating_does_not_stand_in() -> None:
    # "category K or A": full ratings only; 1940P is still settling.
    assert dummy_of(rapid(1940, category="partial")) == 1800


def test_a_rapid_rating_of_no_known_category_does_not_stand_in() -> None:
    assert dummy_of(rapid(1950, category=None)) == 1800


def test_a_lapsed_rapid_rating_does_not_stand_in() -> None:
    # The 36 months before March 2024 open on 1 March 2021.
    assert dummy_of(rapid(1950, last=date(2021, 2, 27))) == 1800
    assert dummy_of(rapid(1950, last=date(2021, 3, 1))) == 1950  # the window's first day
    assert dummy_of(rapid(1950, last=date(2021, 2, 27)), activity_months=40) == 1950


def test_a_rapid_rating_with_no_last_game_known_counts_as_current() -> None:
    # As a rating's own last_played: unknown is current.
    assert dummy_of(rapid(1950, last=None)) == 1950


def test_a_rapid_rating_stands_in_only_for_standard_play() -> None:
    # The rapid list itself: the adult default less 100.
    assert dummy_of(rapid(1950), time_control="rapid") == 1700


def test_a_rapid_rating_never_stands_in_for_a_player_who_has_played_standard() -> None:
    # A lapsed partial standard rating makes its holder new again, not new to standard.
    old = date(2020, 1, 15)
    returning = with_changes(
        rapid(1950), rating=1500.0, games=3, category="partial", avg_opp=1500.0,
        points=1.5, last_played=old,
    )  # fmt: skip
    assert dummy_of(returning) == 1800
    # A partially rated player (current) rated again this month: the default too.
    playing = with_changes(
        rapid(1950), rating=1500.0, games=3, category="partial", avg_opp=1500.0,
        points=1.5, last_played=ACTIVE,
    )  # fmt: skip
    result = run([playing, full("x", 1800)], [Game("r", "x", 0.5)])
    assert change(result, "r").detail["dummy_rating"] == 1800


# -- K rating ---------------------------------------------------------------------------


def test_a_fully_rated_adults_k_rating() -> None:
    # a 1850: beats 1900 (D +50 -> 1.4; +10 -> 11.4), draws 1700 (D -150 -> 4.0, sign
    # restored -4.0; +0 -> -4.0), loses to 1860 (D +10 -> 0.2; -10 -> -9.8).
    # Sum -2.4, K 20: 1850 - 2.4 = 1847.6 -> 1848.
    result = run(
        [
            full("a", 1850, born=date(1980, 1, 1)),
            *[full("b", 1900), full("c", 1700), full("d", 1860)],
        ],
        [Game("a", "b", 1.0), Game("c", "a", 0.5), Game("d", "a", 1.0)],
    )
    c = change(result, "a")
    assert (c.before, c.after, c.display_after) == (1850, 1848, "1848")
    assert c.detail["pass"] == "K"
    assert c.detail["player_k"] == 20
    assert c.detail["sum_offsets"] == -2.4
    assert c.detail["adjustment"] == 0
    assert [line.detail for line in c.games] == [
        {"d": 50, "d_offset": 1.4, "score_offset": 10, "increment": 11.4},
        {"d": -150, "d_offset": -4.0, "score_offset": 0, "increment": -4.0},
        {"d": 10, "d_offset": 0.2, "score_offset": -10, "increment": -9.8},
    ]


@pytest.mark.parametrize(
    ("theirs", "score", "d_offset", "new"),
    [
        (1892, 0.0, 8.4, 1498),  # D +392: -10 + 8.4 = -1.6
        (2500, 0.0, 8.4, 1498),  # any difference past 392 counts as 392
        (1108, 1.0, -8.4, 1502),  # D -392: +10 - 8.4 = +1.6
        (500, 0.5, -8.4, 1492),  # a draw with a much weaker player: 1491.6
        (1503, 1.0, 0.0, 1510),  # |D| 0-3: no offset
        (1496, 0.5, -0.2, 1500),  # D -4: 1499.8
    ],
)
def test_d_offset_takes_the_sign_of_d(
    theirs: float, score: float, d_offset: float, new: float
) -> None:
    result = run([full("a", 1500), full("b", theirs)], [Game("a", "b", score)])
    assert change(result, "a").games[0].detail["d_offset"] == d_offset
    assert rating(result, "a") == new


def test_a_fractional_difference_is_rounded_half_up_before_the_lookup() -> None:
    # Only a rating given with decimals can make D fractional: D +3.5 -> 4 (0.2),
    # D -3.5 -> -3 (0.0), D +3.4 -> 3 (0.0).
    for theirs, d_offset in ((1503.5, 0.2), (1496.5, 0.0), (1503.4, 0.0)):
        result = run([full("a", 1500), full("b", theirs)], [Game("a", "b", 0.5)])
        assert change(result, "a").games[0].detail["d_offset"] == d_offset


def test_the_padded_offset_table_gives_the_rule_for_every_difference() -> None:
    # The K pass looks offsets up by int(D + 392.5), negative indices included; the table
    # must give the clamped, signed band for each, far past the bands both ways.
    last = 2 * D_MAX
    top = D_OFFSET_FIFTHS[D_MAX]
    for half_steps in range(-2 * 8000, 2 * 8000):
        index = int(half_steps / 2 + D_MAX + 0.5)
        rule = D_OFFSET_SIGNED[index] if 0 <= index <= last else (top if index > 0 else -top)
        assert PADDED_OFFSETS[index] == rule, half_steps / 2


def test_ratings_too_far_apart_for_the_padded_table_still_get_the_top_offset() -> None:
    # A spread of ratings beyond the padded table (only absurd input gives one) takes the
    # plain road: the same clamped offsets.
    players = [full("a", 1500), full("b", 99_000), full("c", 100)]
    result = run(players, [Game("a", "b", 0.0), Game("a", "c", 1.0)])
    assert [line.detail["d_offset"] for line in change(result, "a").games] == [8.4, -8.4]
    assert rating(result, "a") == 1500  # -10 + 8.4 and +10 - 8.4 cancel out


def test_an_improving_junior_has_k_40() -> None:
    # j, 15: beats 1600 (D +100 -> 2.8; +10 -> 12.8), draws 1500 (0). Sum 12.8 > 0, so
    # the rating goes up: K 40, 12.8 x 40 / 20 = 25.6; 1525.6 -> 1526.
    players = [full("j", 1500, born=date(2009, 1, 1)), full("x", 1600), full("y", 1500)]
    result = run(players, [Game("j", "x", 1.0), Game("j", "y", 0.5)])
    c = change(result, "j")
    assert (c.detail["player_k"], c.detail["improving"], c.after) == (40, True, 1526)
    assert [line.detail["increment"] for line in c.games] == [25.6, 0.0]


def test_a_junior_going_down_and_an_adult_going_up_have_k_20() -> None:
    # j loses to 1400: D -100 -> -2.8; -10 -> -12.8, K 20: 1487.2 -> 1487.
    down = run([full("j", 1500, born=date(2009, 1, 1)), full("z", 1400)], [Game("j", "z", 0.0)])
    assert (change(down, "j").detail["player_k"], rating(down, "j")) == (20, 1487)
    # a, 18 on 1 March 2024, beats 1600: +12.8 at K 20 -> 1512.8 -> 1513.
    up = run([full("a", 1500, born=date(2006, 3, 1)), full("x", 1600)], [Game("a", "x", 1.0)])
    assert (change(up, "a").detail["player_k"], rating(up, "a")) == (20, 1513)


def test_k_is_capped_at_700_over_the_games_of_the_month() -> None:
    # 40 games between two 1500s, a wins 21 and loses 19: sum of offsets +210 - 190 = +20.
    # 20 x 40 = 800 > 700, so K = 700 / 40 = 17.5: a 1500 + 20 x 17.5 / 20 = 1517.5 -> 1518,
    # o 1500 - 17.5 = 1482.5 -> 1483 (halves up).
    games = [Game("a", "o", 1.0)] * 21 + [Game("a", "o", 0.0)] * 19
    result = run([full("a", 1500), full("o", 1500)], games)
    c = change(result, "a")
    assert c.detail["player_k"] == 17.5
    assert c.games[0].detail["increment"] == 8.75  # 10 x 17.5 / 20
    assert (rating(result, "a"), rating(result, "o")) == (1518, 1483)


@pytest.mark.parametrize(
    ("born", "games", "k"),
    [
        (None, 35, 20),  # 20 x 35 = 700: not over
        (None, 36, 19.4444),  # 700 / 36
        (date(2009, 1, 1), 17, 40),  # an improving junior: 40 x 17 = 680
        (date(2009, 1, 1), 18, 38.8889),  # 40 x 18 = 720 > 700: 700 / 18
    ],
)
def test_the_cap_starts_above_35_games_or_17_for_improving_juniors(
    born: date | None, games: int, k: float
) -> None:
    # One win, the rest draws, against an equal player: sum of offsets +10.
    result = run(
        [full("a", 1500, born=born), full("o", 1500)],
        [Game("a", "o", 1.0), *draws("a", "o", games - 1)],
    )
    c = change(result, "a")
    assert c.detail["player_k"] == k
    assert c.games[0].detail["increment"] == pytest.approx(10 * k / 20, abs=1e-4)


def test_k_parameters() -> None:
    games = [Game("a", "o", 1.0)] * 3
    result = run([full("a", 1500), full("o", 1500)], games, k_player=10, k_month_cap=20)
    # K 10, but 10 x 3 = 30 > 20: K = 20 / 3; +30 x (20 / 3) / 20 = +10 -> 1510.
    assert rating(result, "a") == 1510


def test_the_k_rating_is_never_below_100() -> None:
    # 105 loses to 100: D -5 -> -0.2; -10 -> -10.2; 94.8 -> 100.
    result = run([full("w", 105), full("v", 100)], [Game("w", "v", 0.0)])
    assert rating(result, "w") == 100


def test_adjustments_a_and_b_apply_to_k_ratings() -> None:
    # Two 1500s draw (sum 0); A 5, B 0.01: 1500 + 0 + 5 + 1500 x 0.01 = 1520.
    # The new player n (dummy 1800) draws a 1500-rated player: 1650 with or without them.
    players = [full("a", 1500), full("b", 1500), full("c", 1500)]
    games = [Game("a", "b", 0.5), Game("n", "c", 0.5)]
    result = run(players, games, adjustment_a=5, adjustment_b=0.01)
    assert change(result, "a").detail["adjustment"] == 20
    assert (rating(result, "a"), rating(result, "n")) == (1520, 1650)
    # B -0.003: 1500 x -0.003 = -4.5; 1495.5 -> 1496 (exactly half: up).
    result = run(players, games, adjustment_b=-0.003)
    assert change(result, "a").detail["adjustment"] == -4.5
    assert rating(result, "a") == 1496


# -- the three passes -------------------------------------------------------------------


def test_the_three_passes() -> None:
    # n1 and n2 are new adults (dummy 1800); f is fully rated 1800.
    # n1 beats n2 and draws f; f beats n2.
    # Pass 1 (n2 at its dummy 1800):
    #   n1: (1800 + 1800 + 1800) / 3 = 1800; p 2 / 3 -> 0.67 -> +125: A 1925.
    #   n2: (1800 + 1800 + 1800) / 3 = 1800; p 0.5 / 3 -> 0.17 -> -273: A 1527.
    # Pass 2 (the other's A):
    #   n1: (1527 + 1800 + 1800) / 3 = 1709; + 125 = 1834.
    #   n2: (1925 + 1800 + 1800) / 3 = 1841.67; - 273 = 1568.67 -> 1569.
    # Pass 3, f at K 20 against the B ratings:
    #   drew n1 1834: D +34 -> 1.0; +0 -> 1.0.  beat n2 1569: D -231 -> -5.8; +10 -> 4.2.
    #   sum 5.2: 1805.2 -> 1805.
    result = run(
        [full("f", 1800)],
        [Game("n1", "n2", 1.0), Game("n1", "f", 0.5), Game("f", "n2", 1.0)],
    )
    n1, n2, f = change(result, "n1"), change(result, "n2"), change(result, "f")
    assert (n1.detail["rating_a"], n1.detail["rating_b"], n1.after) == (1925, 1834, 1834)
    assert (n2.detail["rating_a"], n2.detail["rating_b"], n2.after) == (1527, 1569, 1569)
    assert {k: v for k, v in n1.detail.items() if k.startswith("pass1_")} == {
        "pass1_games_used": 2,
        "pass1_total_games": 3,
        "pass1_avg_opp": 1800,
        "pass1_p": 0.67,
        "pass1_dp": 125,
    }
    # n1's lines show the ratings pass 2 used (n2 at its A); P lines have no K fields.
    assert [line.opponent_rating for line in n1.games] == [1527, 1800]
    assert n1.games[0].detail == dict.fromkeys(("d", "d_offset", "score_offset", "increment"))
    assert [line.opponent_rating for line in f.games] == [1834, 1569]
    assert [line.detail["d_offset"] for line in f.games] == [1.0, -5.8]
    assert f.after == 1805


def test_pass_one_can_leave_out_games_against_new_players() -> None:
    # exclude: pass 1 counts only the games against f.
    #   n1: (1800 + 1800) / 2, p 0.5: A 1800.   n2: 1800, p 0.5 / 2 = 0.25 -> -193: A 1607.
    # Pass 2: n1 (1607 + 1800 + 1800) / 3 = 1735.67 + 125 -> 1861; n2 1800 - 273 = 1527.
    # Pass 3: f drew 1861 (D +61 -> 1.6), beat 1527 (D -273 -> -6.6 + 10 = 3.4): 1805.
    result = run(
        [full("f", 1800)],
        [Game("n1", "n2", 1.0), Game("n1", "f", 0.5), Game("f", "n2", 1.0)],
        pass1_new_opponents="exclude",
    )
    n1 = change(result, "n1")
    assert (n1.detail["rating_a"], n1.after) == (1800, 1861)
    assert (n1.detail["pass1_games_used"], n1.detail["pass1_total_games"]) == (1, 2)
    assert (change(result, "n2").detail["rating_a"], rating(result, "n2")) == (1607, 1527)
    assert rating(result, "f") == 1805


def test_partially_rated_opponents_count_at_their_old_rating_in_pass_one() -> None:
    # p: partial 1600 (5 games averaging 1600, 2.5 points); n: new adult. They draw.
    # Pass 1: p: (5 x 1600 + 1800 [n's dummy] + 1800) / 7 = 1657.14, p 3.5 / 7: A 1657.
    #         n: (1600 + 1800) / 2 = 1700: A 1700.
    # Pass 2: p: (8000 + 1700 + 1800) / 7 = 1642.86 -> 1643.
    #         n: (1657 + 1800) / 2 = 1728.5 -> 1729 (halves up).
    result = run([partial("p", 1600, 5, 1600, 2.5)], [Game("p", "n", 0.5)])
    assert (change(result, "p").detail["rating_a"], rating(result, "p")) == (1657, 1643)
    assert (change(result, "n").detail["rating_a"], rating(result, "n")) == (1700, 1729)
    s = state(result, "p")
    assert (s.games, s.avg_opp, s.points) == (6, 1616.67, 3.0)  # (8000 + 1700) / 6


def test_fully_rated_opponents_count_at_their_old_rating_in_every_pass() -> None:
    result = run([full("f", 2000)], [Game("n", "f", 1.0)] * 3)
    n = change(result, "n")
    assert [line.opponent_rating for line in n.games] == [2000] * 3
    # (3 x 2000 + 1800) / 4 = 1950 in both passes.
    assert n.detail["pass1_avg_opp"] == n.detail["avg_opp"] == 1950


# -- the activity window ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("last_played", "category", "calculation"),
    [
        (date(2021, 3, 1), "full", "K"),  # within the 36 months before March 2024
        (date(2021, 2, 28), "new", "P"),  # a day earlier: lapsed
        (None, "full", "K"),  # not known: taken as current
    ],
)
def test_a_rating_lapses_after_36_months_without_a_game(
    last_played: date | None, category: str, calculation: str
) -> None:
    player = full("a", 1500, last_played=last_played)
    result = run([player, full("b", 1500)], [Game("a", "b", 0.5)])
    c = change(result, "a")
    assert (c.detail["category_before"], c.detail["pass"]) == (category, calculation)


def test_activity_months_parameter() -> None:
    # 12 months before March 2024: from 1 March 2023.
    kept = PlayerState("a", rating=1500, games=4, category="partial", last_played=date(2023, 3, 1))
    lapsed = PlayerState(
        "b", rating=1500, games=4, category="partial", last_played=date(2023, 2, 28)
    )
    result = run([kept, lapsed], [Game("a", "b", 0.5)], activity_months=12)
    assert change(result, "a").detail["category_before"] == "partial"
    assert change(result, "b").detail["category_before"] == "new"


def test_a_rating_without_a_category_is_a_new_player() -> None:
    # A rating from elsewhere (no ecf category) is not an ECF rating: dummy 1800, games 1.
    other = PlayerState("o", rating=2100, games=50)
    result = run([other, full("x", 1800)], [Game("o", "x", 0.5)])
    c = change(result, "o")
    assert (c.detail["category_before"], c.detail["dummy_rating"], c.after) == ("new", 1800, 1800)
    assert state(result, "o").games == 1


# -- state, display, output -------------------------------------------------------------


def test_players_who_do_not_play_keep_their_state() -> None:
    idle = full("idle", 1700, last_played=date(2019, 5, 5))
    result = run([idle, full("a", 1500), full("b", 1500)], [Game("a", "b", 1.0)])
    assert state(result, "idle") == idle


@pytest.mark.parametrize(
    ("player", "shown"),
    [
        (full("a", 1850), "1850"),
        (partial("p", 1540, 3, 1500, 2), "1540P"),
        (PlayerState("n"), ""),
        (PlayerState("o", rating=1600, games=20), ""),  # no ecf category: not an ECF rating
    ],
)
def test_display(player: PlayerState, shown: str) -> None:
    assert Ecf2020().display(player) == shown


def test_partial_mark_parameter() -> None:
    assert Ecf2020({"partial_mark": "p"}).display(partial("p", 1540, 3, 1500, 2)) == "1540p"


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(EngineError) as error:
        get_system("ecf-2020", {"time_control": "bullet", "pass1_new_opponents": "skip"})
    assert len(error.value.problems) == 2


def test_every_line_has_one_shape() -> None:
    # P and K lines alike: the same detail fields (null where they do not apply) and no
    # ``change``, so a report can show them in one table.
    result = run(
        [full("f", 1800), partial("p", 1600, 5, 1600, 2.5)],
        [Game("n", "f", 1.0, 1), Game("p", "f", 0.5, 2), Game("n", "p", 0.0, 3)],
    )
    lines = [line for c in result.events[0].changes for line in c.games]
    assert {tuple(line.detail) for line in lines} == {
        ("d", "d_offset", "score_offset", "increment")
    }
    assert {line.change for line in lines} == {None}
    values = [v for c in result.events[0].changes for v in c.detail.values()]
    assert all(isinstance(v, int | float | str | None) for v in values)


def _history(seed: int) -> tuple[list[PlayerState], list[Event]]:
    """Six months of games among players of every kind, lapsing one along the way."""
    rng = random.Random(seed)
    players: list[PlayerState] = []
    ids = [f"p{i:02d}" for i in range(30)]
    for i, pid in enumerate(ids):
        kind = i % 6
        born = date(rng.randint(2008, 2014), rng.randint(1, 12), 1) if i % 4 == 0 else None
        if kind == 0:
            players.append(full(pid, rng.randint(1200, 2200), born=born))
        elif kind == 1:
            played = rng.randint(1, 8)
            players.append(partial(pid, rng.randint(1000, 2000), played, 1500, played / 2))
        elif kind == 2:
            players.append(PlayerState(pid, born=born))
        elif kind == 3:
            players.append(PlayerState(pid, title="FM", rapid_rating=2250, rapid_category="full"))
        elif kind == 4:  # p04 lapses in February 2024; p10, p16... already lapsed
            last = date(2021, 1, 20) if pid == "p04" else date(2020, 6, 20)
            players.append(full(pid, rng.randint(1500, 2000), last_played=last))
        else:
            players.append(
                PlayerState(
                    pid,
                    rapid_rating=float(rng.randint(1500, 2100)),
                    rapid_category=rng.choice(("full", "partial")),
                    rapid_last_played=rng.choice((date(2023, 6, 20), date(2020, 6, 20))),
                )
            )
    events = []
    for month in (11, 12, 1, 2, 3, 4):
        year = 2023 if month > 6 else 2024
        for day in (3, 17):
            # p04 sits out until March 2024, so returns in the second half as a new player.
            field = rng.sample([pid for pid in ids if pid != "p04" or month in (3, 4)], 12)
            if month == 3 and "p04" not in field:
                field[0] = "p04"
            games = tuple(
                Game(field[j], field[j + 1], rng.choice((1.0, 0.5, 0.0)), r)
                for r in (1, 2)
                for j in range(0, 12, 2)
            )
            events.append(Event(f"{year}-{month}-{day}", date(year, month, day), games))
    return players, events


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_rating_in_two_halves_fed_back_in_equals_rating_at_once(seed: int) -> None:
    players, events = _history(seed)
    at_once = rate("ecf-2020", players=players, events=events)
    split = date(2024, 2, 1)
    first = rate("ecf-2020", players=players, events=[e for e in events if e.date < split])
    fed_back = [state_from_dict(json.loads(json.dumps(state_to_dict(p)))) for p in first.players]
    second = rate(
        "ecf-2020",
        players=fed_back,
        events=[e for e in events if e.date >= split],
    )
    whole = result_to_dict(at_once)
    halves = result_to_dict(second)
    assert sorted(whole["players"], key=lambda p: p["id"]) == sorted(
        halves["players"], key=lambda p: p["id"]
    )
    assert whole["events"][-len(halves["events"]) :] == halves["events"]
    assert any(c["pass"] == "K" for e in whole["events"] for c in e["changes"])
    changes = [c for e in at_once.events for c in e.changes]
    assert {c.detail["pass"] for c in changes} == {"P", "K"}
    assert any(c.detail["category_after"] == "full" for c in changes if c.detail["pass"] == "P")
    returning = [c for c in changes if c.detail["category_before"] == "new" and c.before]
    assert "p04" in {c.player for c in returning}  # lapsed between the halves


def test_the_command_line_rates_ecf_2020(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = {
        "system": "ecf-2020",
        "players": [
            {
                "id": "f",
                "rating": 1800,
                "games": 30,
                "category": "full",
                "last_played": "2024-01-15",
            }
        ],
        "events": [
            {
                "id": "e1",
                "date": "2024-03-02",
                "games": [
                    {"a": "n1", "b": "n2", "score": 1},
                    {"a": "n1", "b": "f", "score": 0.5},
                    {"a": "f", "b": "n2", "score": 1},
                ],
            }
        ],
    }
    path = tmp_path / "in.json"
    path.write_text(json.dumps(document))
    assert main([str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    shown = {p["id"]: p["display"] for p in out["players"]}
    assert shown == {"f": "1805", "n1": "1834P", "n2": "1569P"}
    (f_change,) = [c for c in out["events"][0]["changes"] if c["player"] == "f"]
    f_line = f_change["games"][0]
    assert f_line == {
        "opponent": "n1",
        "score": 0.5,
        "opponent_rating": 1834,
        "d": 34,
        "d_offset": 1,
        "score_offset": 0,
        "increment": 1,
    }
