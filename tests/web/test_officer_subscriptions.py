"""Recording a payment: for a recorded season, or this season or the next before they are."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings.forms import SubscriptionForm
from ratings.models import ClubSettings, Season, Subscription

from ..factories import SeasonFactory

pytestmark = pytest.mark.django_db


def seasons_offered(member) -> list[str]:  # type: ignore[no-untyped-def]
    return [label for _, label in SubscriptionForm(member=member).fields["season"].choices]


def next_season() -> tuple[str, dt.date, dt.date]:
    club = ClubSettings.load()
    _, _, end = club.season_for(timezone.localdate())
    return club.season_for(end + dt.timedelta(days=1))


def test_next_season_is_offered_before_it_is_recorded(current_season, alice):
    name, _, _ = next_season()
    assert seasons_offered(alice)[:2] == [f"{name} (new season)", current_season.name]


def test_this_season_is_offered_even_when_no_season_is_recorded(alice):
    this, _, _ = ClubSettings.load().season_for(timezone.localdate())
    assert f"{this} (new season)" in seasons_offered(alice)
    assert not Season.objects.exists()


def test_the_form_starts_on_this_season_not_the_next(current_season, alice):
    assert SubscriptionForm(member=alice)["season"].value() == str(current_season.pk)


def test_paying_for_next_season_records_it_by_the_clubs_season_rule(
    officer_client, current_season, alice
):
    name, start, end = next_season()
    response = officer_client.post(
        reverse("ratings:officer-member-subscribe", args=[alice.pk]),
        {"season": f"new:{start.isoformat()}", "paid_on": str(timezone.localdate())},
    )
    assert response.status_code == 302
    season = Season.objects.get(name=name)
    assert (season.start, season.end) == (start, end)
    assert Subscription.objects.filter(member=alice, season=season).exists()


def test_a_recorded_season_is_offered_once_not_again_as_new(alice):
    name, start, end = next_season()
    SeasonFactory(name=name, start=start, end=end)
    offered = seasons_offered(alice)
    assert name in offered
    assert f"{name} (new season)" not in offered
