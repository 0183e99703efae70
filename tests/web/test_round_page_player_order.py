"""A round's player menus list the event's players by name, whatever order they entered in."""

import pytest
from django.urls import reverse

from ..factories import EventFactory

pytestmark = pytest.mark.django_db


def test_the_player_menus_list_the_players_by_name(officer_client, alice, bob, carol):
    event = EventFactory()
    for member in (carol, alice, bob):
        event.entries.create(member=member)
    response = officer_client.get(reverse("ratings:officer-round", args=[event.pk, 1]))
    form = response.context["formset"].forms[0]
    for field in ("white", "black"):
        assert [label for _, label in form.fields[field].choices][1:] == [
            "Alice Archer (A1)",
            "Bob Brown (B2)",
            "Carol Chen (C3)",
        ]
