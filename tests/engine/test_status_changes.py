"""Each system's word on when a member's status next changes (``status_changes``) is what
its engine does when the day or the games come: rated after the day (or with the games
said) the status has changed; before it (or with one game fewer) it has not."""

from __future__ import annotations

import os
from datetime import date, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.engine import AcfState, EcfState, Event, Game, PlayerState, get_system
from ratings.engine.base import RatingSystem

PROFILE = settings(
    max_examples=int(os.environ.get("PROPERTY_EXAMPLES", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TODAY = date(2026, 11, 29)


def draws(day: date, count: int, opponent: str = "opp") -> Event:
    """An event of ``count`` drawn games between the member and one opponent."""
    games = tuple(Game("m", opponent, 0.5, round=i + 1) for i in range(count))
    return Event(id=f"e{day}", date=day, games=games)


def after(system: RatingSystem, member: PlayerState, *events: Event) -> PlayerState:
    """The member's state after ``events``, against an established opponent."""
    opponent = _opponent(system)
    result = system.rate([member, opponent], list(events))
    return next(p for p in result.players if p.id == "m")


def status(system: RatingSystem, state: PlayerState) -> str:
    return system.status_word(system.display(state))


def _opponent(system: RatingSystem) -> PlayerState:
    if system.id == "acf-1993":
        return AcfState(id="opp", rating=1500.0, games=60, status="confirmed")
    if system.id == "ecf-2020":
        return EcfState(id="opp", rating=1500.0, games=60, category="full", last_played=TODAY)
    return PlayerState(id="opp", rating=1500.0, games=60)


# -- st-charles: official after official_games ------------------------------------------


@PROFILE
@given(official=st.integers(1, 12), played=st.integers(0, 11), rating=st.integers(300, 2000))
def test_st_charles_is_official_after_the_games_it_says(official, played, rating):
    system = get_system("st-charles", {"official_games": official})
    member = PlayerState(id="m", rating=float(rating), games=min(played, official - 1))
    (change,) = system.status_changes(member, today=TODAY)
    assert change.to == "official" and change.on is None
    assert change.after_games == official - member.games
    assert status(system, after(system, member, draws(TODAY, change.after_games))) == "official"
    fewer = after(system, member, draws(TODAY, change.after_games - 1))
    assert status(system, fewer) == "not yet official"


def test_an_official_st_charles_rating_changes_no_more():
    system = get_system("st-charles")
    assert system.status_changes(PlayerState(id="m", rating=900.0, games=5), today=TODAY) == ()


def test_st_charles_says_how_many_more_games_in_words():
    system = get_system("st-charles")
    (change,) = system.status_changes(PlayerState(id="m", rating=420.0, games=3), today=TODAY)
    assert change.words == "official after 2 more rated games"


# -- nz-club-elo: K 32 until more than k_games games ----------------------------------------


def _k_of_next_event(system: RatingSystem, state: PlayerState) -> float:
    opponent = _opponent(system)
    result = system.rate([state, opponent], [draws(TODAY + timedelta(days=7), 1)])
    return next(c for c in result.events[0].changes if c.player == "m").detail["k"]


@PROFILE
@given(k_games=st.integers(0, 40), played=st.integers(0, 40), rating=st.integers(1000, 2200))
def test_nz_club_elo_k_halves_after_the_games_it_says(k_games, played, rating):
    system = get_system("nz-club-elo", {"k_games": k_games})
    member = PlayerState(id="m", rating=float(rating), games=min(played, k_games))
    (change,) = system.status_changes(member, today=TODAY)
    assert change.on is None and change.after_games == k_games + 1 - member.games
    enough = after(system, member, draws(TODAY, change.after_games))
    assert _k_of_next_event(system, enough) == system.params["k_established"]
    fewer = after(system, member, draws(TODAY, change.after_games - 1))
    assert _k_of_next_event(system, fewer) == system.params["k_new"]


def test_nz_club_elo_established_players_and_guests_change_no_more():
    system = get_system("nz-club-elo")
    assert system.status_changes(PlayerState(id="m", rating=1600.0, games=31), today=TODAY) == ()
    guest = PlayerState(id="m", rating=1500.0, games=0, guest=True)
    assert system.status_changes(guest, today=TODAY) == ()


# -- nscl: one status, no change ---------------------------------------------------------


@given(games=st.integers(0, 500), rating=st.integers(0, 2500))
def test_nscl_has_no_status_to_change(games, rating):
    system = get_system("nscl")
    member = PlayerState(id="m", rating=float(rating), games=games)
    assert system.status_changes(member, today=TODAY) == ()


# -- acf-1993: published after publish_games, confirmed after confirm_games ---------------

_ACF_MEMBERS = st.one_of(
    st.just(AcfState(id="m")),  # new
    # Provisional, with the history (NG, AR, TS) of a score between a fifth and four fifths.
    st.builds(
        lambda games, fifths, avg: AcfState(
            id="m", games=games, avg_opp=float(avg), score=games * fifths / 5
        ),
        st.integers(1, 40),
        st.integers(1, 4),
        st.integers(1200, 1800),
    ),
    # Unrated: every game won, or none (then new again when the next period opens).
    st.builds(
        lambda games, won, avg: AcfState(
            id="m", games=games, avg_opp=float(avg), score=float(games if won else 0)
        ),
        st.integers(1, 20),
        st.booleans(),
        st.integers(1200, 1800),
    ),
)


@PROFILE
@given(member=_ACF_MEMBERS)
def test_acf_1993_status_changes_after_the_games_it_says(member):
    system = get_system("acf-1993")
    prepared = system.prepare(member)
    changes = system.status_changes(prepared, today=TODAY)
    if prepared.status == "confirmed":
        assert changes == ()
        return
    (change,) = changes
    # A later period than any the state came from: games in it count at its list.
    enough = after(system, prepared, draws(TODAY, change.after_games))
    assert status(system, enough) == change.to
    fewer = after(system, prepared, draws(TODAY, change.after_games - 1))
    assert status(system, fewer) != change.to


def test_acf_1993_a_new_player_is_told_of_the_provisional_rating_to_come():
    system = get_system("acf-1993")
    (change,) = system.status_changes(system.prepare(PlayerState(id="m")), today=TODAY)
    assert (change.to, change.after_games) == ("provisional", 9)
    assert change.words.startswith("a provisional rating listed after 9 more rated games")


def test_acf_1993_a_confirmed_rating_changes_no_more():
    system = get_system("acf-1993")
    member = system.prepare(AcfState(id="m", rating=1600.0, games=40, status="confirmed"))
    assert system.status_changes(member, today=TODAY) == ()


# -- ecf-2020: lapses 36 months after the last game; partial becomes full ------------------


def _category_at_event(system: RatingSystem, member: PlayerState, day: date) -> str:
    opponent = _opponent(system)
    result = system.rate([member, opponent], [draws(day, 1)])
    return next(c for c in result.events[0].changes if c.player == "m").detail["category_before"]


@PROFILE
@given(
    last=st.dates(date(2015, 1, 1), date(2026, 11, 1)),
    games=st.integers(1, 60),
    rating=st.integers(100, 2500),
    months=st.integers(1, 60),
)
def test_ecf_2020_a_rating_lapses_on_the_day_it_says(last, games, rating, months):
    system = get_system("ecf-2020", {"activity_months": months})
    category = "full" if games >= 10 else "partial"
    member = EcfState(
        id="m", rating=float(rating), games=games, category=category, last_played=last
    )
    changes = system.status_changes(member, today=last)
    lapse = next(c for c in changes if c.on is not None)
    assert lapse.to == "lapsed" and lapse.after_games is None
    assert _category_at_event(system, member, lapse.on) == "new"
    assert _category_at_event(system, member, lapse.on - timedelta(days=1)) == category


def test_ecf_2020_the_lapse_is_said_as_a_day():
    system = get_system("ecf-2020")
    member = EcfState(
        id="m", rating=1700.0, games=40, category="full", last_played=date(2024, 2, 15)
    )
    (change,) = system.status_changes(member, today=TODAY)
    assert change.on == date(2027, 3, 1)
    assert change.words.startswith("unrated from 1 March 2027 unless a rated game is played")


def test_ecf_2020_a_rating_already_lapsed_has_no_day_to_come():
    system = get_system("ecf-2020")
    member = EcfState(
        id="m", rating=1700.0, games=40, category="full", last_played=date(2022, 2, 15)
    )
    assert system.status_changes(member, today=TODAY) == ()


@PROFILE
@given(full_games=st.integers(2, 20), games=st.integers(1, 19), rating=st.integers(800, 2200))
def test_ecf_2020_a_partial_rating_is_full_after_the_games_it_says(full_games, games, rating):
    system = get_system("ecf-2020", {"full_games": full_games})
    played = min(games, full_games - 1)
    last = TODAY - timedelta(days=40)
    member = EcfState(
        id="m", rating=float(rating), games=played, category="partial", last_played=last
    )
    (full,) = [c for c in system.status_changes(member, today=TODAY) if c.on is None]
    assert full.to == "full" and full.after_games == full_games - played
    assert status(system, after(system, member, draws(TODAY, full.after_games))) == "full"
    fewer = after(system, member, draws(TODAY, full.after_games - 1))
    assert status(system, fewer) == "partial"
