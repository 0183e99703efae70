"""An opponent's rating as the system used it, where it is not the one they held
(acf-1993's 336 rule), is marked and explained wherever a page shows it: the member's
games and the rating report's working."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from ratings import services
from ratings.models import ClubSettings, Game

from ..factories import paid_up

pytestmark = pytest.mark.django_db

WIN = Game.Result.WHITE_WIN


@pytest.fixture
def held_night(current_season, rated_event, alice, bob):
    """acf-1993: Alice (2150, confirmed) beats Bob (1780, confirmed) in period 2026-08,
    closed; 370 apart, each counts the other at 336 from their own rating."""
    services.rating_system_set(system_id="acf-1993")
    for member, rating in ((alice, 2150), (bob, 1780)):
        member.initial_rating, member.initial_games = rating, 30
        member.save()
        paid_up(member, current_season)
    night = rated_event([(1, alice, bob, WIN)], name="March night", date=dt.date(2026, 3, 4))
    services.period_close(period=services.period_for(night, ClubSettings.load().engine()))
    return night


def test_the_member_page_marks_an_opponents_rating_held_by_the_336_rule(client, held_night, alice):
    response = client.get(reverse("ratings:member", args=[alice.member_number]))
    text = response.content.decode()
    assert '1814 <span class="figure-used small text-body-secondary">held from 1780</span>' in text
    assert "counts as 336 points from the player&#x27;s rating (the 336 rule)" in text


def test_the_reports_working_marks_the_held_rating_and_says_why(client, held_night):
    response = client.get(reverse("ratings:event-report", args=[held_night.pk]))
    alice = next(r for r in response.context["rows"] if r["member"].name == "Alice Archer")
    assert [g["figure_used"].word for g in alice["games"]] == ["held"]
    text = response.content.decode()
    assert '1814 <span class="figure-used small text-body-secondary">held</span>' in text
    assert 'where marked "held", an opponent rated more than 336 points' in text
