"""The audit trail: every correction is kept with who made it, when, and before and after."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import ClubSettings, Event, Game, Member, Subscription

from ..factories import SubscriptionFactory
from .test_rerate import admin_form

pytestmark = pytest.mark.django_db


def _edit(client, model, obj, **changes):  # type: ignore[no-untyped-def]
    url = reverse(f"admin:ratings_{model._meta.model_name}_change", args=[obj.pk])
    data = admin_form(client.get(url))
    data.update(changes)
    response = client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    return reverse(f"admin:ratings_{model._meta.model_name}_history", args=[obj.pk])


def test_a_member_corrected_in_the_admin_is_recorded_with_its_author(
    admin_client, admin_user, alice
):
    _edit(admin_client, Member, alice, name="Alice Archer-Smith")
    record = alice.history.latest()
    assert record.history_user == admin_user
    assert record.history_type == "~"
    change = record.diff_against(record.prev_record).changes[0]
    assert (change.field, change.old, change.new) == ("name", "Alice Archer", "Alice Archer-Smith")


def test_the_history_page_shows_each_change_before_and_after(admin_client, admin_user, alice):
    history = _edit(admin_client, Member, alice, name="Alice Archer-Smith")
    page = admin_client.get(history).content.decode()
    assert "Alice Archer" in page and "Alice Archer-Smith" in page
    assert "→" in page or "&rarr;" in page
    assert admin_user.username in page


def test_a_game_result_corrected_is_recorded_with_the_old_and_new_result(
    admin_client, admin_user, rated_event, alice, bob
):
    game = rated_event([(1, alice, bob, "1-0")]).games.get()
    history = _edit(admin_client, Game, game, result="0-1")
    record = game.history.latest()
    assert record.history_user == admin_user
    assert record.diff_against(record.prev_record).changed_fields == ["result"]
    assert "0-1" in admin_client.get(history).content.decode()


def test_games_corrected_on_their_event_page_are_recorded_too(
    admin_client, admin_user, rated_event, alice, bob
):
    event = rated_event([(1, alice, bob, "1-0")])
    _edit(admin_client, Event, event, **{"games-0-result": "1/2-1/2", "name": "Club night 1"})
    assert event.history.latest().history_user == admin_user
    assert event.games.get().history.latest().history_user == admin_user


def test_a_deleted_game_leaves_its_last_values_in_the_trail(
    admin_client, admin_user, rated_event, alice, bob
):
    game = rated_event([(1, alice, bob, "1-0")]).games.get()
    admin_client.post(reverse("admin:ratings_game_delete", args=[game.pk]), {"post": "yes"})
    record = Game.history.filter(id=game.pk).latest()
    assert record.history_type == "-"
    assert record.result == "1-0"
    assert record.history_user == admin_user


def test_a_subscription_change_is_recorded(admin_client, admin_user, alice, season):
    subscription = SubscriptionFactory(member=alice, season=season, amount="20.00")
    _edit(admin_client, Subscription, subscription, amount="25.00")
    assert subscription.history.latest().history_user == admin_user


def test_a_change_to_the_club_settings_is_recorded(admin_client, admin_user, club):
    _edit(admin_client, ClubSettings, club, name="Kagan Chess Club")
    record = ClubSettings.history.latest()
    assert record.name == "Kagan Chess Club"
    assert record.history_user == admin_user
