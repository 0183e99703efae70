"""What each system says about itself, in its own module: its legend's markers and their
status words, its periods' names, how it starts from a rating brought in, and the
parameters a list of one time control rates with. The web app asks these hooks and never
branches on a system's id."""

from __future__ import annotations

from datetime import date

import pytest

from ratings.engine import SYSTEMS, PlayerState
from ratings.engine.acf_1993 import Acf1993
from ratings.engine.ecf_2020 import Ecf2020
from ratings.engine.nz_club_elo import NzClubElo
from ratings.engine.st_charles import StCharles


@pytest.mark.parametrize("system_id", sorted(SYSTEMS))
def test_every_marker_of_a_legend_reads_back_as_its_own_status(system_id: str) -> None:
    system = SYSTEMS[system_id]()
    for marker in system.legend():
        assert system.marker_of(marker.example) == marker
        assert system.status_word(marker.example) == marker.status


@pytest.mark.parametrize("system_id", sorted(SYSTEMS))
def test_no_rating_shown_is_no_rating_yet_in_every_system(system_id: str) -> None:
    assert SYSTEMS[system_id]().status_word("") == "no rating yet"


@pytest.mark.parametrize(
    ("system", "display", "word"),
    [
        (Acf1993(), "1486", "confirmed"),
        (Acf1993(), "1486p", "provisional"),
        (Acf1993(), "2 R", "not yet rated"),
        (Acf1993(), "Unr", "unrated"),
        (Ecf2020(), "1540", "full"),
        (Ecf2020(), "1540P", "partial"),
        (Ecf2020({"partial_mark": "p"}), "1540p", "partial"),
        (StCharles(), "412", "official"),
        (StCharles(), "412*", "not yet official"),
        (NzClubElo(), "1516", "rated"),
    ],
)
def test_a_listed_rating_has_its_systems_status_word(system, display, word) -> None:  # type: ignore[no-untyped-def]
    assert system.status_word(display) == word


def test_st_charles_legend_counts_its_own_official_games() -> None:
    meanings = [m.meaning for m in StCharles({"official_games": 1}).legend()]
    assert meanings[1] == "not yet official: fewer than 1 rated game"


def test_acf_names_a_period_by_the_list_it_feeds() -> None:
    start, end = Acf1993().period_bounds("2026-12")
    assert Acf1993().period_name("2026-12", start, end) == "Jul–Oct 2026, December 2026 list"


def test_ecf_names_a_period_by_its_month() -> None:
    start, end = Ecf2020().period_bounds("2026-07")
    assert Ecf2020().period_name("2026-07", start, end) == "July 2026"


def test_only_acf_explains_its_markers_on_an_event_report() -> None:
    assert {s for s, cls in SYSTEMS.items() if cls.legend_on_report} == {"acf-1993"}


def test_acf_takes_a_status_brought_in_with_a_rating_as_given() -> None:
    state = PlayerState(id="1", rating=1500, games=8)
    assert Acf1993().brought_in(state, standing="confirmed").status == "confirmed"


def test_acf_takes_no_status_without_a_rating() -> None:
    state = PlayerState(id="1", games=8)
    assert Acf1993().brought_in(state, standing="confirmed").status is None


def test_ecf_takes_a_brought_in_rating_as_current_in_the_category_its_games_make() -> None:
    since = date(2026, 3, 1)
    full = Ecf2020().brought_in(PlayerState(id="1", rating=1800, games=30), since=since)
    partial = Ecf2020().brought_in(PlayerState(id="2", rating=1800, games=4), since=since)
    assert (full.category, full.last_played) == ("full", since)
    assert partial.category == "partial"


def test_ecf_takes_the_category_given_over_the_one_its_games_make() -> None:
    state = PlayerState(id="1", rating=1800, games=30)
    assert Ecf2020().brought_in(state, standing="partial").category == "partial"


def test_ecf_takes_a_rating_without_games_as_a_new_player() -> None:
    state = PlayerState(id="1", rating=1800, games=0)
    assert Ecf2020().brought_in(state, standing="full").category is None


def test_a_per_event_system_takes_a_brought_in_rating_as_it_is() -> None:
    state = PlayerState(id="1", rating=1800, games=30)
    assert NzClubElo().brought_in(state, standing="full", since=date(2026, 1, 1)) == state


def test_an_ecf_list_rates_its_own_time_control() -> None:
    assert Ecf2020.list_params({"time_control": "standard"}, "rapid")["time_control"] == "rapid"
    assert Ecf2020.list_param_problems({"time_control": "blitz"}, "rapid")
    assert not Ecf2020.list_param_problems({"time_control": "rapid"}, "rapid")


def test_a_system_without_a_time_control_takes_its_parameters_as_they_are() -> None:
    assert NzClubElo.list_params({"k_new": 24}, "rapid") == {"k_new": 24}


def test_only_ecf_reads_the_rapid_list() -> None:
    assert {s for s, cls in SYSTEMS.items() if cls.reads_rapid_list} == {"ecf-2020"}


def test_each_systems_brought_in_word_is_its_own() -> None:
    words = {s: cls.brought_in_standing for s, cls in SYSTEMS.items() if cls.brought_in_standing}
    assert words == {"acf-1993": "status", "ecf-2020": "category"}


def test_the_engine_imports_no_django() -> None:
    """A fresh interpreter imports every system and loads no Django module: the hooks
    a system answers the web app with are plain Python."""
    import subprocess
    import sys

    probe = (
        "import sys, ratings.engine; "
        "print(sorted(m for m in sys.modules if m.startswith('django')))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_only_ecf_rates_with_a_players_age_and_title() -> None:
    details = {
        s: cls.reads_player_details for s, cls in SYSTEMS.items() if cls.reads_player_details
    }
    assert details == {"ecf-2020": frozenset({"born", "title"})}


@pytest.mark.parametrize("system_id", sorted(SYSTEMS))
def test_a_system_rates_alike_without_the_details_it_does_not_read(system_id: str) -> None:
    """What an erased member loses (``services.member_erase``) moves nobody's rating,
    but for the details the system says it reads, which the erasure keeps."""
    from ratings.engine.base import Event, Game

    system = SYSTEMS[system_id]()
    events = [
        Event(
            "e1",
            date(2026, 3, 2),
            (Game("jr", "a", 1.0, 1), Game("b", "jr", 0.5, 2), Game("a", "b", 0.0, 3)),
            period="2026-03",
        )
    ]
    players = [PlayerState(id="a", rating=1600, games=40), PlayerState(id="b", rating=1450)]

    def ratings(**details: object) -> list[tuple[str, float | None]]:
        junior = PlayerState(id="jr", gender="F", **details)  # type: ignore[arg-type]
        result = system.rate([*players, junior], events)
        return sorted((p.id, p.rating) for p in result.players)

    kept = {
        name: value
        for name, value in (("born", date(2015, 6, 1)), ("title", "WFM"))
        if name in system.reads_player_details
    }
    assert ratings(born=date(2015, 6, 1), title="WFM") == ratings(**kept)
    if kept:  # and what it says it reads does move ratings: the erasure must keep it
        assert ratings(**kept) != ratings()
