"""A tournament of any size can be corrected in the admin: big inlines give way to a link."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from ratings.models import Event, RatingRun

from ..factories import EventFactory, MemberFactory
from .test_rerate import admin_form, full_rerate, ratings_now

pytestmark = pytest.mark.django_db


@pytest.fixture
def big_swiss(rated_event, alice, bob):  # type: ignore[no-untyped-def]
    """150 games among 30 players, alice and bob among them, after a club night of theirs."""
    rated_event([(1, alice, bob, "1-0")], date=dt.date(2026, 2, 2))
    players = [alice, bob, *(MemberFactory(name=f"Swiss player {n}") for n in range(28))]
    games = [
        (i // 30 + 1, players[i % 30], players[(i % 30 + i // 30 + 1) % 30], "1-0")
        for i in range(150)
    ]
    return rated_event(games, date=dt.date(2026, 3, 2), name="Big Swiss")


def _change_url(event: Event) -> str:
    return reverse("admin:ratings_event_change", args=[event.pk])


def _inline_models(response) -> set[str]:  # type: ignore[no-untyped-def]
    return {i.formset.model._meta.model_name for i in response.context["inline_admin_formsets"]}


def test_a_big_event_s_change_page_posts_well_under_a_thousand_fields(admin_client, big_swiss):
    response = admin_client.get(_change_url(big_swiss))
    assert response.status_code == 200
    assert len(admin_form(response)) < 1000


def test_a_big_event_s_games_are_linked_to_not_inlined(admin_client, big_swiss):
    response = admin_client.get(_change_url(big_swiss))
    assert "game" not in _inline_models(response)
    page = response.content.decode()
    assert "150 games: too many to edit on this page" in page
    assert f"/admin/ratings/game/?event__id__exact={big_swiss.pk}" in page


def test_the_link_lists_the_event_s_games(admin_client, big_swiss):
    response = admin_client.get(
        reverse("admin:ratings_game_changelist"), {"event__id__exact": big_swiss.pk}
    )
    assert response.status_code == 200
    assert response.context["cl"].result_count == 150


def test_moving_a_big_event_saves_and_re_rates(admin_client, big_swiss):
    url = _change_url(big_swiss)
    data = admin_form(admin_client.get(url))
    before = ratings_now()
    data.update(start_date="2026-01-05", end_date="2026-01-05")
    response = admin_client.post(url, data)
    assert response.status_code == 302
    big_swiss.refresh_from_db()
    assert big_swiss.end_date == dt.date(2026, 1, 5)
    assert RatingRun.objects.latest("pk").events_rated == 2
    assert ratings_now() != before
    assert ratings_now() == full_rerate()


def test_renaming_a_big_event_saves(admin_client, big_swiss):
    url = _change_url(big_swiss)
    data = admin_form(admin_client.get(url))
    data.update(name="Big Swiss 2026")
    assert admin_client.post(url, data).status_code == 302
    assert Event.objects.get(pk=big_swiss.pk).name == "Big Swiss 2026"


def test_a_club_night_keeps_its_games_and_entries_on_its_page(
    admin_client, rated_event, alice, bob
):
    event = rated_event([(1, alice, bob, "1-0")])
    response = admin_client.get(_change_url(event))
    assert _inline_models(response) == {"game", "entry"}
    assert "1 game, below" in response.content.decode()


def test_an_event_with_hundreds_of_entries_links_them_too(admin_client):
    event = EventFactory(name="Open")
    for n in range(250):
        event.entries.create(member=MemberFactory(name=f"Open player {n}"))
    response = admin_client.get(_change_url(event))
    assert "entry" not in _inline_models(response)
    assert len(admin_form(response)) < 1000
    page = response.content.decode()
    assert "250 entries: too many to edit on this page" in page
    assert f"/admin/ratings/entry/?event__id__exact={event.pk}" in page
