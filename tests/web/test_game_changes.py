"""A game's own change, wherever a page lists games: under ecf-2020 it is the game's increment."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from ratings import services
from ratings.models import Game, RatingChange
from ratings.pages.game_lines import changes_breakdown_fill

from ..factories import paid_up

pytestmark = pytest.mark.django_db


@pytest.fixture
def ecf_game(rated_event, current_season, alice, bob):
    """Alice (1800) beats Bob (1700), both with established ECF ratings, rated under ecf-2020."""
    for member, rating in ((alice, 1800), (bob, 1700)):
        member.initial_rating, member.initial_games = rating, 30
        member.save()
        paid_up(member, current_season)
    event = rated_event(
        [(1, alice, bob, Game.Result.WHITE_WIN)], date=dt.date(2026, 3, 2), rate=False
    )
    services.rating_system_set(system_id="ecf-2020")
    return event


def increment_of(event, member) -> float:
    change = RatingChange.objects.get(event=event, member=member)
    changes_breakdown_fill(changes=[change])  # stored packed: read with the games
    line = change.detail["games"][0]
    assert "change" not in line
    return line["increment"]


def test_a_game_line_without_a_change_takes_the_ecf_increment():
    assert services.game_line_change(line={"score": 1, "increment": 7.5}) == 7.5
    assert services.game_line_change(line={"score": 1, "change": 16.0}) == 16.0
    assert services.game_line_change(line={"score": 1}) is None


def test_the_event_report_shows_each_games_ecf_increment(client, ecf_game, alice):
    response = client.get(reverse("ratings:event-report", args=[ecf_game.pk]))
    rows = {row["member"]: row for row in response.context["rows"]}
    increment = increment_of(ecf_game, alice)
    assert increment
    assert rows[alice]["games"][0]["change"] == increment
    assert f"+{increment:.1f}</td>" in response.content.decode()


def test_the_member_page_shows_each_games_ecf_increment(client, ecf_game, bob):
    response = client.get(reverse("ratings:member", args=[bob.member_number]))
    increment = increment_of(ecf_game, bob)
    assert increment < 0
    assert [game["change"] for game in response.context["games"]] == [increment]
