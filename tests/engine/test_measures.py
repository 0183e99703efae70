"""The comparison's measures against games worked by hand (ratings/engine/measures.py).

The four games of every test here:

    January  g1  A v B  E(A) = 0.76   A wins       deviance -log10 0.76         = 0.119186
             g2  A v C  E(A) = 0.50   draw         deviance -log10 0.5          = 0.301030
             g3  B v C  E(B) = 0.995  C wins       E held to 0.99: -log10 0.01  = 2
    February g4  A v B  E(A) = 0.60   B wins       deviance -log10 0.4          = 0.397940
"""

from __future__ import annotations

import math
from datetime import date

import pytest

from ratings.engine.measures import (
    MeasureTally,
    calibration,
    deviance,
    mean_deviance,
    month_key,
    month_of_key,
    player_month_rmse,
)

JAN = month_key(date(2026, 1, 20))
FEB = month_key(date(2026, 2, 3))
GAMES = [
    (JAN, "A", "B", 0.76, 1.0),
    (JAN, "A", "C", 0.5, 0.5),
    (JAN, "B", "C", 0.995, 0.0),
    (FEB, "A", "B", 0.6, 0.0),
]


def tally(recent_from: int = FEB) -> MeasureTally:
    t = MeasureTally(recent_from=recent_from)
    for game in GAMES:
        t.add(*game)
    return t


def test_deviance_of_a_win_expected_at_076_is_minus_log10_076() -> None:
    assert deviance(0.76, 1.0) == pytest.approx(0.119186, abs=1e-6)


def test_deviance_of_a_draw_at_even_odds_is_log10_2() -> None:
    # -(0.5 log10 0.5 + 0.5 log10 0.5) = log10 2
    assert deviance(0.5, 0.5) == pytest.approx(math.log10(2))


def test_deviance_holds_the_expectation_to_099() -> None:
    # 0.995 is held to 0.99; the loss costs -log10(1 - 0.99) = -log10 0.01 = 2
    assert deviance(0.995, 0.0) == pytest.approx(2.0)
    assert deviance(1.0, 0.0) == pytest.approx(2.0)


def test_mean_deviance_of_the_four_games() -> None:
    # (0.119186 + 0.301030 + 2 + 0.397940) / 4 = 2.818156 / 4 = 0.704539
    pairs = [(e, s) for _, _, _, e, s in GAMES]
    assert mean_deviance(pairs) == pytest.approx(0.704539, abs=1e-6)


def test_player_month_rmse_of_the_four_games() -> None:
    # January: A expected 0.76 + 0.5 = 1.26, scored 1.5 -> (-0.24)^2 = 0.0576
    #          B expected 0.24 + 0.995 = 1.235, scored 0 -> 1.235^2 = 1.525225
    #          C expected 0.5 + 0.005 = 0.505, scored 1.5 -> (-0.995)^2 = 0.990025
    # February: A 0.6 v 0 -> 0.36; B 0.4 v 1 -> 0.36
    # mean of the 5 player-months: 3.29285 / 5 = 0.65857; root 0.811524
    sums = [(1.26, 1.5), (1.235, 0.0), (0.505, 1.5), (0.6, 0.0), (0.4, 1.0)]
    assert player_month_rmse(sums) == pytest.approx(0.811524, abs=1e-6)


def test_tally_gives_the_hand_worked_figures_over_the_whole_history() -> None:
    result = tally().result()
    assert result.games == 4
    assert result.deviance == pytest.approx(0.704539, abs=1e-6)
    assert result.player_months == 5
    assert result.rmse == pytest.approx(0.811524, abs=1e-6)
    assert result.expected_games == 4


def test_tally_recent_figures_count_only_the_months_from_recent_from() -> None:
    # February alone: one game (0.397940); A and B, 0.36 each -> RMSE 0.6
    result = tally(recent_from=FEB).result()
    assert result.recent_games == 1
    assert result.recent_deviance == pytest.approx(0.397940, abs=1e-6)
    assert result.recent_player_months == 2
    assert result.recent_rmse == pytest.approx(0.6)


def test_tally_counts_a_game_without_an_expectation_at_one_half() -> None:
    t = MeasureTally(recent_from=FEB)
    t.add(JAN, "A", "B", None, 1.0)
    result = t.result()
    # -log10 0.5 = 0.30103; A: 0.5 v 1, B: 0.5 v 0 -> RMSE 0.5
    assert result.deviance == pytest.approx(0.30103, abs=1e-5)
    assert result.rmse == pytest.approx(0.5)
    assert result.expected_games == 0
    assert sum(b.count for b in result.calibration) == 0


def test_calibration_counts_each_game_from_both_sides() -> None:
    # sides: g1 0.76 (1) and 0.24 (0); g2 0.5 (0.5) twice; g3 0.995 (0), 0.005 (1);
    # g4 0.6 (0), 0.4 (1)
    bins = tally().result().calibration
    assert [b.count for b in bins] == [1, 0, 1, 0, 1, 2, 1, 1, 0, 1]
    assert bins[5].mean_expected == pytest.approx(0.5)
    assert bins[5].mean_actual == pytest.approx(0.5)
    assert bins[9].mean_expected == pytest.approx(0.995)
    assert bins[9].mean_actual == 0.0
    assert bins[0].mean_actual == 1.0


def test_calibration_function_agrees_with_the_tally() -> None:
    sides = [(e, s) for _, _, _, e, s in GAMES] + [(1 - e, 1 - s) for _, _, _, e, s in GAMES]
    by_hand = calibration(sides)
    assert [b.count for b in by_hand] == [b.count for b in tally().result().calibration]


def test_tally_refuses_a_month_that_goes_back() -> None:
    t = MeasureTally(recent_from=FEB)
    t.add(FEB, "A", "B", 0.5, 1.0)
    with pytest.raises(ValueError):
        t.add(JAN, "A", "B", 0.5, 1.0)


def test_month_key_round_trips_to_the_first_of_the_month() -> None:
    assert month_of_key(month_key(date(2025, 12, 31))) == date(2025, 12, 1)
    assert month_key(date(2026, 1, 1)) == month_key(date(2025, 12, 1)) + 1
