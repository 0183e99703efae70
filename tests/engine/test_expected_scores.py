"""Each system's own expected score (docs/rating-systems.md, "Expected scores"), by hand."""

from __future__ import annotations

import pytest

from ratings.engine import AcfState, EcfState, PlayerState, get_system


def state(rating: float | None, **fields: object) -> PlayerState:
    return PlayerState(id="x", rating=rating, **fields)  # type: ignore[arg-type]


def acf_state(rating: float | None, **fields: object) -> AcfState:
    return AcfState(id="x", rating=rating, **fields)  # type: ignore[arg-type]


def ecf_state(rating: float | None, **fields: object) -> EcfState:
    return EcfState(id="x", rating=rating, **fields)  # type: ignore[arg-type]


def test_nz_club_elo_expects_elo_s_logistic_curve() -> None:
    # 1 / (1 + 10^((1400 - 1600) / 400)) = 1 / (1 + 10^-0.5) = 0.759747
    elo = get_system("nz-club-elo")
    assert elo.expected_score(state(1600.0), state(1400.0)) == pytest.approx(0.759747, abs=1e-6)


def test_nz_club_elo_expects_a_guest_at_the_guest_rating() -> None:
    # the guest plays at 1500 whatever is stored: 1 / (1 + 10^(200 / 400)) = 0.240253
    elo = get_system("nz-club-elo")
    guest = state(2200.0, guest=True)
    assert elo.expected_score(guest, state(1700.0)) == pytest.approx(0.240253, abs=1e-6)


def test_st_charles_expectation_is_where_the_shift_balances_the_points_at_risk() -> None:
    # own 500 v 400: shift (400 - 500) / 25 = -4; E = 1/2 - (-4) / 42 = 0.595238
    # (a win +17 = 42 (1 - E), a loss -25 = 42 (0 - E), a draw -4 = 42 (1/2 - E))
    sc = get_system("st-charles")
    assert sc.expected_score(state(500.0), state(400.0)) == pytest.approx(0.595238, abs=1e-6)


def test_st_charles_expects_even_within_12_points() -> None:
    sc = get_system("st-charles")
    assert sc.expected_score(state(412.0), state(400.0)) == 0.5
    # 13 apart: 13 / 25 = 0.52 rounds to 1; E = 1/2 + 1/42 = 0.523810
    assert sc.expected_score(state(413.0), state(400.0)) == pytest.approx(0.523810, abs=1e-6)


def test_st_charles_expectation_is_held_to_one() -> None:
    # 1100 apart: shift -44, 1/2 + 44/42 > 1
    sc = get_system("st-charles")
    assert sc.expected_score(state(1500.0), state(400.0)) == 1.0


def test_nscl_expectation_is_where_the_game_points_balance() -> None:
    # own 750 v 700: E = 1/2 + 0.052 x 50 / 41.6 = 0.5625 (a win is worth 18.2 = 41.6 (1 - E))
    nscl = get_system("nscl")
    assert nscl.expected_score(state(750.0), state(700.0)) == pytest.approx(0.5625)
    assert nscl.expected_score(state(700.0), state(750.0)) == pytest.approx(0.4375)


def test_nscl_expectation_reaches_one_at_400_points() -> None:
    nscl = get_system("nscl")
    assert nscl.expected_score(state(1200.0), state(800.0)) == 1.0


def confirmed(rating: float) -> AcfState:
    return acf_state(rating, status="confirmed", games=50)


def test_acf_1993_expects_table_2() -> None:
    # D = 1700 - 1500 = 200: the 198-206 row, L = .24 for the lower-rated player, H = .76
    acf = get_system("acf-1993")
    assert acf.expected_score(confirmed(1500.0), confirmed(1700.0)) == 0.24
    assert acf.expected_score(confirmed(1700.0), confirmed(1500.0)) == 0.76


def test_acf_1993_holds_the_difference_within_336() -> None:
    # D = 500 is held to 336: the 329-344 row, L = .12
    acf = get_system("acf-1993")
    assert acf.expected_score(confirmed(1500.0), confirmed(2000.0)) == 0.12


def test_acf_1993_expects_nothing_against_an_unpublished_provisional_rating() -> None:
    acf = get_system("acf-1993")
    young = acf_state(1500.0, status="provisional", games=5)
    assert acf.expected_score(confirmed(1500.0), young) is None


def full(rating: float) -> EcfState:
    return ecf_state(rating, category="full", games=30)


def test_ecf_2020_expectation_is_where_the_offsets_balance() -> None:
    # D = 1600 - 1500 = 100: offset +2.8; E = 1/2 - 2.8 / 20 = 0.36
    ecf = get_system("ecf-2020")
    assert ecf.expected_score(full(1500.0), full(1600.0)) == pytest.approx(0.36)
    assert ecf.expected_score(full(1600.0), full(1500.0)) == pytest.approx(0.64)
    # 500 apart: the top offset 8.4, E = 0.08
    assert ecf.expected_score(full(1500.0), full(2000.0)) == pytest.approx(0.08)


def test_ecf_2020_expects_nothing_of_a_new_player() -> None:
    ecf = get_system("ecf-2020")
    assert ecf.expected_score(full(1500.0), ecf_state(None)) is None
