"""glicko-2: Glickman's "Example of the Glicko-2 system" (glicko.net/glicko/glicko2.pdf),
its rating periods, its legend and status word."""

from __future__ import annotations

import math
from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engine import SYSTEMS, EngineError, Event, Game, get_system, rate
from ratings.engine import GlickoState as PlayerState  # this file's states are glicko-2's
from ratings.engine.codec import state_from_dict, state_to_dict
from ratings.engine.glicko_2_formulas import (
    SCALE,
    E,
    deviation_of,
    g,
    mu,
    phi,
    rating_of,
    volatility_after,
)

#: The document's player and the three opponents of its one rating period.
PLAYER = PlayerState("player", 1500.0, deviation=200.0, volatility=0.06)
OPPONENTS = (
    PlayerState("first", 1400.0, deviation=30.0, volatility=0.06),
    PlayerState("second", 1550.0, deviation=100.0, volatility=0.06),
    PlayerState("third", 1700.0, deviation=300.0, volatility=0.06),
)
#: The player beats the first and loses to the other two (τ = 0.5, the default).
EXAMPLE = Event(
    "example",
    date(2026, 3, 5),
    (Game("player", "first", 1.0), Game("player", "second", 0.0), Game("player", "third", 0.0)),
)


def _example_change():
    result = rate("glicko-2", players=[PLAYER, *OPPONENTS], events=[EXAMPLE])
    return next(c for c in result.events[0].changes if c.player == "player")


def test_glicko_2_is_a_system_of_the_engine() -> None:
    assert SYSTEMS["glicko-2"].period_based


def test_glickmans_example_g_and_e_as_the_document_prints_them() -> None:
    lines = _example_change().games
    assert [line.detail["g"] for line in lines] == [0.9955, 0.9531, 0.7242]
    assert [round(line.expected or 0, 3) for line in lines] == [0.639, 0.432, 0.303]


def test_glickmans_example_gives_his_new_mu_phi_and_sigma() -> None:
    """Step 7's μ′ −0.2069 and φ′ 0.8722, and σ′ 0.05999 (his digits: σ′ is 0.0599960)."""
    after = _example_change().state
    assert after is not None and after.rating is not None and after.deviation is not None
    assert round(mu(after.rating), 4) == -0.2069
    assert round(phi(after.deviation), 4) == 0.8722
    assert math.floor((after.volatility or 0) * 100_000) / 100_000 == 0.05999


def test_glickmans_example_converts_back_to_1464_06_and_151_52() -> None:
    """Step 8 on step 7's figures as the document gives them (to four decimals)."""
    after = _example_change().state
    assert after is not None and after.rating is not None and after.deviation is not None
    assert round(rating_of(round(mu(after.rating), 4)), 2) == 1464.06
    assert round(deviation_of(round(phi(after.deviation), 4)), 2) == 151.52


def test_glickmans_example_unrounded_is_within_a_hundredth_of_his_rating() -> None:
    """Kept unrounded, μ′ is −0.206941: 1464.05, the document's 1464.06 being step 8 on
    μ′ rounded to −0.2069. The list shows 1464 either way."""
    change = _example_change()
    assert change.after is not None
    assert round(change.after, 2) == 1464.05
    assert change.display_after == "1464p"


def test_glickmans_example_v_and_delta() -> None:
    """v 1.7785 and Δ −0.4834 in the document, worked from g and E rounded; unrounded
    they agree to two decimals."""
    detail = _example_change().detail
    assert round(detail["variance"], 2) == 1.78
    assert round(detail["improvement"], 2) == -0.48


def test_each_games_change_sums_to_the_periods_change() -> None:
    change = _example_change()
    assert change.after is not None and change.before is not None
    total = sum(line.change or 0 for line in change.games)
    assert total == pytest.approx(change.after - change.before, abs=0.02)


def test_a_period_without_games_grows_the_rd_by_the_period_step() -> None:
    """φ′ = √(φ² + σ²) for each period the player sits out: rated in March, idle in April
    and May, the player opens June with two steps grown (and step 6's own on top)."""
    march = rate("glicko-2", players=[PLAYER, *OPPONENTS], events=[EXAMPLE])
    after = {s.id: s for s in march.players}["player"]
    june = Event("june", date(2026, 6, 10), (Game("player", "second", 0.5),))
    result = rate("glicko-2", players=march.players, events=[june])
    change = next(c for c in result.events[0].changes if c.player == "player")
    assert after.deviation is not None and after.volatility is not None
    grown = SCALE * math.sqrt(phi(after.deviation) ** 2 + 2 * after.volatility**2)
    assert change.detail["inactive_periods"] == 2
    assert change.detail["deviation_before"] == round(grown, 2)
    assert grown > after.deviation


def test_an_idle_players_rd_never_grows_past_a_new_players() -> None:
    system = get_system("glicko-2")
    idle = PlayerState(
        "idle", 1800.0, deviation=300.0, volatility=0.2, last_played=date(2000, 1, 1)
    )
    assert system.deviation_on(idle, date(2026, 1, 1)) == pytest.approx(350.0)


def test_a_period_holds_its_months_games_rated_together() -> None:
    """Two events in one month are one period: the second event is rated on the figures
    the month opened with, not on the first event's outcome."""
    early = Event("early", date(2026, 3, 2), (Game("player", "first", 1.0),))
    late = Event("late", date(2026, 3, 30), (Game("player", "second", 0.0),))
    result = rate("glicko-2", players=[PLAYER, *OPPONENTS], events=[early, late])
    assert [e.period for e in result.events] == ["2026-03", "2026-03"]
    changes = [c for e in result.events for c in e.changes if c.player == "player"]
    assert changes[0].before == changes[1].before == 1500.0
    assert changes[0].after == changes[1].after


def test_a_club_can_make_the_period_a_quarter() -> None:
    system = get_system("glicko-2", {"period_months": 3})
    assert system.period_of(date(2026, 5, 20)) == "2026-04"
    assert system.period_bounds("2026-04") == (date(2026, 4, 1), date(2026, 6, 30))
    with pytest.raises(EngineError):
        system.period_bounds("2026-05")


def test_a_new_player_starts_at_1500_rd_350_volatility_0_06() -> None:
    state = get_system("glicko-2").prepare(PlayerState("new"))
    assert (state.rating, state.deviation, state.volatility) == (1500.0, 350.0, 0.06)


def test_a_rating_brought_in_without_an_rd_takes_the_brought_in_rd() -> None:
    state = get_system("glicko-2").prepare(PlayerState("known", 1800.0, games=40))
    assert state.deviation == 200.0


def test_a_provisional_rating_is_marked_and_says_so() -> None:
    system = get_system("glicko-2")
    assert system.display(PlayerState("a", 1500.0, deviation=200.0)) == "1500p"
    assert system.status_word("1500p") == "provisional"
    assert system.display(PlayerState("b", 1500.0, deviation=80.0)) == "1500"
    assert system.status_word("1500") == "established"
    assert [m.status for m in system.legend()] == ["established", "provisional"]


def test_an_established_rating_turns_provisional_on_the_day_its_rd_passes_the_limit() -> None:
    system = get_system("glicko-2")
    player = PlayerState(
        "a", 1600.0, deviation=100.0, volatility=0.06, last_played=date(2026, 3, 10)
    )
    (change,) = system.status_changes(player, today=date(2026, 3, 20))
    assert change.to == "provisional"
    assert change.on is not None
    # The first period opening with its RD above 110; the one before it is not.
    assert system.deviation_on(player, change.on) > 110
    assert system.deviation_on(player, change.on - timedelta(days=1)) <= 110


def test_a_guest_is_an_opponent_whose_figures_never_move() -> None:
    guest = PlayerState("guest", 1700.0, deviation=50.0, volatility=0.06, guest=True)
    game = Event("e", date(2026, 3, 5), (Game("player", "guest", 1.0),))
    result = rate("glicko-2", players=[PLAYER, guest], events=[game])
    after = {s.id: s for s in result.players}["guest"]
    assert (after.rating, after.deviation, after.volatility) == (1700.0, 50.0, 0.06)


def test_the_state_comes_back_through_json() -> None:
    after = _example_change().state
    assert after is not None
    assert state_from_dict(state_to_dict(after)) == after


def test_the_expected_score_is_e_against_the_opponents_rd() -> None:
    system = get_system("glicko-2")
    assert system.expected_score(PLAYER, OPPONENTS[0]) == E(0.0, mu(1400.0), phi(30.0))
    assert g(phi(30.0)) < 1


def test_every_figure_of_a_glicko_2_change_is_named_by_the_system_not_read_as_its_key() -> None:
    change = _example_change()
    system = SYSTEMS["glicko-2"]
    assert change.detail.keys() <= system.detail_labels.keys()
    assert {key for line in change.games for key in line.detail} <= system.line_labels.keys()


def test_glicko_2_names_its_figures_with_glickmans_letters() -> None:
    labels = SYSTEMS["glicko-2"].detail_labels
    assert "(RD)" in labels["deviation_before"] and "(σ′)" in labels["volatility_after"]
    assert SYSTEMS["glicko-2"].line_labels["g"] == "g(φj)"


# -- step 5 at the edges: σ′ is always a number ----------------------------------------


def test_a_player_beating_one_a_world_away_is_rated_not_an_overflow() -> None:
    """A win over a player 58,500 points above (a state the engine reads from a file): v
    and Δ are some 10⁸⁰, and step 5's f read eˣ at x = ln(Δ² − φ² − v) squared (an
    OverflowError that ended the whole run). Now σ′ and the new figures are numbers."""
    far = PlayerState("far", 60_000.0, deviation=350.0, volatility=0.06)
    near = PlayerState("near", 1500.0, deviation=350.0, volatility=0.06)
    upset = Event("upset", date(2026, 3, 5), (Game("near", "far", 1.0),))
    result = rate("glicko-2", players=[near, far], events=[upset], params={"tau": 1.2})
    after = {s.id: s for s in result.players}["near"]
    assert after.volatility is not None and math.isfinite(after.volatility)
    assert after.volatility > near.volatility  # a surprise: the volatility grows
    assert after.rating is not None and math.isfinite(after.rating) and after.rating > 1500


@given(
    sigma=st.floats(0.001, 10.0),
    phi_=st.floats(0.01, 500 / SCALE),
    v_=st.floats(0.01, 1e300),
    surprise=st.floats(-50.0, 50.0),
    tau=st.floats(0.2, 1.2),
)
@settings(max_examples=300, deadline=None)
def test_step_5_gives_a_volatility_for_any_period_a_float_holds(
    sigma: float, phi_: float, v_: float, surprise: float, tau: float
) -> None:
    """Whatever v and Δ = v Σ g(φj)(sj − E) a period gives (τ anywhere in its bounds),
    σ′ is a positive number: never an OverflowError."""
    new = volatility_after(sigma, v_ * surprise, phi_, v_, tau)
    assert math.isfinite(new) and new > 0
