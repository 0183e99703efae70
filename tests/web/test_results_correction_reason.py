"""A rated event's results corrected on the officer's pages (a round's page, a pasted
round, the round robin's grid) or in the admin's games table need a reason, kept in the
history of each result changed; a draft's results are entered without one."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings import services
from ratings.models import Entry, Event, Game

from ..factories import EventFactory, MemberFactory
from .test_rerate import admin_form

pytestmark = pytest.mark.django_db

REASON = "result misread from the score sheet"


@pytest.fixture
def rated(rated_event, alice, bob):
    """A rated event: Alice beat Bob in its one round."""
    return rated_event([(1, alice, bob, Game.Result.WHITE_WIN)])


@pytest.fixture
def rated_round_robin(rated, alice, bob):
    Event.objects.filter(pk=rated.pk).update(kind=Event.Kind.ROUND_ROBIN)
    return Event.objects.get(pk=rated.pk)


@pytest.fixture
def draft(alice, bob):
    event = EventFactory(name="Club night", rounds=1, kind=Event.Kind.SWISS)
    for member in (alice, bob):
        event.entries.create(member=member)
    return event


def results(event):
    return list(event.games.values_list("white__name", "black__name", "result"))


def latest_reason(event):
    return Game.history.filter(event_id=event.pk).latest("history_id").history_change_reason


# -- a round's page --------------------------------------------------------------------


def post_round(client, event, alice, bob, **extra):
    data = {"g-TOTAL_FORMS": "1", "g-INITIAL_FORMS": "0", "g-0-white": alice.pk}
    data.update({"g-0-black": bob.pk, "g-0-result": "0-1", **extra})
    return client.post(reverse("ratings:officer-round", args=[event.pk, 1]), data)


def test_a_rated_rounds_correction_without_a_reason_is_refused_at_the_field(
    officer_client, rated, alice, bob
):
    page = post_round(officer_client, rated, alice, bob)
    assert page.context["change_reason_error"] == services.RESULTS_REASON_NEEDED
    assert 'aria-invalid="true"' in page.content.decode()
    assert results(rated) == [("Alice Archer", "Bob Brown", "1-0")]


def test_a_rated_rounds_correction_with_a_reason_is_saved_with_it(
    officer_client, rated, alice, bob
):
    post_round(officer_client, rated, alice, bob, change_reason=REASON)
    assert results(rated) == [("Alice Archer", "Bob Brown", "0-1")]
    assert latest_reason(rated) == REASON


def test_a_drafts_round_asks_no_reason(officer_client, draft, alice, bob):
    assert (
        "Reason for the change"
        not in officer_client.get(
            reverse("ratings:officer-round", args=[draft.pk, 1])
        ).content.decode()
    )
    post_round(officer_client, draft, alice, bob)
    assert results(draft) == [("Alice Archer", "Bob Brown", "0-1")]


# -- a pasted round --------------------------------------------------------------------


def paste(client, event, **extra):
    url = reverse("ratings:officer-round-paste", args=[event.pk])
    return client.post(url, {"round": 1, "text": "A1 - B2 0-1", "save": "1", **extra})


def test_a_rated_events_pasted_correction_without_a_reason_is_refused_at_the_field(
    officer_client, rated
):
    page = paste(officer_client, rated)
    assert page.context["change_reason_error"] == services.RESULTS_REASON_NEEDED
    assert results(rated) == [("Alice Archer", "Bob Brown", "1-0")]


def test_a_rated_events_pasted_correction_with_a_reason_is_saved_with_it(officer_client, rated):
    paste(officer_client, rated, change_reason=REASON)
    assert results(rated) == [("Alice Archer", "Bob Brown", "0-1")]
    assert latest_reason(rated) == REASON


def test_a_drafts_pasted_round_asks_no_reason(officer_client, draft):
    assert (
        "Reason for the change"
        not in officer_client.get(
            reverse("ratings:officer-round-paste", args=[draft.pk])
        ).content.decode()
    )
    paste(officer_client, draft)
    assert results(draft) == [("Alice Archer", "Bob Brown", "0-1")]


def add_players(client, event, **extra):
    """ "Enter them and preview" for a pasted round naming Zed, a member not in the event."""
    url = reverse("ratings:officer-round-paste", args=[event.pk])
    return client.post(url, {"round": 1, "text": "A1 - Z9 0-1", "add_players": "1", **extra})


@pytest.fixture
def zed():
    return MemberFactory(member_number="Z9", name="Zed Zulu")


def players(event):
    return sorted(event.entries.values_list("member__name", flat=True))


def test_adding_players_to_a_rated_event_without_a_reason_is_refused_at_the_field(
    officer_client, rated, zed
):
    page = add_players(officer_client, rated)
    assert page.context["change_reason_error"] == services.RESULTS_REASON_NEEDED
    assert 'aria-invalid="true"' in page.content.decode()
    assert players(rated) == ["Alice Archer", "Bob Brown"]


def test_adding_players_to_a_rated_event_keeps_the_reason_in_their_entries_history(
    officer_client, rated, zed
):
    add_players(officer_client, rated, change_reason="Zed played round 1, left off the sheet")
    assert players(rated) == ["Alice Archer", "Bob Brown", "Zed Zulu"]
    entered = Entry.history.filter(event_id=rated.pk, member_id=zed.pk).get()
    assert entered.history_change_reason == "Zed played round 1, left off the sheet"


def test_adding_players_to_a_draft_asks_no_reason(officer_client, draft, zed):
    add_players(officer_client, draft)
    assert players(draft) == ["Alice Archer", "Bob Brown", "Zed Zulu"]


# -- the round robin's grid ------------------------------------------------------------


def grid(client, event, alice, bob, **extra):
    url = reverse("ratings:officer-grid", args=[event.pk])
    return client.post(url, {f"g_{alice.pk}_{bob.pk}": "0", **extra})


def test_a_rated_grids_correction_without_a_reason_is_refused_at_the_field(
    officer_client, rated_round_robin, alice, bob
):
    page = grid(officer_client, rated_round_robin, alice, bob)
    assert page.context["change_reason_error"] == services.RESULTS_REASON_NEEDED
    assert results(rated_round_robin) == [("Alice Archer", "Bob Brown", "1-0")]


def test_a_rated_grids_correction_with_a_reason_is_saved_with_it(
    officer_client, rated_round_robin, alice, bob
):
    grid(officer_client, rated_round_robin, alice, bob, change_reason=REASON)
    assert results(rated_round_robin) == [("Alice Archer", "Bob Brown", "0-1")]
    assert latest_reason(rated_round_robin) == REASON


def test_a_drafts_grid_asks_no_reason(officer_client, draft, alice, bob):
    Event.objects.filter(pk=draft.pk).update(kind=Event.Kind.ROUND_ROBIN)
    assert (
        "Reason for the change"
        not in officer_client.get(
            reverse("ratings:officer-grid", args=[draft.pk])
        ).content.decode()
    )
    grid(officer_client, draft, alice, bob)
    assert results(draft) == [("Alice Archer", "Bob Brown", "0-1")]


# -- the admin's games table -----------------------------------------------------------


def result_corrected_in_the_games_table(client, event, **extra):
    """The event's change form posted with its own fields as they were and its one game's
    result changed in the games table below."""
    url = reverse("admin:ratings_event_change", args=[event.pk])
    data = admin_form(client.get(url))
    data["change_reason"] = ""  # the form as the admin shows it (the helper gives one)
    data["games-0-result"] = "0-1"
    return client.post(url, {**data, **extra})


def test_a_result_corrected_only_in_the_admins_games_table_needs_the_reason(admin_client, rated):
    page = result_corrected_in_the_games_table(admin_client, rated)
    assert page.status_code == 200
    assert page.context["adminform"].form.errors["change_reason"]
    assert results(rated) == [("Alice Archer", "Bob Brown", "1-0")]


def test_a_result_corrected_in_the_admins_games_table_keeps_the_reason(admin_client, rated):
    page = result_corrected_in_the_games_table(admin_client, rated, change_reason=REASON)
    assert page.status_code == 302
    assert results(rated) == [("Alice Archer", "Bob Brown", "0-1")]
    assert latest_reason(rated) == REASON
