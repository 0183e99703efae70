"""The published rating list: who is on it, how it reads, sorts, filters and downloads."""

from __future__ import annotations

import datetime as dt
from importlib import import_module

import pytest
from django.apps import apps as django_apps
from django.urls import reverse
from django.utils import timezone

from ratings import services
from ratings.models import ClubSettings, Game, Member, RatingChange, RatingRun, RatingState

from ..factories import MemberFactory, SeasonFactory, SubscriptionFactory, paid_up, rating_state

pytestmark = pytest.mark.django_db

LIST = reverse("ratings:list")


def listed(member: Member, display: str, rating: float | None, games: int = 20, **extra):
    """A member's current rating, as the engine would have left it."""
    return rating_state(member, display=display, rating=rating, games=games, **extra)


def names_on(response) -> list[str]:
    return [m.name for m in response.context["table"].page.object_list.data]


def use_system(system_id: str) -> None:
    ClubSettings.objects.filter(pk=ClubSettings.load().pk).update(rating_system=system_id)


# -- who is published -------------------------------------------------------------------


def test_a_member_in_arrears_is_rated_but_hidden_and_shown_at_once_when_they_pay(
    client, rated_event, current_season, alice, bob
):
    paid_up(alice, current_season)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    bob_rating = RatingState.objects.get(member=bob)
    assert bob_rating.display == "1484"  # rated like everyone else
    assert "Bob Brown" not in client.get(LIST).content.decode()
    runs, changes = RatingRun.objects.count(), RatingChange.objects.count()

    SubscriptionFactory(member=bob, season=current_season)

    response = client.get(LIST)
    row = next(m for m in response.context["table"].page.object_list.data if m == bob)
    assert row.rating_state.display == "1484"
    assert "Bob Brown" in response.content.decode()
    assert (RatingRun.objects.count(), RatingChange.objects.count()) == (runs, changes)


def test_guests_are_never_on_the_published_list(client, current_season, alice):
    guest = paid_up(MemberFactory(name="Gus Guest", is_guest=True), current_season)
    listed(paid_up(alice, current_season), "1500", 1500)
    listed(guest, "1600", 1600)
    assert names_on(client.get(LIST)) == ["Alice Archer"]


def test_a_new_player_yet_to_play_is_not_ranked_at_the_starting_figure(
    client, current_season, rated_event, alice, bob, carol
):
    for member in (alice, bob, carol):
        paid_up(member, current_season)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])  # Carol, new, has not played
    assert RatingState.objects.get(member=carol).display == "1500"  # nz's starting figure
    assert names_on(client.get(LIST)) == ["Alice Archer", "Bob Brown"]


def test_a_member_who_came_with_a_rating_is_listed_before_playing(
    client, current_season, rated_event, alice, bob, carol
):
    for member in (alice, bob, carol):
        paid_up(member, current_season)
    carol.initial_rating = 1700
    carol.save()
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    assert "Carol Chen" in names_on(client.get(LIST))


def test_a_subscription_for_another_season_does_not_publish_a_member(client, alice):
    old = SeasonFactory(name="2019", start=dt.date(2019, 1, 1), end=dt.date(2019, 12, 31))
    listed(paid_up(alice, old), "1500", 1500)
    assert names_on(client.get(LIST)) == []


# -- notation ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("system_id", "displays"),
    [
        ("acf-1993", ["1612", "1486p", "4 R", "Unr"]),
        ("ecf-2020", ["1720", "1540P"]),
        ("st-charles", ["812", "412*"]),
        ("nz-club-elo", ["1516"]),
        ("nscl", ["1032"]),
    ],
)
def test_the_list_shows_each_systems_own_notation_and_a_legend_for_every_marker(
    client, current_season, system_id, displays
):
    use_system(system_id)
    for display in displays:
        member = paid_up(MemberFactory(name=f"Player {display}"), current_season)
        number = "".join(c for c in display if c.isdigit())
        listed(member, display, float(number) if len(number) > 2 else None)
    response = client.get(LIST)
    page = response.content.decode()
    for display in displays:
        assert f">{display}<" in page
    markers = {example.lstrip("0123456789") for example, _ in response.context["legend"]}
    assert {d.lstrip("0123456789") for d in displays} <= markers


def test_st_charles_marks_ratings_that_are_not_yet_official(
    client, rated_event, current_season, alice, bob
):
    paid_up(alice, current_season)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    services.rating_system_set(system_id="st-charles")
    alice_rating = RatingState.objects.get(member=alice)
    assert alice_rating.display.endswith("*")  # one game of the five it takes
    response = client.get(LIST)
    assert f">{alice_rating.display}<" in response.content.decode()
    assert "not yet official" in response.content.decode()


def test_the_list_says_which_system_and_after_which_event(
    client, rated_event, current_season, alice, bob
):
    paid_up(alice, current_season)
    rated_event([(1, alice, bob, Game.Result.DRAW)], name="Spring rapid", date=dt.date(2026, 3, 2))
    text = client.get(LIST).content.decode()
    assert "Club Elo (NZ club rules)" in text
    assert "after Spring rapid, 2 Mar 2026" in text


def test_a_period_system_says_which_rating_period_the_list_is(client, monkeypatch):
    from ratings.engine import SYSTEMS
    from ratings.models import RatingPeriod

    monkeypatch.setattr(SYSTEMS["acf-1993"], "period_based", True)  # as the booklet's system is
    use_system("acf-1993")
    RatingPeriod.objects.create(
        system="acf-1993",
        label="2026-1",
        start=dt.date(2026, 1, 1),
        end=dt.date(2026, 4, 30),
        closed_at=timezone.now(),
    )
    RatingPeriod.objects.create(
        system="acf-1993", label="2026-2", start=dt.date(2026, 5, 1), end=dt.date(2026, 8, 31)
    )
    assert "rating period Jan–Apr 2026" in client.get(LIST).context["basis"]


# -- sorting ----------------------------------------------------------------------------


@pytest.fixture
def mixed_list(current_season):
    """Ratings whose text order is not their number order, and two without a rating."""
    use_system("acf-1993")
    for name, display, rating in [
        ("Nine Hundred", "900", 900),
        ("Fifteen Hundred", "1500", 1500),
        ("Provisional Pat", "1486p", 1486),
        ("Remaining Rob", "4 R", None),
        ("Unrated Una", "Unr", None),
    ]:
        listed(paid_up(MemberFactory(name=name), current_season), display, rating)


def test_the_list_is_strongest_first_by_the_number_not_the_text(client, mixed_list):
    assert names_on(client.get(LIST)) == [
        "Fifteen Hundred",
        "Provisional Pat",
        "Nine Hundred",
        "Remaining Rob",
        "Unrated Una",
    ]


def test_sorting_by_rating_the_other_way_still_puts_the_unrated_last(client, mixed_list):
    names = names_on(client.get(LIST, {"sort": "-rating"}))
    assert names[:3] == ["Nine Hundred", "Provisional Pat", "Fifteen Hundred"]
    assert set(names[3:]) == {"Remaining Rob", "Unrated Una"}


def test_the_list_sorts_by_name(client, mixed_list):
    names = names_on(client.get(LIST, {"sort": "name"}))
    assert names == sorted(names)


def test_only_usable_ratings_get_a_place(client, mixed_list):
    table = client.get(LIST).context["table"]
    places = {m.name: m.rank for m in table.page.object_list.data if not m.unrated}
    assert places == {"Fifteen Hundred": 1, "Provisional Pat": 2, "Nine Hundred": 3}


def test_the_list_is_paginated(client, current_season):
    for n in range(55):
        listed(paid_up(MemberFactory(), current_season), str(1000 + n), 1000 + n)
    first = client.get(LIST)
    assert len(first.context["table"].page.object_list) == 50
    assert len(client.get(LIST, {"page": 2}).context["table"].page.object_list) == 5


# -- search and filters -----------------------------------------------------------------


def test_searching_by_name_finds_every_word(client, current_season, alice, bob, carol):
    for member in (alice, bob, carol):
        listed(paid_up(member, current_season), "1500", 1500)
    assert names_on(client.get(LIST, {"name": "ali arch"})) == ["Alice Archer"]


def test_juniors_are_grouped_by_their_age_at_the_start_of_the_year(client, current_season):
    year = timezone.localdate().year
    # 15 on 1 January (16 later this year) is under 16; 16 on 1 January is not.
    born = {
        "Fifteen": dt.date(year - 16, 1, 2),
        "Sixteen": dt.date(year - 16, 1, 1),
        "Eleven": dt.date(year - 12, 6, 1),
    }
    for name, day in born.items():
        listed(paid_up(MemberFactory(name=name, born=day), current_season), "1200", 1200)
    assert sorted(names_on(client.get(LIST, {"age": "U16"}))) == ["Eleven", "Fifteen"]
    assert names_on(client.get(LIST, {"age": "U12"})) == ["Eleven"]


def test_the_junior_column_is_blank_alike_for_adults_and_members_with_no_birth_date(
    client, current_season
):
    year = timezone.localdate().year
    for name, born in (("Junior", dt.date(year - 11, 6, 1)), ("Adult", dt.date(1980, 1, 1))):
        listed(paid_up(MemberFactory(name=name, born=born), current_season), "1200", 1200)
    listed(paid_up(MemberFactory(name="Unknown age"), current_season), "1200", 1200)
    rows = client.get(LIST, {"sort": "name"}).context["table"].rows
    assert {row.record.name: row.get_cell("age") for row in rows} == {
        "Adult": "",
        "Junior": "U12",
        "Unknown age": "",
    }


def test_the_women_filter_shows_women_only(client, current_season, alice, bob):
    listed(paid_up(alice, current_season), "1500", 1500)
    listed(paid_up(bob, current_season), "1600", 1600)
    assert names_on(client.get(LIST, {"women": "on"})) == ["Alice Archer"]


def test_the_region_filter_offers_only_regions_with_published_members(
    client, current_season, alice, bob
):
    listed(paid_up(alice, current_season), "1500", 1500)  # North
    listed(bob, "1600", 1600)  # South, in arrears
    choices = [
        value for value, _ in client.get(LIST).context["filter"].form["region"].field.choices
    ]
    assert "North" in choices and "South" not in choices


def test_a_region_is_offered_when_any_of_its_members_is_published(
    client, current_season, bob, dave
):
    listed(bob, "1600", 1600)  # South, in arrears: the region's first member
    listed(paid_up(dave, current_season), "1700", 1700)  # South, paid up
    choices = [
        value for value, _ in client.get(LIST).context["filter"].form["region"].field.choices
    ]
    assert "South" in choices


def test_the_region_filter(client, current_season, alice, bob):
    listed(paid_up(alice, current_season), "1500", 1500)
    listed(paid_up(bob, current_season), "1600", 1600)
    assert names_on(client.get(LIST, {"region": "South"})) == ["Bob Brown"]


def test_active_means_played_in_the_last_twelve_months(client, current_season, alice, bob):
    today = timezone.localdate()
    listed(paid_up(alice, current_season), "1500", 1500, last_played=today)
    listed(paid_up(bob, current_season), "1600", 1600, last_played=today - dt.timedelta(400))
    assert names_on(client.get(LIST, {"active": "on"})) == ["Alice Archer"]


def test_a_rating_with_no_game_for_a_year_is_marked_inactive(client, current_season, alice, bob):
    today = timezone.localdate()
    listed(paid_up(alice, current_season), "1500", 1500, last_played=today)
    listed(paid_up(bob, current_season), "1600", 1600, last_played=today - dt.timedelta(400))
    rows = client.get(LIST).context["table"].rows
    marked = {row.record.name: "inactive" in row.get_cell("rating") for row in rows}
    assert marked == {"Alice Archer": False, "Bob Brown": True}


def test_the_inactive_mark_stays_out_of_the_csv(client, current_season, bob):
    last = timezone.localdate() - dt.timedelta(400)
    listed(paid_up(bob, current_season), "1600", 1600, last_played=last)
    csv = client.get(LIST, {"_export": "csv"}).getvalue().decode()
    assert "inactive" not in csv and ",1600," in csv


# -- download ---------------------------------------------------------------------------


def test_the_list_downloads_as_csv_with_every_row_and_the_filters_applied(
    client, current_season, alice, bob, carol
):
    for member, rating in ((alice, 1500), (bob, 1600), (carol, 1450)):
        listed(paid_up(member, current_season), str(rating), rating)
    response = client.get(LIST, {"region": "North", "_export": "csv"})
    assert response["Content-Type"].startswith("text/csv")
    lines = response.getvalue().decode().splitlines()
    assert lines[0].startswith("rank,id,name,rating,marker,games")
    assert lines[1].startswith("2,A1,Alice Archer,1500,,20")
    assert lines[2].startswith("3,C3,Carol Chen,1450,,20")
    assert len(lines) == 3


# -- queries ----------------------------------------------------------------------------


@pytest.mark.parametrize("size", [5, 50])
def test_the_list_takes_the_same_few_queries_however_many_members(
    client, current_season, rated_event, django_assert_max_num_queries, size
):
    members = [paid_up(MemberFactory(region=f"R{n % 3}"), current_season) for n in range(size)]
    # Played this week, so active under the filter whatever day the test runs (the
    # events' day of 2026 was more than a year gone from March 2027).
    rated_event(
        [(1, members[i], members[i + 1], Game.Result.DRAW) for i in range(0, size - 1, 2)],
        date=timezone.localdate() - dt.timedelta(days=1),
    )
    # 7, and the public pages' version; a filtered page reads its rows with its count,
    # and places them in one query after asking how far down the ratings they reach.
    # The same on both databases: no longer a PostgreSQL-only way of placing a page.
    with django_assert_max_num_queries(9):
        response = client.get(LIST, {"active": "on"})
    assert len(response.context["table"].page.object_list) == min(size - size % 2, 50)


@pytest.mark.parametrize("system_id", ["acf-1993", "ecf-2020", "st-charles", "nscl"])
def test_a_small_history_rated_under_each_system_shows_that_systems_own_figures(
    client, rated_event, current_season, alice, bob, system_id
):
    paid_up(alice, current_season)
    paid_up(bob, current_season)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)], date=dt.date(2026, 3, 2))
    services.rating_system_set(system_id=system_id)
    response = client.get(LIST)
    shown = {
        m.name: m.rating_state.display for m in response.context["table"].page.object_list.data
    }
    stored = dict(RatingState.objects.values_list("member__name", "display"))
    assert shown == stored  # exactly the engine's published figure
    for display in shown.values():
        assert f">{display or '—'}<" in response.content.decode()


def test_the_csv_neutralises_a_name_a_spreadsheet_would_run_as_a_formula(client, current_season):
    listed(paid_up(MemberFactory(name="=HYPERLINK(1)"), current_season), "1500", 1500)
    listed(paid_up(MemberFactory(name="@SUM(A1)"), current_season), "1400", 1400)
    lines = b"".join(client.get(LIST, {"_export": "csv"}).streaming_content).decode().splitlines()
    assert ",'=HYPERLINK(1),1500," in lines[1]
    assert ",'@SUM(A1),1400," in lines[2]


# -- the figures add up -------------------------------------------------------------------


def test_the_last_change_is_the_difference_of_the_figures_its_event_shows(
    client, rated_event, current_season, alice, bob
):
    """1400.4 shows as 1400; a win over 1500 (K 16 after 30 games) takes it to 1410.63,
    shown as 1411: the list says +11 as the event's report does, not the unrounded
    change's +10."""
    Member.objects.filter(pk=alice.pk).update(initial_rating=1400.4, initial_games=40)
    paid_up(alice, current_season)
    services.ratings_rerate(services.RerateRequest(reason="a rating brought in"))
    event = rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    change = RatingChange.objects.get(member=alice, event=event)
    assert (change.display_before, change.display_after) == ("1400", "1411")
    assert round(change.after - change.before) == 10  # what the list used to say

    row = next(m for m in client.get(LIST).context["table"].page.object_list.data if m == alice)
    assert row.rating_state.last_change == 11
    assert ">+11<" in client.get(LIST).content.decode()


def test_migration_0020_stores_each_members_last_change_as_their_event_shows_it(
    rated_event, current_season, alice, bob
):
    migration = import_module("ratings.migrations.0020_last_change_as_shown")
    Member.objects.filter(pk=alice.pk).update(initial_rating=1400.4, initial_games=40)
    services.ratings_rerate(services.RerateRequest(reason="a rating brought in"))
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    RatingState.objects.filter(member=alice).update(last_change=10.23)  # as stored before
    migration.last_changes_as_shown(django_apps, None)
    assert RatingState.objects.get(member=alice).last_change == 11  # "1400" → "1411"
    assert RatingState.objects.get(member=bob).last_change == -20  # K 32: "1500" → "1480"
