"""The club's calendar (``/events.ics``): fixtures entered ahead with their date, place,
kind and time control; a finished event's entry links to its report; a feed per rating
list; the events page links to them. The feed is read back with the icalendar package,
as a calendar program would read it."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar

from ratings import services
from ratings.models import Event, RatingList

from ..factories import EventFactory

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate


def feed(client, query: str = "") -> Calendar:
    response = client.get(reverse("ratings:events-calendar") + query)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return Calendar.from_ical(response.content)


def entries(calendar: Calendar) -> dict[str, object]:
    return {str(entry["summary"]): entry for entry in calendar.walk("VEVENT")}


def test_a_fixture_entered_ahead_is_in_the_calendar_with_its_place_and_time_control(
    officer_client, client
):
    start = TODAY() + dt.timedelta(days=40)
    officer_client.post(
        reverse("ratings:officer-event-add"),
        {
            "name": "Spring weekender",
            "kind": Event.Kind.SWISS,
            "start_date": start.isoformat(),
            "end_date": (start + dt.timedelta(days=1)).isoformat(),
            "rounds": "5",
            "place": "St Mary's Hall, Riverside",
            "time_control": "60+30",
            "time_class": "standard",
            "rated": "on",
            "confirm": "1",  # a date to come is asked about first
        },
    )
    (fixture,) = entries(feed(client)).values()
    assert fixture["dtstart"].dt == start
    # An all-day event ends the day after its last (RFC 5545): two days, Saturday and Sunday.
    assert fixture["dtend"].dt == start + dt.timedelta(days=2)
    assert str(fixture["location"]) == "St Mary's Hall, Riverside"
    assert "Swiss, 5 rounds, 60+30" in str(fixture["description"])
    event = Event.objects.get(name="Spring weekender")
    assert str(fixture["url"]).endswith(reverse("ratings:event", args=[event.pk]))


def test_a_finished_events_entry_links_to_its_report(client, rated_event, alice, bob):
    night = rated_event([(1, alice, bob, "1-0")], date=TODAY() - dt.timedelta(days=10))
    entry = entries(feed(client))["Club night"]
    report = reverse("ratings:event-report", args=[night.pk])
    assert str(entry["url"]) == f"http://testserver{report}"
    assert f"Rating report: http://testserver{report}" in str(entry["description"])


def test_an_entry_keeps_its_uid_so_a_calendar_program_updates_it(client):
    fixture = EventFactory(name="Club night", start_date=TODAY() + dt.timedelta(days=7))
    first = entries(feed(client))["Club night"]
    fixture.place = "The library"
    fixture.save()
    second = entries(feed(client))["Club night"]
    assert str(first["uid"]) == str(second["uid"]) == f"event-{fixture.pk}@testserver"
    assert str(second["location"]) == "The library"


def test_events_older_than_a_year_are_left_out(client):
    EventFactory(name="Long ago", start_date=TODAY() - dt.timedelta(days=400))
    EventFactory(name="Next week", start_date=TODAY() + dt.timedelta(days=7))
    assert list(entries(feed(client))) == ["Next week"]


def test_each_rating_list_has_a_feed_of_its_own_linked_from_the_events_page(client):
    services.rating_list_set(rating_list=RatingList(time_class="rapid", kept=RatingList.Kept.OWN))
    soon = TODAY() + dt.timedelta(days=7)
    EventFactory(name="Rapidplay", time_class="rapid", start_date=soon)
    EventFactory(name="Club championship", time_class="standard", start_date=soon)

    assert sorted(entries(feed(client))) == ["Club championship", "Rapidplay"]
    rapid = feed(client, "?list=rapid")
    assert list(entries(rapid)) == ["Rapidplay"]
    assert str(rapid["x-wr-calname"]).endswith("Rapid list")
    page = client.get(reverse("ratings:events")).content.decode()
    calendar = reverse("ratings:events-calendar")
    assert f'href="{calendar}"' in page
    assert f'href="{calendar}?list=rapid"' in page


def test_a_fixture_reads_as_to_be_played_on_the_events_page(client):
    EventFactory(name="Next week", start_date=TODAY() + dt.timedelta(days=7))
    page = client.get(reverse("ratings:events")).content.decode()
    assert "to be played" in page
