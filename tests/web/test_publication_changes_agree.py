"""The changes between two publications agree with what happened between them: a system
switched or its settings changed is said, the games column counts the rated games played
between the lists (never negative), and two lists of one day are told apart."""

from __future__ import annotations

import datetime as dt
import re
from html import unescape

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings import services
from ratings.models import Game

from ..factories import brought_in

pytestmark = pytest.mark.django_db

WIN = Game.Result.WHITE_WIN
MARCH = timezone.make_aware(dt.datetime(2026, 3, 5, 12, 0))
APRIL = timezone.make_aware(dt.datetime(2026, 4, 5, 12, 0))


def changes_page(client, publication):
    response = client.get(reverse("ratings:publication-changes", args=[publication.slug]))
    assert response.status_code == 200
    return response


def text_of(response) -> str:
    return unescape(re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.fixture
def alice_and_bob(seasons_2026_and_today, alice, bob):
    """Alice (1600) and Bob (1500), each brought in from 30 games, paid up."""
    brought_in(alice, 1600, *seasons_2026_and_today)
    brought_in(bob, 1500, *seasons_2026_and_today)
    return alice, bob


@pytest.fixture
def across_a_switch(alice_and_bob, rated_event):
    """Nz-club-elo: Alice beats Bob on 2 Mar; the list is published on 5 Mar. Alice
    beats Bob again on 20 Mar; the club switches to st-charles; published on 5 Apr."""
    alice, bob = alice_and_bob
    rated_event([(1, alice, bob, WIN)], name="March night", date=dt.date(2026, 3, 2))
    march = services.list_publish(now=MARCH)
    rated_event([(1, alice, bob, WIN)], name="Late March night", date=dt.date(2026, 3, 20))
    services.rating_system_set(system_id="st-charles")
    april = services.list_publish(now=APRIL)
    return march, april


def test_the_changes_across_a_system_switch_say_the_system_changed(client, across_a_switch):
    _march, april = across_a_switch
    response = changes_page(client, april)
    assert len(response.context["system_changes"]) == 1
    note = response.context["system_changes"][0]
    assert "Club Elo (NZ club rules)" in note and "St. Charles" in note
    assert "changed its rating system" in text_of(response)


def test_the_games_between_two_lists_are_the_rated_games_played_between_them(
    client, across_a_switch, alice, bob
):
    """One game each between 5 Mar and 5 Apr, whatever the two systems count on their lists."""
    _march, april = across_a_switch
    changes = changes_page(client, april).context["changes"]
    moved = {e.member: e.games_between for e in changes.rises + changes.falls}
    assert moved == {alice: 1, bob: 1}


def test_no_games_count_between_two_lists_is_negative(client, across_a_switch):
    _march, april = across_a_switch
    page = changes_page(client, april)
    text = text_of(page)
    assert not re.search(r"[−-]\s*\d+\s*$", text.split("Biggest rises")[1].split("Improvers")[0])
    changes = page.context["changes"]
    assert all(e.games_between >= 0 for e in changes.rises + changes.falls + changes.improvers)


def test_the_games_between_leave_out_the_games_the_older_list_counted_already(
    client, alice_and_bob, rated_event, dave, seasons_2026_and_today
):
    alice, bob = alice_and_bob
    brought_in(dave, 1550, *seasons_2026_and_today)
    rated_event([(1, alice, bob, WIN)], name="March night", date=dt.date(2026, 3, 2))
    march = services.list_publish(now=MARCH)
    rated_event([(1, alice, dave, WIN)], name="Late March night", date=dt.date(2026, 3, 20))
    april = services.list_publish(now=APRIL)
    changes = changes_page(client, april).context["changes"]
    between = {e.member.name: e.games_between for e in changes.rises + changes.falls}
    # Alice's 2 March game was on the March list already; Bob played nothing since.
    assert between == {"Alice Archer": 1, "Dave Dunn": 1}
    assert march.published_at < april.published_at


def test_the_changes_say_when_the_systems_settings_changed(client, alice_and_bob):
    march = services.list_publish(now=MARCH)
    services.rating_system_set(system_id="nz-club-elo", params={"k_established": 20.0})
    april = services.list_publish(now=APRIL)
    notes = changes_page(client, april).context["system_changes"]
    assert len(notes) == 1
    assert "k_established: 16.0 → 20.0" in notes[0]
    assert march.params["k_established"] == 16.0


def test_no_word_of_a_change_of_system_where_there_was_none(client, alice_and_bob):
    services.list_publish(now=MARCH)
    april = services.list_publish(now=APRIL)
    response = changes_page(client, april)
    assert response.context["system_changes"] == []
    assert "changed its rating system" not in text_of(response)


def test_two_lists_of_one_day_are_named_by_their_time(client, alice_and_bob):
    morning = timezone.make_aware(dt.datetime(2026, 11, 26, 10, 0))
    services.list_publish(now=morning)
    afternoon = services.list_publish(now=morning + dt.timedelta(hours=4, minutes=30))
    response = changes_page(client, afternoon)
    heading = re.search(r"<h1[^>]*>(.*?)</h1>", response.content.decode()).group(1)
    assert unescape(heading) == "What changed from 26 Nov 2026, 10:00 to 26 Nov 2026, 14:30"


def test_two_lists_of_one_minute_are_named_by_their_number_that_day(client, alice_and_bob):
    noon = timezone.make_aware(dt.datetime(2026, 11, 26, 12, 0))
    services.list_publish(now=noon)
    second = services.list_publish(now=noon + dt.timedelta(seconds=20))
    response = changes_page(client, second)
    assert (response.context["older_name"], response.context["newer_name"]) == (
        "26 Nov 2026, the 1st",
        "26 Nov 2026, the 2nd",
    )


def test_lists_of_different_days_are_named_by_their_dates(client, alice_and_bob):
    services.list_publish(now=MARCH)
    april = services.list_publish(now=APRIL)
    response = changes_page(client, april)
    assert (response.context["older_name"], response.context["newer_name"]) == (
        "5 Mar 2026",
        "5 Apr 2026",
    )
