"""An event's public page: the players by place, each with score and games; ratings and
changes for the published ones."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import Game, RatingChange

from ..factories import paid_up

pytestmark = pytest.mark.django_db

R = Game.Result


def page_of(client, event):  # type: ignore[no-untyped-def]
    return client.get(reverse("ratings:event", args=[event.pk]))


def standings(response) -> list[tuple[str, str, float, int]]:  # type: ignore[no-untyped-def]
    return [
        (row["place"], row["member"].name, row["points"], row["games"])
        for row in response.context["players"]
    ]


@pytest.fixture
def night(rated_event, current_season, alice, bob, carol, dave):  # type: ignore[no-untyped-def]
    """Carol scores 3 (a bye among them), Alice and Dave 1½ each, Bob (in arrears) 0."""
    for member in (alice, carol, dave):
        paid_up(member, current_season)
    return rated_event(
        [
            (1, alice, bob, R.WHITE_WIN),
            (1, carol, dave, R.WHITE_WIN),
            (2, carol, alice, R.WHITE_WIN),
            (2, dave, bob, R.WHITE_WIN),
            (3, alice, dave, R.DRAW),
            (3, bob, None, R.ZERO_BYE),
            (3, carol, None, R.BYE),
        ],
        name="Spring night",
    )


def test_players_are_listed_by_place_then_name_with_shared_places(client, night):
    assert standings(page_of(client, night)) == [
        ("1", "Carol Chen", 3.0, 3),
        ("2=", "Alice Archer", 1.5, 3),
        ("2=", "Dave Dunn", 1.5, 3),
        ("4", "Bob Brown", 0.0, 3),
    ]


def test_an_unpublished_player_shows_score_and_games_but_no_rating(client, night, bob):
    response = page_of(client, night)
    row = next(r for r in response.context["players"] if r["member"] == bob)
    assert row["change"] is None
    html = response.content.decode()
    bobs_row = html[html.index("Bob Brown") :].split("</tr>")[0]
    assert ">0/3<" in bobs_row
    assert "rating not published" in bobs_row
    before = RatingChange.objects.get(event=night, member=bob).display_before
    assert before not in bobs_row


def test_an_officer_sees_an_unpublished_players_rating_marked(officer_client, night, bob):
    html = page_of(officer_client, night).content.decode()
    bobs_row = html[html.index("Bob Brown") :].split("</tr>")[0]
    assert "not published" in bobs_row and "→" in bobs_row


def test_a_change_that_rounds_to_nothing_shows_as_a_plain_zero(client, night, carol):
    change = RatingChange.objects.get(event=night, member=carol)
    RatingChange.objects.filter(pk=change.pk).update(
        after=change.before + 0.4, display_after=change.display_before
    )
    html = page_of(client, night).content.decode()
    carols_row = html[html.index("Carol Chen") :].split("</tr>")[0]
    assert '<span class="">0</span>' in carols_row
    assert "+0" not in carols_row and "change-up" not in carols_row


def test_an_unrated_event_shows_the_points_from_its_games(rated_event, client, alice, bob):
    friendly = rated_event([(1, alice, bob, R.DRAW), (2, bob, alice, R.WHITE_WIN)], rate=False)
    friendly.rated = False
    friendly.save()
    response = page_of(client, friendly)
    assert standings(response) == [("1", "Bob Brown", 1.5, 2), ("2", "Alice Archer", 0.5, 2)]
    html = response.content.decode()
    assert "1.5/2" in html and "0.5/2" in html
    assert not response.context["has_ratings"]
    assert '<th class="rating">Change</th>' not in html
