"""A game's history reads in the club's words: "1–0", "½–½", "0–1", with who changed it,
when, and why (the reason the officer gave where they corrected it)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import Entry, Event, Game, Member

from ..factories import EventFactory
from .test_audit import _edit, _post_round, club_night  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db


def history_page(client, game: Game) -> str:
    return client.get(reverse("admin:ratings_game_history", args=[game.pk])).content.decode()


def test_a_corrected_result_reads_as_the_score_sheet_writes_it(
    admin_client, rated_event, alice, bob
):
    game = rated_event([(1, alice, bob, "1-0")]).games.get()
    _edit(admin_client, Game, game, result="1/2-1/2")
    page = history_page(admin_client, game)
    assert "1–0&nbsp;&rarr;&nbsp;½–½" in page
    assert "1/2-1/2" not in page


def test_a_black_win_reads_zero_one(admin_client, rated_event, alice, bob):
    game = rated_event([(1, alice, bob, "1/2-1/2")]).games.get()
    _edit(admin_client, Game, game, result="0-1")
    assert "½–½&nbsp;&rarr;&nbsp;0–1" in history_page(admin_client, game)


def test_the_admins_game_form_asks_for_a_reason_and_the_history_shows_it(
    admin_client, admin_user, rated_event, alice, bob
):
    game = rated_event([(1, alice, bob, "1-0")]).games.get()
    _edit(admin_client, Game, game, result="0-1", change_reason="score sheet misread")
    record = game.history.latest()
    assert record.history_change_reason == "score sheet misread"
    page = history_page(admin_client, game)
    assert "score sheet misread" in page
    assert admin_user.username in page


def test_a_reason_given_on_the_event_form_goes_with_each_game_corrected_there(
    admin_client, rated_event, alice, bob
):
    event = rated_event([(1, alice, bob, "1-0")])
    _edit(
        admin_client,
        Event,
        event,
        **{"games-0-result": "1/2-1/2", "change_reason": "corrected by the arbiter"},
    )
    game = event.games.get()
    assert game.history.latest().history_change_reason == "corrected by the arbiter"
    assert "corrected by the arbiter" in history_page(admin_client, game)


def test_a_reason_alone_adds_no_empty_change_to_the_events_history(
    admin_client, rated_event, alice, bob
):
    event = rated_event([(1, alice, bob, "1-0")])
    before = event.history.count()
    _edit(admin_client, Event, event, change_reason="looked it over")
    assert event.history.count() == before


def test_the_round_page_of_a_rated_event_asks_for_a_reason(
    officer_client, rated_event, alice, bob
):
    event = rated_event([(1, alice, bob, "1-0")])
    page = officer_client.get(reverse("ratings:officer-round", args=[event.pk, 1]))
    assert 'name="change_reason"' in page.content.decode()


def test_the_round_page_of_an_event_not_yet_rated_does_not(officer_client, club_night):  # noqa: F811
    page = officer_client.get(reverse("ratings:officer-round", args=[club_night.pk, 1]))
    assert 'name="change_reason"' not in page.content.decode()


def test_a_result_corrected_on_a_rated_events_round_page_keeps_its_reason(
    officer_client, officer, rated_event, alice, bob
):
    event = rated_event([(1, alice, bob, "1-0")])
    url = reverse("ratings:officer-round", args=[event.pk, 1])
    data = {
        "g-TOTAL_FORMS": "1",
        "g-INITIAL_FORMS": "0",
        "g-0-white": alice.pk,
        "g-0-black": bob.pk,
        "g-0-result": "0-1",
        "change_reason": "players swapped colours",
    }
    officer_client.post(url, data)
    record = event.games.get().history.latest()
    assert (record.result, record.history_user, record.history_change_reason) == (
        "0-1",
        officer,
        "players swapped colours",
    )


def test_a_result_corrected_by_pasting_the_round_again_keeps_its_reason(
    officer_client, officer, rated_event, alice, bob
):
    event = rated_event([(1, alice, bob, "1-0")])
    url = reverse("ratings:officer-round-paste", args=[event.pk])
    page = officer_client.get(url)
    assert 'name="change_reason"' in page.content.decode()
    text = f"{alice.member_number} - {bob.member_number} 0-1"
    officer_client.post(
        url, {"round": 1, "text": text, "save": "1", "change_reason": "score sheet misread"}
    )
    record = event.games.get().history.latest()
    assert (record.result, record.history_change_reason) == ("0-1", "score sheet misread")


def test_the_round_robin_grid_of_a_rated_event_asks_for_a_reason(
    officer_client, rated_event, alice, bob
):
    event = rated_event([(1, alice, bob, "1-0")])
    event.kind = Event.Kind.ROUND_ROBIN
    event.save()
    page = officer_client.get(reverse("ratings:officer-grid", args=[event.pk]))
    assert 'name="change_reason"' in page.content.decode()


# -- A reason wherever a correction is made: the member and event pages, a player removed,
# -- the admin's member form. ------------------------------------------------------------


def test_a_starting_rating_corrected_on_the_officers_member_page_keeps_its_reason(
    officer_client, officer, rated_event, alice, bob
):
    from .test_officer_members import _member_data

    rated_event([(1, alice, bob, "1-0")])
    url = reverse("ratings:officer-member", args=[alice.pk])
    page = officer_client.get(url).content.decode()
    assert 'name="member-change_reason"' in page
    data = _member_data(
        officer_client, alice, initial_rating=1700, change_reason="rating from the wrong list"
    )
    officer_client.post(url, {**data, "confirm": "1"})
    record = Member.objects.get(pk=alice.pk).history.latest()
    assert (record.initial_rating, record.history_user, record.history_change_reason) == (
        1700,
        officer,
        "rating from the wrong list",
    )


def test_the_officers_new_member_form_asks_for_no_reason(officer_client):
    page = officer_client.get(reverse("ratings:officer-member-add")).content.decode()
    assert "change_reason" not in page


def test_an_event_corrected_on_the_officers_event_page_keeps_its_reason(
    officer_client, officer, rated_event, alice, bob
):
    event = rated_event([(1, alice, bob, "1-0")])
    url = reverse("ratings:officer-event-edit", args=[event.pk])
    form = officer_client.get(url).context["form"]
    assert "change_reason" in form.fields
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    data.update(
        {
            "start_date": "2026-03-03",
            "end_date": "2026-03-03",
            "rated": "on",
            "change_reason": "date misread from the flyer",
            "confirm": "1",
        }
    )
    officer_client.post(url, data)
    record = Event.objects.get(pk=event.pk).history.latest()
    assert (str(record.start_date), record.history_user, record.history_change_reason) == (
        "2026-03-03",
        officer,
        "date misread from the flyer",
    )


def test_removing_a_player_from_an_event_asks_why_and_keeps_the_reason(
    officer_client, officer, alice
):
    event = EventFactory(name="Club night")
    entry = event.entries.create(member=alice)
    url = reverse("ratings:officer-event-player-remove", args=[event.pk, alice.pk])
    page = officer_client.get(url).content.decode()
    assert "Remove Alice Archer from Club night?" in page
    assert 'name="change_reason"' in page
    officer_client.post(url, {"change_reason": "entered in the wrong event"})
    assert not event.entries.exists()
    gone = Entry.history.get(id=entry.pk, history_type="-")
    assert (gone.history_user, gone.history_change_reason) == (
        officer,
        "entered in the wrong event",
    )


def test_the_admins_member_form_asks_for_a_reason_and_the_history_keeps_it(
    admin_client, admin_user, alice
):
    _edit(admin_client, Member, alice, initial_rating="1650", change_reason="FIDE rating used")
    record = alice.history.latest()
    assert (record.initial_rating, record.history_user, record.history_change_reason) == (
        1650,
        admin_user,
        "FIDE rating used",
    )


def test_the_admins_member_form_shows_a_whole_initial_rating_as_a_whole_number(
    admin_client, alice
):
    alice.initial_rating = 1400.0
    alice.save()
    page = admin_client.get(reverse("admin:ratings_member_change", args=[alice.pk]))
    html = page.content.decode()
    assert 'name="initial_rating" value="1400"' in html
    assert "1400.0" not in html
