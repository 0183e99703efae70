"""A round page's messages: each problem once, the right one, and all of them at once."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import Event

from ..factories import EventFactory, MemberFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_night(alice, bob, carol, dave):  # type: ignore[no-untyped-def]
    event = EventFactory(name="Club night", rounds=3, kind=Event.Kind.SWISS)
    for member in (alice, bob, carol, dave):
        event.entries.create(member=member)
    return event


def post_round(client, event, rows):  # type: ignore[no-untyped-def]
    data = {"g-TOTAL_FORMS": str(len(rows)), "g-INITIAL_FORMS": "0"}
    for i, (white, black, result) in enumerate(rows):
        data[f"g-{i}-white"] = white.pk if white else ""
        data[f"g-{i}-black"] = black.pk if black else ""
        data[f"g-{i}-result"] = result
    return client.post(reverse("ratings:officer-round", args=[event.pk, 1]), data)


def messages(response) -> list[str]:  # type: ignore[no-untyped-def]
    formset = response.context["formset"]
    found = [e for form in formset.forms for errors in form.errors.values() for e in errors]
    return found + list(formset.non_form_errors())


def test_a_black_not_in_the_event_is_one_message_not_also_choose_black(
    officer_client, club_night, alice
):
    stranger = MemberFactory(name="Stranger")
    response = post_round(officer_client, club_night, [(alice, stranger, "1-0")])
    assert messages(response) == ["That player is not in this event."]


def test_a_white_not_in_the_event_is_one_message(officer_client, club_night, bob):
    stranger = MemberFactory(name="Stranger")
    response = post_round(officer_client, club_night, [(stranger, bob, "1-0")])
    assert messages(response) == ["That player is not in this event."]


def test_a_player_paired_twice_is_reported_beside_another_boards_problem(
    officer_client, club_night, alice, bob, carol, dave
):
    response = post_round(
        officer_client,
        club_night,
        [(alice, bob, "1-0"), (carol, alice, "0-1"), (dave, None, "")],
    )
    assert sorted(messages(response)) == [
        "A player is paired twice in this round.",
        "Alice Archer is already paired on board 1.",
        "Enter the result.",
    ]
    assert not club_night.games.exists()


def test_a_round_with_no_one_paired_twice_has_no_paired_twice_message(
    officer_client, club_night, alice, bob
):
    response = post_round(officer_client, club_night, [(alice, bob, "")])
    assert messages(response) == ["Enter the result."]


@pytest.mark.parametrize("board", ["0", "99999999", "-3", "x"])
def test_a_tampered_board_number_is_refused_with_a_message(officer_client, club_night, board):
    from ratings.models import Game

    alice, bob = club_night.players.order_by("member_number")[:2]
    data = {
        "g-TOTAL_FORMS": "1",
        "g-INITIAL_FORMS": "0",
        "g-0-board": board,
        "g-0-white": alice.pk,
        "g-0-black": bob.pk,
        "g-0-result": "1-0",
    }
    response = officer_client.post(reverse("ratings:officer-round", args=[club_night.pk, 1]), data)
    assert response.status_code == 200
    message = "The board number must be a whole number from 1 to 32767."
    assert messages(response) == [message]
    assert message in response.content.decode()
    assert not Game.objects.exists()
