"""A member's page: their rating, its history, every rated game, the events they played."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ratings.models import ClubSettings, Game
from ratings.presentation.links import member_page_urls

from ..factories import EventFactory, MemberFactory, paid_up, rating_state

pytestmark = pytest.mark.django_db


def page_of(client, member):
    return client.get(reverse("ratings:member", args=[member.member_number]))


@pytest.fixture
def alices_season(rated_event, current_season, alice, bob, carol):
    """Alice, paid up, beats Bob then draws with Carol (both paid up) over two events."""
    paid_up(bob, current_season)
    paid_up(carol, current_season)
    paid_up(alice, current_season)
    rated_event(
        [(1, alice, bob, Game.Result.WHITE_WIN)], name="March night", date=dt.date(2026, 3, 2)
    )
    rated_event(
        [(1, carol, alice, Game.Result.DRAW)], name="April night", date=dt.date(2026, 4, 6)
    )
    return alice


def test_the_page_shows_the_current_rating_and_its_status(client, alices_season):
    # Her last game within the year whatever day the test runs (her nights of 2026 are
    # more than a year gone from April 2027, when "; inactive: ..." follows the status).
    rating_state(alices_season, last_played=timezone.localdate())
    response = page_of(client, alices_season)
    text = response.content.decode()
    assert response.context["state"].display in text
    assert response.context["status"] == "rated"


def test_the_history_chart_is_inline_svg_with_a_title_axes_and_a_point_per_event(
    client, alices_season
):
    chart = str(page_of(client, alices_season).context["chart"])
    assert chart.startswith("<svg")
    assert '<title id="chart-title">Rating history of Alice Archer</title>' in chart
    assert ">Rating</text>" in chart and ">Date</text>" in chart
    assert chart.count('<circle class="point"') == 3  # the start, then after each event


def test_every_rated_game_shows_the_opponent_result_and_change(client, alices_season):
    games = page_of(client, alices_season).context["games"]
    assert [(g["opponent"].name, g["score"]) for g in games] == [
        ("Carol Chen", 0.5),
        ("Bob Brown", 1.0),
    ]
    assert games[1]["change"] == 16.0
    assert games[1]["opponent_rating"] == 1500.0


def test_the_events_played_are_listed_newest_first(client, alices_season):
    events = page_of(client, alices_season).context["events"]
    assert [event.name for event, change in events] == ["April night", "March night"]


def test_events_of_one_day_are_listed_by_their_start_then_the_later_entered_first(
    client, rated_event, current_season, alice, bob
):
    """Newest first by the day each ended, then the day each started, then the later
    entered: rated or not (an event not rated yet has no rating change to sort by)."""
    paid_up(alice, current_season)
    last_day = dt.date(2026, 3, 8)
    weekend = EventFactory(name="Weekend", start_date=dt.date(2026, 3, 6), end_date=last_day)
    april = EventFactory(name="April night", start_date=dt.date(2026, 4, 1))
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)], name="Sunday rapid", date=last_day)
    blitz = EventFactory(name="Sunday blitz", start_date=last_day)  # entered last
    for event in (weekend, april, blitz):
        event.entries.create(member=alice)
    events = page_of(client, alice).context["events"]
    assert [event.name for event, change in events] == [
        "April night",
        "Sunday blitz",
        "Sunday rapid",
        "Weekend",
    ]


def test_the_page_prints_none_of_its_templates_comments(client, alices_season):
    # The chart's comment once ran over two lines, which Django's {# #} does not take:
    # the page printed it beside the chart.
    assert "{#" not in page_of(client, alices_season).content.decode()


@pytest.mark.parametrize("number", ["M0042", "a.b-c_d", "Zoë", "日本", "x y", "%41", "ß1"])
def test_an_opponents_link_is_the_url_reverse_gives_their_page(number):
    assert member_page_urls()(number) == reverse("ratings:member", args=[number])


def test_a_member_in_arrears_shows_no_rating_to_the_public(client, rated_event, alice, bob):
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)], name="March night")
    response = page_of(client, alice)
    text = response.content.decode()
    assert "Rating not published" in text
    assert "1516" not in text
    assert "<svg" not in text
    assert "March night" in text  # name and events only


def test_a_guest_shows_no_rating_to_the_public(client, rated_event, current_season, alice):
    guest = paid_up(MemberFactory(name="Gus Guest", is_guest=True), current_season)
    rated_event([(1, guest, alice, Game.Result.WHITE_WIN)])
    assert "Rating not published" in page_of(client, guest).content.decode()


def test_an_officer_sees_a_hidden_rating_marked_as_not_published(
    officer_client, rated_event, alice, bob
):
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    text = page_of(officer_client, alice).content.decode()
    assert "1516" in text
    assert "not published" in text
    assert "Officers only" in text


def test_an_unpublished_opponents_rating_is_not_shown_on_a_published_members_page(
    client, rated_event, current_season, alice, bob
):
    paid_up(alice, current_season)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    (game,) = page_of(client, alice).context["games"]
    assert game["opponent"] == bob
    assert game["opponent_rating"] is None


def test_a_published_members_change_is_shown_against_a_hidden_opponent_but_not_the_expected(
    client, rated_event, current_season, alice, bob
):
    # Alice's change is her own, as on the event's report; Bob's rating is withheld, and
    # with it the expected score against him, which gives it back.
    paid_up(alice, current_season)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    response = page_of(client, alice)
    (game,) = response.context["games"]
    assert (game["expected"], game["change"], game["hidden"]) == (None, 16.0, True)
    assert game["opponent_rating"] is None


def test_the_page_says_why_an_opponents_rating_is_missing(
    client, rated_event, current_season, alice, bob
):
    paid_up(alice, current_season)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    response = page_of(client, alice)
    assert response.context["withheld"]
    assert "that opponent's rating is not shown" in response.content.decode()


def test_no_note_when_every_games_figures_are_shown(client, alices_season):
    assert not page_of(client, alices_season).context["withheld"]


def test_an_officer_sees_the_expected_score_and_change_against_a_hidden_opponent(
    officer_client, rated_event, current_season, alice, bob
):
    paid_up(alice, current_season)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    (game,) = page_of(officer_client, alice).context["games"]
    assert (game["expected"], game["change"]) == (0.5, 16.0)


def test_a_published_opponents_expected_score_and_change_are_shown(client, alices_season):
    games = page_of(client, alices_season).context["games"]
    assert [(g["expected"], g["change"]) for g in games][1] == (0.5, 16.0)


PRIVATE_WORDS = ("arrears", "unpaid", "paid up", "subscription", "financial", "guest")


def test_a_member_in_arrears_page_says_nothing_public_of_their_membership(
    client, rated_event, alice, bob
):
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    text = page_of(client, bob).content.decode()
    assert "Rating not published" in text
    assert "1484" not in text
    for word in PRIVATE_WORDS:
        assert word not in text.lower(), word


def test_a_guests_page_says_nothing_public_of_their_membership(
    client, rated_event, current_season, alice
):
    guest = paid_up(MemberFactory(name="Gus Visitor", is_guest=True), current_season)
    rated_event([(1, guest, alice, Game.Result.WHITE_WIN)])
    text = page_of(client, guest).content.decode()
    assert "Rating not published" in text
    for word in PRIVATE_WORDS:
        assert word not in text.lower(), word


def test_an_officer_still_sees_why_a_rating_is_not_published(
    officer_client, rated_event, current_season, alice, bob
):
    guest = paid_up(MemberFactory(name="Gus Visitor", is_guest=True), current_season)
    rated_event([(1, alice, bob, Game.Result.WHITE_WIN), (2, guest, alice, "1-0")])
    assert "in arrears" in page_of(officer_client, bob).content.decode()
    text = page_of(officer_client, guest).content.decode()
    assert "a guest" in text and "· <span" in text


def test_an_event_page_says_nothing_public_of_anyones_membership(client, rated_event, alice, bob):
    event = rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])
    text = client.get(event.get_absolute_url()).content.decode().lower()
    for word in PRIVATE_WORDS:
        assert word not in text, word


@pytest.mark.parametrize(
    ("system", "display", "status"),
    [
        ("acf-1993", "1486p", "provisional"),
        ("acf-1993", "1486", "confirmed"),
        ("ecf-2020", "1540P", "partial"),
        ("ecf-2020", "1540", "full"),
        ("st-charles", "412*", "not yet official"),
        ("st-charles", "412", "official"),
        ("nz-club-elo", "1516", "rated"),
    ],
)
def test_the_status_is_the_ratings_status_in_the_systems_own_terms(
    client, current_season, alice, system, display, status
):
    ClubSettings.objects.filter(pk=ClubSettings.load().pk).update(rating_system=system)
    paid_up(alice, current_season)
    rating_state(alice, display=display, rating=1400, games=3)
    response = page_of(client, alice)
    assert response.context["status"] == status
    assert f">{status}</div>" in response.content.decode()


def test_a_long_unplayed_rating_is_marked_inactive(client, current_season, alice):
    paid_up(alice, current_season)
    long_ago = timezone.localdate() - dt.timedelta(days=400)
    rating_state(alice, display="1516", rating=1516, games=3, last_played=long_ago)
    status = page_of(client, alice).context["status"]
    assert status.startswith("rated; inactive: last played ")


@pytest.mark.parametrize(
    ("who", "membership"), [("paid", "financial"), ("unpaid", "in arrears"), ("guest", "guest")]
)
def test_an_officer_sees_the_members_membership_the_public_does_not(
    officer_client, rated_event, current_season, bob, who, membership
):
    member = MemberFactory(name="Mo Member", is_guest=who == "guest")
    if who == "paid":
        paid_up(member, current_season)
    rated_event([(1, member, bob, Game.Result.WHITE_WIN)])
    assert page_of(officer_client, member).context["membership"] == membership
    assert page_of(Client(), member).context["membership"] == ""


def test_a_merged_record_leads_to_the_member_it_was_merged_into(client, alice):
    duplicate = MemberFactory(member_number="A1-old", merged_into=alice)
    response = page_of(client, duplicate)
    assert response.status_code == 302
    assert response["Location"] == alice.get_absolute_url()


@pytest.mark.parametrize("size", [5, 50])
def test_the_page_takes_the_same_few_queries_however_many_opponents_and_events(
    client, rated_event, current_season, alice, django_assert_max_num_queries, size
):
    paid_up(alice, current_season)
    opponents = [paid_up(MemberFactory(), current_season) for _ in range(size)]
    for n, opponent in enumerate(opponents):
        rated_event(
            [(1, alice, opponent, Game.Result.DRAW)],
            name=f"Night {n}",
            date=dt.date(2026, 1, 1) + dt.timedelta(days=n),
        )
    # ... and one more for the member's ratings on the published lists, one for the
    # lists the club keeps, and two for the game lines a per-event system works out again
    # (the page's events' games, and their players with their states before each).
    with django_assert_max_num_queries(11):  # 10, and the public pages' version
        response = page_of(client, alice)
    assert len(response.context["games"]) == min(size, 25)  # 25 events a page


def test_the_public_reads_the_public_template_and_an_officer_the_officers(
    client, officer, rated_event, current_season, alice
):
    """The two pages are apart: the public template carries nothing meant for officers."""
    guest = paid_up(MemberFactory(name="Gus Guest", is_guest=True), current_season)
    rated_event([(1, guest, alice, Game.Result.WHITE_WIN)])
    public = page_of(client, guest)
    assert public.templates[0].name == "ratings/public/member.html"
    assert "officer-only" not in public.content.decode()
    client.force_login(officer)
    officers = page_of(client, guest)
    assert officers.templates[0].name == "ratings/officer/member.html"
    assert "officer-only" in officers.content.decode()
