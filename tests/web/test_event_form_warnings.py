"""The new-event form: a one-night event needs no end date, the club's usual kind comes
first, a duplicate name or a date to come is asked about before saving; an incomplete
round robin warns on the rating page."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings.models import Event, Game

from ..factories import EventFactory, GameFactory

pytestmark = pytest.mark.django_db


def new_event(client, **fields):  # type: ignore[no-untyped-def]
    data = {
        "name": "Club night",
        "kind": Event.Kind.CLUB_NIGHT,
        "start_date": "2026-03-03",
        "rounds": "3",
        "rated": "on",
    }
    data.update(fields)
    return client.post(reverse("ratings:officer-event-add"), data)


def test_a_one_night_event_ends_the_day_it_starts(officer_client):
    response = new_event(officer_client)
    assert response.status_code == 302
    event = Event.objects.get()
    assert event.end_date == event.start_date == dt.date(2026, 3, 3)


def test_the_new_form_starts_on_the_clubs_usual_kind(officer_client):
    EventFactory(kind=Event.Kind.ROUND_ROBIN)
    EventFactory(kind=Event.Kind.ROUND_ROBIN)
    EventFactory(kind=Event.Kind.SWISS)
    form = officer_client.get(reverse("ratings:officer-event-add")).context["form"]
    assert form["kind"].value() == Event.Kind.ROUND_ROBIN


def test_a_duplicate_name_is_asked_about_before_saving(officer_client):
    EventFactory(name="Club night")
    page = new_event(officer_client).content.decode()
    assert "An event called “Club night” is already recorded" in page
    assert Event.objects.count() == 1
    assert new_event(officer_client, confirm="1").status_code == 302
    assert Event.objects.count() == 2


def test_a_date_to_come_is_asked_about_before_saving(officer_client):
    later = timezone.localdate() + dt.timedelta(days=20)
    page = new_event(officer_client, start_date=str(later)).content.decode()
    assert "a date still to come" in page
    assert not Event.objects.exists()


def test_rating_a_round_robin_with_a_pairing_unplayed_warns(officer_client, alice, bob, carol):
    event = EventFactory(kind=Event.Kind.ROUND_ROBIN, rounds=3)
    for member in (alice, bob, carol):
        event.entries.create(member=member)
    GameFactory(event=event, round=1, white=alice, black=bob, result=Game.Result.DRAW)
    GameFactory(event=event, round=2, white=bob, black=carol, result=Game.Result.DRAW)
    page = officer_client.get(reverse("ratings:officer-event-complete", args=[event.pk]))
    assert page.context["unplayed_pairs"] == [("Alice Archer", "Carol Chen")]
    assert "This round robin is not complete" in page.content.decode()
