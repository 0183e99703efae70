"""A round robin's grid: each game entered once, above the diagonal, and seen from both
sides."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.forms import short_name
from ratings.models import Event

from ..factories import EventFactory, GameFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_robin(alice, bob, carol):  # type: ignore[no-untyped-def]
    event = EventFactory(name="Reserve championship", kind=Event.Kind.ROUND_ROBIN, rounds=3)
    for member in (alice, bob, carol):
        event.entries.create(member=member)
    return event


def grid(client, event):  # type: ignore[no-untyped-def]
    response = client.get(reverse("ratings:officer-grid", args=[event.pk]))
    return {row.player.name: row for row in response.context["form"].rows()}


def test_below_the_diagonal_each_game_shows_as_the_other_player_scored_it(
    officer_client, round_robin, alice, bob, carol
):
    GameFactory(event=round_robin, white=alice, black=bob, result="1-0")
    GameFactory(event=round_robin, white=carol, black=alice, result="1/2-1/2", round=2)
    GameFactory(event=round_robin, white=bob, black=carol, result="-/+", round=3)
    rows = grid(officer_client, round_robin)
    players = [row.player.name for row in rows.values()]
    bob_against = dict(zip(players, rows["Bob Brown"].cells, strict=True))
    carol_against = dict(zip(players, rows["Carol Chen"].cells, strict=True))
    assert bob_against["Alice Archer"].shown == "0"
    assert carol_against["Alice Archer"].shown == "½"
    assert carol_against["Bob Brown"].shown == "+"
    assert bob_against["Carol Chen"].field is not None  # entered above the diagonal


def test_a_mirrored_cell_follows_the_cell_it_mirrors(officer_client, round_robin):
    html = officer_client.get(reverse("ratings:officer-grid", args=[round_robin.pk]))
    page = html.content.decode()
    assert page.count("data-mirror-of=") == 3  # one for each pair
    assert "js/officer.js" in page


def test_a_narrow_screen_shows_a_short_name():
    assert short_name("Tomasz Kowalski") == "T. Kowalski"
    assert short_name("Mere Te Huia Tawhiri") == "M. Tawhiri"
    assert short_name("Cher") == "Cher"
