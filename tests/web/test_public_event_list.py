"""A public page of every event: searched by name, paged, its queries fixed."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from ratings.models import ClubSettings

from ..factories import EventFactory

pytestmark = pytest.mark.django_db


def names(response):  # type: ignore[no-untyped-def]
    return [e.name for e in response.context["events"]]


def test_every_event_is_listed_newest_first(client):
    for day in (1, 2, 3, 4, 5, 6, 7):
        EventFactory(name=f"Night {day}", start_date=dt.date(2026, 3, day))
    response = client.get(reverse("ratings:events"))
    assert names(response) == [f"Night {d}" for d in (7, 6, 5, 4, 3, 2, 1)]


def test_events_are_searched_by_name(client):
    EventFactory(name="Club championship")
    EventFactory(name="Rapid night")
    response = client.get(reverse("ratings:events"), {"q": "champ"})
    assert names(response) == ["Club championship"]


def test_the_pages_keep_the_search(client):
    for n in range(55):
        EventFactory(name=f"Night {n}")
    page = client.get(reverse("ratings:events"), {"q": "night"}).content.decode()
    assert 'href="?q=night&amp;page=2"' in page or 'href="?q=night&page=2"' in page


def test_the_list_reads_a_fixed_number_of_queries(client, django_assert_max_num_queries):
    for n in range(60):
        EventFactory(name=f"Night {n}")
    ClubSettings.load()  # made on a club's first page: the page's own queries are counted
    # 8, and the public pages' version the page is kept under.
    with django_assert_max_num_queries(9):
        client.get(reverse("ratings:events"))
