"""The admin's confirmation pages say how many events the change re-rates, before it is made."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_nights(rated_event, alice, bob, carol):  # type: ignore[no-untyped-def]
    return [
        rated_event([(1, alice, bob, "1-0")], date=dt.date(2026, 3, 2), name="First night"),
        rated_event([(1, bob, carol, "0-1")], date=dt.date(2026, 3, 9), name="Second night"),
        rated_event([(1, carol, alice, "1-0")], date=dt.date(2026, 3, 16), name="Third night"),
    ]


def _delete_selected(client, model, objects):  # type: ignore[no-untyped-def]
    return client.post(
        reverse(f"admin:ratings_{model}_changelist"),
        {"action": "delete_selected", "_selected_action": [o.pk for o in objects]},
    )


def test_deleting_a_game_says_how_many_events_it_re_rates(admin_client, three_nights):
    game = three_nights[1].games.get()
    response = admin_client.get(reverse("admin:ratings_game_delete", args=[game.pk]))
    assert b"Deleting this re-rates <strong>2 events</strong>" in response.content


def test_deleting_selected_games_counts_from_the_earliest(admin_client, three_nights):
    games = [three_nights[0].games.get(), three_nights[2].games.get()]
    response = _delete_selected(admin_client, "game", games)
    assert response.status_code == 200
    assert b"Deleting these re-rates <strong>3 events</strong>" in response.content


def test_deleting_selected_events_does_not_count_the_events_that_go(admin_client, three_nights):
    response = _delete_selected(admin_client, "event", [three_nights[1]])
    assert b"Deleting these re-rates <strong>1 event</strong>" in response.content


def test_deleting_an_unrated_event_re_rates_nothing(admin_client, three_nights):
    from ..factories import EventFactory

    planned = EventFactory(name="Next season's opener", start_date=dt.date(2026, 9, 1))
    response = admin_client.get(reverse("admin:ratings_event_delete", args=[planned.pk]))
    assert b"Deleting this re-rates no events" in response.content


def test_deleting_after_the_confirmation_still_deletes(admin_client, three_nights):
    game = three_nights[1].games.get()
    response = admin_client.post(
        reverse("admin:ratings_game_delete", args=[game.pk]), {"post": "yes"}
    )
    assert response.status_code == 302
    assert not three_nights[1].games.exists()
