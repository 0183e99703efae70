"""Two officers at once: a results page saved over results someone else saved since it
was opened is refused, saying who changed them and when, and keeps the officer's entry
on the page to apply again. A save that changes nothing someone else touched goes on."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from ratings import services
from ratings.models import Event, Game

from ..factories import EventFactory, officer_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_night(alice, bob, carol, dave):
    event = EventFactory(name="Club night", rounds=3, kind=Event.Kind.SWISS)
    for member in (alice, bob, carol, dave):
        event.entries.create(member=member)
    return event


@pytest.fixture
def oscar(db) -> Client:
    """A second officer, on a computer of their own."""
    client = Client()
    client.force_login(officer_user("oscar"))
    return client


def _version(page) -> str:
    found = re.search(r'name="results_version" value="([^"]*)"', page.content.decode())
    assert found, "the page carries the results' version it shows"
    return found.group(1)


def _round(version: str, rows) -> dict[str, str]:
    data = {"g-TOTAL_FORMS": str(len(rows)), "g-INITIAL_FORMS": "0", "results_version": version}
    for i, (white, black, result) in enumerate(rows):
        data[f"g-{i}-white"] = str(white.pk)
        data[f"g-{i}-black"] = str(black.pk) if black else ""
        data[f"g-{i}-result"] = result
    return data


def _results(event: Event) -> list[tuple[int, str, str]]:
    return list(
        event.games.order_by("round", "board").values_list("round", "white__name", "result")
    )


def test_a_round_saved_by_another_officer_since_the_page_opened_is_refused_with_who_and_when(
    officer_client, oscar, club_night, alice, bob
):
    url = reverse("ratings:officer-round", args=[club_night.pk, 1])
    opened = _version(officer_client.get(url))
    oscar.post(url, _round(_version(oscar.get(url)), [(alice, bob, "1-0")]))

    refused = officer_client.post(url, _round(opened, [(alice, bob, "0-1")]))

    assert refused.status_code == 200
    body = refused.content.decode()
    assert re.search(r"Not saved: round 1’s results were changed by oscar at \d\d:\d\d on ", body)
    assert "Round 1, board 1: Alice Archer 1–0 Bob Brown" in body  # what is saved now
    assert _results(club_night) == [(1, "Alice Archer", "1-0")]


def test_a_refused_round_keeps_the_officers_entry_on_the_page(
    officer_client, oscar, club_night, alice, bob, carol, dave
):
    url = reverse("ratings:officer-round", args=[club_night.pk, 1])
    opened = _version(officer_client.get(url))
    oscar.post(url, _round(_version(oscar.get(url)), [(alice, bob, "1-0")]))

    refused = officer_client.post(url, _round(opened, [(carol, dave, "1/2-1/2")]))

    form = refused.context["formset"].forms[0]
    assert (form["white"].value(), form["black"].value(), form["result"].value()) == (
        str(carol.pk),
        str(dave.pk),
        "1/2-1/2",
    )


def test_two_saves_from_one_opened_page_the_second_is_refused(
    officer_client, club_night, alice, bob
):
    url = reverse("ratings:officer-round", args=[club_night.pk, 1])
    opened = _version(officer_client.get(url))
    officer_client.post(url, _round(opened, [(alice, bob, "1-0")]))

    second = officer_client.post(url, _round(opened, [(alice, bob, "0-1")]))

    assert "Not saved: round 1’s results were changed by olivia" in second.content.decode()
    assert _results(club_night) == [(1, "Alice Archer", "1-0")]


def test_saving_again_after_the_refusal_applies_the_officers_entry(
    officer_client, oscar, club_night, alice, bob
):
    url = reverse("ratings:officer-round", args=[club_night.pk, 1])
    opened = _version(officer_client.get(url))
    oscar.post(url, _round(_version(oscar.get(url)), [(alice, bob, "1-0")]))
    refused = officer_client.post(url, _round(opened, [(alice, bob, "0-1")]))

    officer_client.post(url, _round(_version(refused), [(alice, bob, "0-1")]))

    assert _results(club_night) == [(1, "Alice Archer", "0-1")]


def test_another_rounds_save_does_not_stand_in_the_way(
    officer_client, oscar, club_night, alice, bob, carol, dave
):
    one = reverse("ratings:officer-round", args=[club_night.pk, 1])
    two = reverse("ratings:officer-round", args=[club_night.pk, 2])
    opened = _version(officer_client.get(one))
    oscar.post(two, _round(_version(oscar.get(two)), [(carol, dave, "1-0")]))

    officer_client.post(one, _round(opened, [(alice, bob, "1-0")]))

    assert _results(club_night) == [(1, "Alice Archer", "1-0"), (2, "Carol Chen", "1-0")]


def test_a_change_in_the_admin_since_the_page_opened_refuses_the_save_too(
    officer_client, club_night, alice, bob
):
    url = reverse("ratings:officer-round", args=[club_night.pk, 1])
    opened = _version(officer_client.get(url))
    services.games_replace(
        event=club_night,
        rounds=[1],
        games=[Game(round=1, board=1, white=alice, black=bob, result="1/2-1/2")],
    )

    refused = officer_client.post(url, _round(opened, [(alice, bob, "1-0")]))

    assert "Not saved: round 1’s results were changed" in refused.content.decode()
    assert _results(club_night) == [(1, "Alice Archer", "1/2-1/2")]


def _paste(client, event, text, version, **extra):
    url = reverse("ratings:officer-round-paste", args=[event.pk])
    return client.post(url, {"round": 1, "text": text, "results_version": version, **extra})


def test_a_pasted_round_saved_over_a_later_save_is_refused_and_its_text_kept(
    officer_client, oscar, club_night, alice, bob
):
    url = reverse("ratings:officer-round-paste", args=[club_night.pk])
    opened = _version(officer_client.get(url))
    preview = _paste(officer_client, club_night, "A1 - B2 0-1", opened)
    oscar.post(
        reverse("ratings:officer-round", args=[club_night.pk, 1]),
        _round(opened, [(alice, bob, "1-0")]),
    )

    refused = _paste(officer_client, club_night, "A1 - B2 0-1", _version(preview), save="1")

    body = refused.content.decode()
    assert "Not saved: round 1’s results were changed by oscar" in body
    assert refused.context["form"]["text"].value() == "A1 - B2 0-1"
    assert _results(club_night) == [(1, "Alice Archer", "1-0")]


@pytest.fixture
def round_robin(alice, bob, carol, dave):
    event = EventFactory(kind=Event.Kind.ROUND_ROBIN, rounds=3)
    for member in (alice, bob, carol, dave):
        event.entries.create(member=member)
    return event


def test_a_grid_saved_over_a_later_save_is_refused_and_its_cells_kept(
    officer_client, oscar, round_robin, alice, bob
):
    url = reverse("ratings:officer-grid", args=[round_robin.pk])
    opened = _version(officer_client.get(url))
    oscar.post(url, {f"g_{alice.pk}_{bob.pk}": "1", "results_version": _version(oscar.get(url))})

    refused = officer_client.post(url, {f"g_{alice.pk}_{bob.pk}": "0", "results_version": opened})

    assert "were changed by oscar" in refused.content.decode()
    assert refused.context["form"][f"g_{alice.pk}_{bob.pk}"].value() == "0"
    assert round_robin.games.get().result in ("1-0", "0-1")
    winner = round_robin.games.get()
    assert (winner.white == alice) == (winner.result == "1-0")  # Oscar's: Alice won


# -- a member's details and an event's, on their own forms ------------------------------------


def _record_version(page) -> str:
    found = re.search(r'name="record_version" value="([^"]*)"', page.content.decode())
    assert found, "the form carries the record's version it shows"
    return found.group(1)


def _member(name: str, version: str) -> dict[str, str]:
    return {
        "member-name": name,
        "member-member_number": "A1",
        "member-initial_games": "0",
        "member-change_reason": "name misspelt",
        "record_version": version,
    }


def test_a_members_details_saved_over_a_later_change_are_refused_and_kept(
    officer_client, oscar, alice
):
    url = reverse("ratings:officer-member", args=[alice.pk])
    opened = _record_version(officer_client.get(url))
    oscar.post(url, _member("Alice Archer-Smith", _record_version(oscar.get(url))))

    refused = officer_client.post(url, _member("Alicia Archer", opened))

    assert re.search(
        r"Not saved: Alice Archer-Smith was changed by oscar at \d\d:\d\d on ",
        refused.content.decode(),
    )
    assert refused.context["form"]["name"].value() == "Alicia Archer"
    alice.refresh_from_db()
    assert alice.name == "Alice Archer-Smith"
    officer_client.post(url, _member("Alicia Archer", _record_version(refused)))
    alice.refresh_from_db()
    assert alice.name == "Alicia Archer"


EVENT_FORM = {
    "kind": "swiss",
    "start_date": "2026-04-04",
    "end_date": "2026-04-04",
    "rounds": "3",
    "time_control": "15+10",
    "rated": "on",
    "change_reason": "date misread from the flyer",
}


def test_an_events_details_saved_over_a_later_change_are_refused(
    officer_client, oscar, club_night
):
    url = reverse("ratings:officer-event-edit", args=[club_night.pk])
    opened = _record_version(officer_client.get(url))
    oscar.post(
        url,
        {
            **EVENT_FORM,
            "name": "Club night (moved)",
            "record_version": _record_version(oscar.get(url)),
        },
    )

    refused = officer_client.post(
        url, {**EVENT_FORM, "name": "Club night 2", "record_version": opened}
    )

    assert "Not saved: Club night (moved) was changed by oscar" in refused.content.decode()
    assert refused.context["form"]["name"].value() == "Club night 2"
    club_night.refresh_from_db()
    assert club_night.name == "Club night (moved)"
