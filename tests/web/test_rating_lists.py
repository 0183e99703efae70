"""A list per time control: rapid and blitz rated with the standard list, on lists of
their own (each its own chain, system and publications), or not at all."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from ratings import services
from ratings.engine import Event as EngineEvent
from ratings.engine import Game as EngineGame
from ratings.engine import rate
from ratings.models import (
    ClubSettings,
    Event,
    Game,
    Publication,
    RatingChange,
    RatingList,
    RatingState,
)
from ratings.models.breakdowns import breakdown_read
from ratings.models.rating_lists import classes_of, list_of, lists_kept

from ..factories import MemberFactory, paid_up
from .test_rerate import admin_form, ratings_now

pytestmark = pytest.mark.django_db

MONDAY = dt.date(2026, 3, 2)


def keep(time_class: str, kept: str = RatingList.Kept.OWN, system: str = "nz-club-elo", **params):
    """Keep ``time_class`` as the admin's form saves it: the row as changed, not yet saved."""
    rating_list = RatingList.objects.filter(time_class=time_class).first() or RatingList(
        time_class=time_class
    )
    rating_list.kept, rating_list.rating_system, rating_list.system_params = kept, system, params
    return services.rating_list_set(rating_list=rating_list)


@pytest.fixture
def alice_and_bob(seasons_2026_and_today):
    return (
        paid_up(
            MemberFactory(name="Alice Archer", initial_rating=1600, initial_games=30),
            *seasons_2026_and_today,
        ),
        paid_up(
            MemberFactory(name="Bob Brown", initial_rating=1500, initial_games=30),
            *seasons_2026_and_today,
        ),
    )


def state(member, time_class="standard"):
    return RatingState.objects.get(member=member, time_class=time_class)


def test_a_club_keeps_one_list_until_it_says_otherwise():
    assert lists_kept() == ["standard"]
    assert list_of("rapid") == "standard"
    assert classes_of("standard") == ["standard", "rapid", "blitz"]


def test_a_rapid_event_is_rated_on_the_standard_list_by_default(alice_and_bob, rated_event):
    alice, bob = alice_and_bob
    rated_event([(1, alice, bob, "0-1")], date=MONDAY, time_class="rapid")
    assert state(bob).rating > 1500
    assert set(RatingChange.objects.values_list("time_class", flat=True)) == {"standard"}


def test_a_rapid_event_changes_only_the_rapid_list_once_rapid_is_kept_apart(
    alice_and_bob, rated_event
):
    alice, bob = alice_and_bob
    keep("rapid")
    rated_event([(1, alice, bob, "0-1")], date=MONDAY, time_class="rapid")
    assert state(bob).rating == 1500  # the standard list as it was brought in
    assert state(bob, "rapid").rating > state(alice, "rapid").rating
    assert set(RatingChange.objects.values_list("time_class", flat=True)) == {"rapid"}


def test_a_rating_brought_in_is_a_standard_one(alice_and_bob):
    alice, _ = alice_and_bob
    keep("rapid")
    assert state(alice).rating == 1600
    assert state(alice, "rapid").games == 0
    assert state(alice, "rapid").rating != 1600


def test_a_time_control_not_rated_changes_no_list(alice_and_bob, rated_event):
    alice, bob = alice_and_bob
    keep("blitz", RatingList.Kept.UNRATED)
    before = ratings_now()
    rated_event([(1, alice, bob, "0-1")], date=MONDAY, time_class="blitz")
    assert ratings_now() == before


def test_each_list_is_its_own_chain_with_its_own_system(alice_and_bob, rated_event):
    alice, bob = alice_and_bob
    keep("rapid", system="st-charles")
    rated_event([(1, alice, bob, "1-0")], date=MONDAY)
    rated_event([(1, alice, bob, "1-0")], date=MONDAY + dt.timedelta(days=1), time_class="rapid")
    runs = {c.time_class: c for c in RatingChange.objects.filter(member=alice)}
    assert set(runs) == {"standard", "rapid"}
    assert ClubSettings.load().engine("rapid").id == "st-charles"
    assert ClubSettings.load().engine().id == "nz-club-elo"


def test_moving_rapid_onto_a_list_of_its_own_and_back_equals_a_full_re_rate(
    alice_and_bob, rated_event
):
    alice, bob = alice_and_bob
    carol = MemberFactory(name="Carol Chen", initial_rating=1700, initial_games=30)
    rated_event([(1, alice, bob, "1-0"), (2, bob, carol, "1/2-1/2")], date=MONDAY)
    rated_event([(1, carol, alice, "0-1")], date=MONDAY + dt.timedelta(days=7), time_class="rapid")
    one_list = ratings_now()
    keep("rapid")
    assert RatingState.objects.filter(time_class="rapid").count() == 3
    keep("rapid", RatingList.Kept.STANDARD)
    assert ratings_now() == one_list
    assert not RatingState.objects.filter(time_class="rapid").exists()


def test_an_event_changing_time_control_moves_between_the_chains(alice_and_bob, rated_event):
    alice, bob = alice_and_bob
    keep("rapid")
    event = rated_event([(1, alice, bob, "1-0")], date=MONDAY)
    previous = services.rating_key(event)
    event.time_class = "rapid"
    services.event_save(event=event, previous=previous, changed=["time_class"])
    assert set(RatingChange.objects.values_list("time_class", flat=True)) == {"rapid"}
    assert state(alice).rating == 1600
    moved = ratings_now()
    services.ratings_rerate(services.RerateRequest(reason="from scratch"))
    assert ratings_now() == moved


def test_correcting_a_rapid_result_re_rates_the_rapid_list_alone(alice_and_bob, rated_event):
    alice, bob = alice_and_bob
    keep("rapid")
    rated_event([(1, alice, bob, "1-0")], date=MONDAY)
    event = rated_event([(1, alice, bob, "1-0")], date=MONDAY, time_class="rapid")
    standard = list(RatingChange.objects.filter(time_class="standard").values_list("pk", "after"))
    game = event.games.get()
    game.result = Game.Result.BLACK_WIN
    run = services.games_replace(event=event, games=[game], rounds=None)
    assert run is not None and run.time_class == "rapid"
    assert (
        list(RatingChange.objects.filter(time_class="standard").values_list("pk", "after"))
        == standard
    )
    corrected = ratings_now()
    services.ratings_rerate(services.RerateRequest(reason="from scratch"))
    assert ratings_now() == corrected


def test_a_new_member_gets_a_state_on_every_list():
    keep("rapid")
    keep("blitz")
    dana = MemberFactory(name="Dana Diaz")
    assert set(dana.rating_states.values_list("time_class", flat=True)) == {
        "standard",
        "rapid",
        "blitz",
    }


def test_each_list_is_published_apart(alice_and_bob, rated_event):
    alice, bob = alice_and_bob
    keep("rapid")
    rated_event([(1, alice, bob, "0-1")], date=MONDAY, time_class="rapid")
    rapid = services.list_publish(note="Rapid list", time_class="rapid")
    standard = services.list_publish(note="Standard list")
    assert rapid.slug.endswith("-rapid") and rapid.time_class == "rapid"
    assert services.publication_latest("rapid") == rapid
    assert services.publication_latest() == standard
    ranks = dict(rapid.entries.values_list("member__name", "rank"))
    assert ranks == {"Bob Brown": 1, "Alice Archer": 2}
    assert dict(standard.entries.values_list("member__name", "rank")) == {
        "Alice Archer": 1,
        "Bob Brown": 2,
    }
    assert str(rapid).startswith("Rapid list of")
    assert Publication.objects.count() == 2


def test_a_rapid_period_closes_on_its_own_chain(alice_and_bob, rated_event):
    alice, bob = alice_and_bob
    keep("rapid", system="acf-1993")
    event = rated_event(
        [(1, alice, bob, "0-1")], date=dt.date(2025, 3, 2), time_class="rapid", rate=False
    )
    services.event_complete(event=event)
    periods = services.periods_close_past(
        system=ClubSettings.load().engine("rapid"), time_class="rapid"
    )
    assert periods and all(p.time_class == "rapid" for p in periods)
    services.ratings_rerate(services.RerateRequest(reason="periods closed", time_class="rapid"))
    assert RatingChange.objects.filter(event=event, time_class="rapid").count() == 2
    assert not RatingChange.objects.filter(time_class="standard").exists()


def test_the_events_time_control_names_its_list():
    keep("rapid")
    assert list_of(Event.objects.model.time_class.field.default) == "standard"
    assert list_of("rapid") == "rapid"
    assert list_of("blitz") == "standard"


def rapid_afternoons(rated_event, alice, bob, carol):
    """Two rapid afternoons among Alice, Bob and Carol, and a standard night between.
    Returns the rapid events and their games as the engine takes them."""
    first = rated_event(
        [(1, alice, bob, "0-1"), (2, bob, carol, "1/2-1/2"), (3, carol, alice, "1-0")],
        date=MONDAY,
        name="Rapid one",
        time_class="rapid",
    )
    rated_event([(1, alice, carol, "1-0")], date=MONDAY + dt.timedelta(days=2))
    second = rated_event(
        [(1, bob, alice, "0-1"), (2, alice, carol, "1/2-1/2")],
        date=MONDAY + dt.timedelta(days=5),
        name="Rapid two",
        time_class="rapid",
    )
    scores = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}
    engine_events = [
        EngineEvent(
            str(event.pk),
            event.end_date,
            tuple(
                EngineGame(str(g.white_id), str(g.black_id), scores[g.result], g.round)
                for g in event.games.order_by("round", "board", "pk")
            ),
        )
        for event in (first, second)
    ]
    return (first, second), engine_events


def rapid_figures() -> dict[str, float | None]:
    return {
        str(member_id): rating
        for member_id, rating in RatingState.objects.filter(time_class="rapid").values_list(
            "member_id", "rating"
        )
        if member_id is not None
    }


def test_the_rapid_lists_figures_are_its_systems_own(alice_and_bob, rated_event):
    alice, bob = alice_and_bob
    carol = MemberFactory(name="Carol Chen", initial_rating=1700, initial_games=30)
    keep("rapid", system="st-charles")
    events, engine_events = rapid_afternoons(rated_event, alice, bob, carol)
    # Each starts the rapid list new (a rating brought in is a standard one).
    direct = rate("st-charles", players=[], events=engine_events)
    expected = {state.id: state.rating for state in direct.players}
    assert {pk: rapid_figures()[pk] for pk in expected} == expected
    for event, result in zip(events, direct.events, strict=True):
        stored = dict(
            RatingChange.objects.filter(event=event, time_class="rapid").values_list(
                "member_id", "after"
            )
        )
        assert stored == {int(c.player): c.after for c in result.changes}


def test_a_rapid_list_with_parameters_of_its_own_is_rated_with_them(alice_and_bob, rated_event):
    alice, bob = alice_and_bob
    carol = MemberFactory(name="Carol Chen", initial_rating=1700, initial_games=30)
    keep("rapid", system="nz-club-elo", k_new=60.0)
    _, engine_events = rapid_afternoons(rated_event, alice, bob, carol)
    own = rate("nz-club-elo", players=[], events=engine_events, params={"k_new": 60.0})
    default = rate("nz-club-elo", players=[], events=engine_events)
    assert rapid_figures() == {state.id: state.rating for state in own.players}
    assert rapid_figures() != {state.id: state.rating for state in default.players}
    # The standard list keeps the club's own parameters.
    assert ClubSettings.load().engine().params["k_new"] == 32.0


def test_changing_the_rapid_lists_system_re_rates_its_chain_alone(alice_and_bob, rated_event):
    alice, bob = alice_and_bob
    carol = MemberFactory(name="Carol Chen", initial_rating=1700, initial_games=30)
    keep("rapid")
    rapid_afternoons(rated_event, alice, bob, carol)
    standard = list(
        RatingChange.objects.filter(time_class="standard").values_list("pk", "after", "breakdown")
    )
    standard_states = list(
        RatingState.objects.filter(time_class="standard").values_list("member_id", "rating")
    )
    on_elo = rapid_figures()
    run = keep("rapid", system="st-charles")
    assert run.time_class == "rapid"
    assert rapid_figures() != on_elo
    assert set(
        RatingChange.objects.filter(time_class="rapid").values_list("event__name", flat=True)
    ) == {
        "Rapid one",
        "Rapid two",
    }
    assert (
        list(
            RatingChange.objects.filter(time_class="standard").values_list(
                "pk", "after", "breakdown"
            )
        )
        == standard
    )
    assert (
        list(RatingState.objects.filter(time_class="standard").values_list("member_id", "rating"))
        == standard_states
    )
    switched = ratings_now()
    services.ratings_rerate(services.RerateRequest(reason="from scratch"))
    assert ratings_now() == switched


def test_an_ecf_2020_rapid_lists_dummy_is_100_lower(alice_and_bob, rated_event):
    alice, bob = alice_and_bob
    keep("rapid", system="ecf-2020")
    junior = MemberFactory(name="Jo Junior", born=dt.date(2013, 6, 1))  # 11 in January 2025
    event = rated_event(
        [(1, alice, bob, "1-0"), (2, junior, alice, "0-1")],
        date=RAPID_MONTH,
        time_class="rapid",
        rate=False,
    )
    ecf_lists_close_and_rate()
    dummies = {
        change.member_id: breakdown_read(change.breakdown)["dummy_rating"]
        for change in RatingChange.objects.filter(event=event, time_class="rapid")
    }
    # An adult's 1800 and a junior's 100 x 11 = 1100, each less 100 for rapid play.
    assert dummies == {alice.pk: 1700, bob.pk: 1700, junior.pk: 1000}


def test_a_rapid_correction_re_rates_an_ecf_2020_standard_list_reading_rapid(
    alice_and_bob, rated_event, ecf_club
):
    keep("rapid", system="ecf-2020")
    nina, first_standard = nina_on_both_lists(rated_event, *alice_and_bob)
    with_full_rapid = dummy_in(first_standard, nina)
    assert with_full_rapid > 1800
    rapid_event = Event.objects.get(time_class="rapid")
    # Half her rapid games were losses: her rapid rating falls below the adult dummy.
    games = list(rapid_event.games.order_by("round"))
    for game in games[:5]:
        game.result = Game.Result.BLACK_WIN
    run = services.games_replace(event=rapid_event, games=games, rounds=None)
    assert run is not None
    assert state(nina, "rapid").rating < with_full_rapid
    assert dummy_in(first_standard, nina) == max(1800, state(nina, "rapid").rating)
    assert dummy_in(first_standard, nina) != with_full_rapid
    corrected = ratings_now()
    services.ratings_rerate(services.RerateRequest(reason="from scratch"))
    assert ratings_now() == corrected


#: The months of the ecf-2020 rapid-and-standard story: rapid in January, standard in March.
RAPID_MONTH = dt.date(2025, 1, 11)
STANDARD_MONTH = dt.date(2025, 3, 8)


def ecf_lists_close_and_rate() -> None:
    """Close every past period of both lists and re-rate: ecf-2020 rates month by month."""
    for time_class in lists_kept():
        services.periods_close_past(
            system=ClubSettings.load().engine(time_class), time_class=time_class
        )
    services.ratings_rerate(services.RerateRequest(reason="periods closed"))


def nina_on_both_lists(rated_event, alice, bob, *, rapid_games=10, rapid_day=RAPID_MONTH):
    """Nina beats ``rapid_games`` new players at rapid, then draws Alice and Bob in her first
    standard event; the club on ecf-2020. Returns Nina and that standard event."""
    nina = MemberFactory(name="Nina Novak")
    others = [MemberFactory(name=f"Rapid player {n}") for n in range(rapid_games)]
    rated_event(
        [(n + 1, nina, other, "1-0") for n, other in enumerate(others)],
        date=rapid_day,
        time_class="rapid",
        rate=False,
    )
    first_standard = rated_event(
        [(1, nina, alice, "1/2-1/2"), (2, bob, nina, "1/2-1/2")], date=STANDARD_MONTH, rate=False
    )
    ecf_lists_close_and_rate()
    return nina, first_standard


def dummy_in(event, member) -> float:
    """The dummy opponent the member's standard rating in ``event`` counted."""
    change = RatingChange.objects.get(event=event, member=member, time_class="standard")
    return breakdown_read(change.breakdown)["dummy_rating"]


@pytest.fixture
def ecf_club():
    services.rating_system_set(system_id="ecf-2020")


def test_ecf_2020_standard_list_takes_a_new_players_current_full_rapid_rating_as_the_dummy(
    alice_and_bob, rated_event, ecf_club
):
    keep("rapid", system="ecf-2020")
    nina, first_standard = nina_on_both_lists(rated_event, *alice_and_bob)
    rapid = state(nina, "rapid")
    assert rapid.state["category"] == "full" and rapid.rating > 1800  # above the adult's 1800
    assert dummy_in(first_standard, nina) == rapid.rating

    with_rapid = RatingChange.objects.get(event=first_standard, member=nina).after
    keep("rapid", RatingList.Kept.UNRATED)
    assert dummy_in(first_standard, nina) == 1800
    assert RatingChange.objects.get(event=first_standard, member=nina).after < with_rapid


def test_a_partial_rapid_rating_is_not_the_dummy(alice_and_bob, rated_event, ecf_club):
    keep("rapid", system="ecf-2020")
    nina, first_standard = nina_on_both_lists(rated_event, *alice_and_bob, rapid_games=5)
    rapid = state(nina, "rapid")
    assert rapid.display.endswith("P") and rapid.rating > 1800
    assert dummy_in(first_standard, nina) == 1800


def test_a_lapsed_rapid_rating_is_not_the_dummy(alice_and_bob, rated_event, ecf_club):
    keep("rapid", system="ecf-2020")
    # Rapid in February 2022: the 36 months before March 2025 open in March 2022.
    nina, first_standard = nina_on_both_lists(
        rated_event, *alice_and_bob, rapid_day=dt.date(2022, 2, 12)
    )
    rapid = state(nina, "rapid")
    assert rapid.state["category"] == "full" and rapid.rating > 1800
    assert dummy_in(first_standard, nina) == 1800


def test_a_rapid_list_on_another_system_gives_no_dummy(alice_and_bob, rated_event, ecf_club):
    keep("rapid", system="nz-club-elo", start_rating=1900.0)
    nina, first_standard = nina_on_both_lists(rated_event, *alice_and_bob)
    assert state(nina, "rapid").rating > 1800
    assert dummy_in(first_standard, nina) == 1800


def test_a_rapid_rating_is_not_the_dummy_of_a_player_who_has_played_standard(
    alice_and_bob, rated_event, ecf_club
):
    alice, bob = alice_and_bob
    keep("rapid", system="ecf-2020")
    carol = MemberFactory(name="Carol Chen")
    rated_event([(1, carol, alice, "0-1")], date=dt.date(2024, 12, 7), rate=False)
    rapid_wins = [MemberFactory(name=f"Rapid player {n}") for n in range(10)]
    rated_event(
        [(n + 1, carol, other, "1-0") for n, other in enumerate(rapid_wins)],
        date=RAPID_MONTH,
        time_class="rapid",
        rate=False,
    )
    march = rated_event([(1, carol, bob, "1/2-1/2")], date=STANDARD_MONTH, rate=False)
    ecf_lists_close_and_rate()
    assert state(carol, "rapid").state["category"] == "full"
    assert state(carol, "rapid").rating > 1800
    assert dummy_in(march, carol) == 1800  # her partial rating's, not her rapid one


def test_moving_the_rapid_list_off_ecf_2020_re_rates_the_standard_list_that_read_it(
    alice_and_bob, rated_event, ecf_club
):
    keep("rapid", system="ecf-2020")
    nina, first_standard = nina_on_both_lists(rated_event, *alice_and_bob)
    assert dummy_in(first_standard, nina) > 1800
    keep("rapid", system="nz-club-elo", start_rating=1900.0)
    assert dummy_in(first_standard, nina) == 1800
    moved = ratings_now()
    services.ratings_rerate(services.RerateRequest(reason="from scratch"))
    assert ratings_now() == moved


# -- an ecf-2020 list rates its own time control ---------------------------------------


def test_an_ecf_2020_rapid_list_cannot_be_set_to_standard_play(alice_and_bob):
    rapid = RatingList(
        time_class="rapid",
        kept=RatingList.Kept.OWN,
        rating_system="ecf-2020",
        system_params={"time_control": "standard"},
    )
    with pytest.raises(ValidationError) as refused:
        services.rating_list_set(rating_list=rapid)
    (problem,) = refused.value.message_dict["system_params"]
    assert problem.startswith("time_control: this list rates rapid play")
    assert not RatingList.objects.exists()
    assert not RatingState.objects.filter(time_class="rapid").exists()


def test_the_ecf_2020_standard_list_cannot_be_set_to_blitz(alice_and_bob):
    with pytest.raises(ValidationError) as refused:
        services.rating_system_set(system_id="ecf-2020", params={"time_control": "blitz"})
    (problem,) = refused.value.message_dict["system_params"]
    assert problem.startswith("time_control: this list rates standard play")
    assert ClubSettings.load().rating_system == "nz-club-elo"


def test_an_ecf_2020_list_may_name_its_own_time_control():
    RatingList(
        time_class="blitz",
        kept=RatingList.Kept.OWN,
        rating_system="ecf-2020",
        system_params={"time_control": "blitz"},
    ).full_clean()


def test_a_contradiction_stored_before_the_check_is_read_as_the_lists_own_time_control():
    RatingList.objects.create(
        time_class="rapid",
        kept=RatingList.Kept.OWN,
        rating_system="ecf-2020",
        system_params={"time_control": "standard"},
    )
    ClubSettings.objects.filter(pk=ClubSettings.load().pk).update(
        rating_system="ecf-2020", system_params={"time_control": "blitz"}
    )
    club = ClubSettings.load()
    assert club.engine("rapid").params["time_control"] == "rapid"
    assert club.engine().params["time_control"] == "standard"


def test_the_rating_list_admin_refuses_a_contradicting_time_control_beside_the_field(
    admin_client,
):
    keep("rapid", system="ecf-2020")
    rapid = RatingList.objects.get(time_class="rapid")
    url = reverse("admin:ratings_ratinglist_change", args=[rapid.pk])
    data = admin_form(admin_client.get(url))
    data["system_params"] = '{"time_control": "standard"}'
    response = admin_client.post(url, data)
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert "this list rates rapid play" in str(errors["system_params"])
    assert RatingList.objects.get(time_class="rapid").system_params == {}


# -- pages and the API ---------------------------------------------------------------------


@pytest.fixture
def rapid_apart(alice_and_bob, rated_event):
    """Alice leads the standard list, Bob the rapid list (kept apart)."""
    alice, bob = alice_and_bob
    keep("rapid")
    rated_event([(1, alice, bob, "1-0")], date=MONDAY, name="Club night")
    rated_event([(1, alice, bob, "0-1")], date=MONDAY, name="Saturday Rapid", time_class="rapid")
    return alice, bob


def test_the_live_list_shows_the_list_asked_for_with_a_tab_a_list(client, rapid_apart):
    standard = client.get("/ratings/live/")
    rapid = client.get("/ratings/live/", {"list": "rapid"})
    assert [m.name for m in standard.context["table"].page.object_list.data] == [
        "Alice Archer",
        "Bob Brown",
    ]
    assert [m.name for m in rapid.context["table"].page.object_list.data] == [
        "Bob Brown",
        "Alice Archer",
    ]
    body = rapid.content.decode()
    assert "Rapid rating list" in body and "after Saturday Rapid" in body
    assert 'href="/ratings/live/?list=rapid">Rapid list</a>' in body


def test_a_list_the_club_does_not_keep_shows_the_standard_one(client, alice_and_bob):
    response = client.get("/ratings/live/", {"list": "blitz"})
    assert response.context["rating_list"] == "standard"
    assert "list-kinds" not in response.content.decode()  # one list: no tabs


def test_a_members_page_charts_the_list_asked_for(client, rapid_apart):
    _, bob = rapid_apart
    standard = client.get(bob.get_absolute_url())
    rapid = client.get(bob.get_absolute_url(), {"list": "rapid"})
    assert standard.context["state"].rating < 1500
    assert rapid.context["state"].time_class == "rapid"
    assert rapid.context["state"].rating > standard.context["state"].rating


def test_the_api_reads_each_list_and_refuses_one_not_kept(client, rapid_apart):
    rapid = client.get("/api/v1/list", {"time_class": "rapid"}).json()
    assert rapid["time_class"] == "rapid"
    assert [row["name"] for row in rapid["results"]] == ["Bob Brown", "Alice Archer"]
    assert client.get("/api/v1/list", {"time_class": "blitz"}).status_code == 404
    _, bob = rapid_apart
    member = client.get(f"/api/v1/members/{bob.member_number}", {"time_class": "rapid"}).json()
    assert member["rating"]["games"] == 1


def test_the_officer_publishes_the_list_of_the_tab_they_are_on(officer_client, rapid_apart):
    response = officer_client.post("/officer/publish/?list=rapid", {"note": "Rapid, March"})
    publication = Publication.objects.get()
    assert publication.time_class == "rapid"
    assert response["Location"] == publication.get_absolute_url()
    page = officer_client.get(publication.get_absolute_url())
    assert "Rapid rating list" in page.content.decode()


def test_a_members_page_works_out_each_events_game_lines_on_its_own_list(client, rapid_apart):
    _, bob = rapid_apart
    response = client.get(bob.get_absolute_url())
    by_event = {}
    for line in response.context["games"]:
        by_event.setdefault(line["event"].name, []).append(line)
    for name, time_class in (("Club night", "standard"), ("Saturday Rapid", "rapid")):
        change = RatingChange.objects.get(event__name=name, member=bob, time_class=time_class)
        assert change.breakdown == {}  # a per-event system stores none: worked out again
        (line,) = by_event[name]
        assert line["change"] == pytest.approx(change.after - change.before, abs=0.05)


def test_the_reports_read_the_list_asked_for(client, rapid_apart):
    alice, bob = rapid_apart
    url = reverse("ratings:report", args=["top"])
    rapid = client.get(url, {"list": "rapid"})
    assert rapid.context["rating_list"] == "rapid"
    assert [m.name for m in rapid.context["table"].data.data] == ["Bob Brown", "Alice Archer"]
    assert 'href="/reports/top/?list=rapid">Rapid list</a>' in rapid.content.decode()
    standard = client.get(url)
    assert [m.name for m in standard.context["table"].data.data] == ["Alice Archer", "Bob Brown"]
    download = client.get(url, {"list": "rapid", "_export": "csv"})
    assert 'filename="rapid-top-' in download["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(download.content.decode())))
    assert [(row[1], row[3]) for row in rows[1:]] == [
        (state(bob, "rapid").display, "Bob Brown"),
        (state(alice, "rapid").display, "Alice Archer"),
    ]
