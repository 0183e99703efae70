"""The audit trail: every correction is kept with who made it, when, and before and after."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import ClubSettings, Entry, Event, Game, Member, Subscription

from ..factories import EventFactory, SubscriptionFactory
from .test_officer_import import confirm, upload
from .test_rerate import admin_form

pytestmark = pytest.mark.django_db


def _edit(client, model, obj, **changes):
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


# -- results entered on the officer's pages ---------------------------------------------


@pytest.fixture
def club_night(alice, bob, carol, dave):
    event = EventFactory(name="Club night", rounds=3)
    for member in (alice, bob, carol, dave):
        event.entries.create(member=member)
    return event


def _post_round(client, event, number, rows):
    data = {"g-TOTAL_FORMS": str(len(rows)), "g-INITIAL_FORMS": "0"}
    for i, (white, black, result) in enumerate(rows):
        data[f"g-{i}-white"] = white.pk
        data[f"g-{i}-black"] = black.pk if black else ""
        data[f"g-{i}-result"] = result
    return client.post(reverse("ratings:officer-round", args=[event.pk, number]), data)


def test_results_entered_on_a_round_page_are_recorded_with_their_author(
    officer_client, officer, club_night, alice, bob
):
    _post_round(officer_client, club_night, 1, [(alice, bob, "1-0")])
    record = club_night.games.get().history.get()
    assert (record.history_type, record.history_user, record.result) == ("+", officer, "1-0")


def test_a_result_corrected_on_a_round_page_is_recorded_before_and_after(
    officer_client, officer, club_night, alice, bob
):
    _post_round(officer_client, club_night, 1, [(alice, bob, "1-0")])
    game = club_night.games.get()
    _post_round(officer_client, club_night, 1, [(alice, bob, "0-1")])
    assert club_night.games.get().pk == game.pk
    record = game.history.latest()
    assert (record.history_type, record.history_user) == ("~", officer)
    changes = record.diff_against(record.prev_record).changes
    assert [(c.field, c.old, c.new) for c in changes] == [("result", "1-0", "0-1")]


def test_a_round_saved_again_as_it_was_adds_nothing_to_the_trail(
    officer_client, club_night, alice, bob
):
    _post_round(officer_client, club_night, 1, [(alice, bob, "1-0")])
    _post_round(officer_client, club_night, 1, [(alice, bob, "1-0")])
    assert list(Game.history.values_list("history_type", flat=True)) == ["+"]


def test_a_game_left_out_of_a_round_is_recorded_as_deleted_by_its_author(
    officer_client, officer, club_night, alice, bob, carol, dave
):
    _post_round(officer_client, club_night, 1, [(alice, bob, "1-0"), (carol, dave, "0-1")])
    _post_round(officer_client, club_night, 1, [(alice, bob, "1-0")])
    record = Game.history.filter(white=carol).latest()
    assert (record.history_type, record.history_user, record.result) == ("-", officer, "0-1")


def test_a_pasted_round_is_recorded_with_its_author(officer_client, officer, club_night):
    url = reverse("ratings:officer-round-paste", args=[club_night.pk])
    officer_client.post(url, {"round": 1, "text": "A1 - B2 1-0\nC3 bye", "save": "1"})
    records = Game.history.values_list("history_type", "history_user", "result")
    assert sorted(records) == [("+", officer.pk, "1-0"), ("+", officer.pk, "bye")]


def test_players_entered_in_an_event_are_recorded_with_their_author(
    officer_client, officer, alice, bob
):
    event = EventFactory()
    officer_client.post(
        reverse("ratings:officer-event-players", args=[event.pk]),
        {"entries-players": "A1, B2"},
    )
    records = Entry.history.filter(event=event)
    assert sorted(records.values_list("member", "history_type", "history_user")) == [
        (alice.pk, "+", officer.pk),
        (bob.pk, "+", officer.pk),
    ]


def test_an_imported_event_is_recorded_with_its_author(officer_client, officer):
    upload(officer_client)
    confirm(officer_client)
    event = Event.objects.get()
    assert event.history.get().history_user == officer
    games = Game.history.filter(event=event)
    assert games.count() == event.games.count()
    assert set(games.values_list("history_type", "history_user")) == {("+", officer.pk)}
    entries = Entry.history.filter(event=event)
    assert set(entries.values_list("history_type", "history_user")) == {("+", officer.pk)}
    assert entries.count() == event.entries.count()


def test_a_player_corrected_on_a_board_is_recorded_as_a_change_to_that_game(
    officer_client, officer, club_night, alice, bob, carol
):
    _post_round(officer_client, club_night, 1, [(alice, bob, "1-0")])
    game = club_night.games.get()
    _post_round(officer_client, club_night, 1, [(alice, carol, "1-0")])
    record = game.history.latest()
    assert (record.history_type, record.history_user) == ("~", officer)
    changes = record.diff_against(record.prev_record).changes
    assert [(c.field, c.old, c.new) for c in changes] == [("black", bob.pk, carol.pk)]


# -- reverting from the history needs the change permission --------------------------


def _revert_data(response) -> dict[str, object]:
    """The POST data of a history (revert) page as it stands: the old version's values."""
    data: dict[str, object] = {}
    form = response.context["adminform"].form
    for name in form.fields:
        value = form[name].value()
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        elif value is not None:
            data[name] = value
    return data


def test_history_revert_needs_change_permission_on_the_club_settings(client, admin_user, club):
    from ratings.services.accounts import officer_create

    first = club.history.earliest()
    club.rating_system = "st-charles"
    club.save()
    officer = officer_create(username="olga", password="correct-horse-42")
    client.force_login(officer)
    url = reverse("admin:ratings_clubsettings_simple_history", args=[club.pk, first.history_id])
    page = client.get(url)
    assert page.status_code == 200  # an officer may read the settings' history
    data = _revert_data(page)
    assert data["rating_system"] == first.rating_system

    response = client.post(url, data)

    assert response.status_code == 403
    assert ClubSettings.load().rating_system == "st-charles"
    assert club.history.count() == 2


def test_history_revert_needs_change_permission_for_every_model_with_history(
    client, rated_event, alice, bob, season
):
    from django.contrib import admin
    from django.contrib.auth.models import Permission, User
    from simple_history.admin import SimpleHistoryAdmin

    from ratings.models import RatingList

    SubscriptionFactory(member=alice, season=season)
    rated_event([(1, alice, bob, "1-0")])
    RatingList.objects.create(time_class="rapid")
    reader = User.objects.create_user("reader", is_staff=True)
    reader.user_permissions.set(
        Permission.objects.filter(content_type__app_label="ratings", codename__startswith="view_")
    )
    client.force_login(reader)
    checked = []
    for model, model_admin in admin.site._registry.items():
        if not isinstance(model_admin, SimpleHistoryAdmin):
            continue
        obj = model.objects.first()
        assert obj is not None, model
        version = obj.history.latest()
        name = model._meta.model_name
        url = reverse(f"admin:ratings_{name}_simple_history", args=[obj.pk, version.history_id])
        page = client.get(url)
        assert page.status_code == 200, model
        rows = obj.history.count()

        response = client.post(url, _revert_data(page))

        assert response.status_code == 403, model
        assert obj.history.count() == rows, model
        checked.append(model)
    assert {ClubSettings, Member, Subscription, Event, Entry, Game} <= set(checked)
