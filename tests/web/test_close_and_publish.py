"""Closing a rating period publishes the list it leaves in the same confirmation; where
the rating must wait for the background worker, the button says so."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings import services
from ratings.models import ClubSettings, Game, Publication, RatingRun

from ..factories import paid_up

pytestmark = pytest.mark.django_db


@pytest.fixture
def period(current_season, rated_event, alice, bob):  # type: ignore[no-untyped-def]
    """An ecf-2020 month of one club night, waiting to be closed."""
    services.rating_system_set(system_id="ecf-2020")
    for member in (alice, bob):
        member.initial_rating, member.initial_games = 1800, 30
        member.save()
        paid_up(member, current_season)
    day = timezone.localdate().replace(day=1) - dt.timedelta(days=40)
    event = rated_event([(1, alice, bob, Game.Result.WHITE_WIN)], date=day, rate=False)
    return services.period_for(event, ClubSettings.load().engine())


def test_the_close_page_asks_for_the_publications_note_beside_its_one_button(
    officer_client, period
):
    page = officer_client.get(reverse("ratings:officer-period-close", args=[period.label]))
    text = page.content.decode()
    assert f"Confirm: close {period.name} and publish the list" in text
    assert "Note published with the list" in text
    assert page.context["note_form"].initial["note"] == f"Rating period {period.name} closed."


def test_one_confirmation_closes_the_period_and_publishes_with_the_note(officer_client, period):
    close = reverse("ratings:officer-period-close", args=[period.label])
    response = officer_client.post(close, {"note": "The August list."})
    publication = Publication.objects.get()
    assert response["Location"] == publication.get_absolute_url()
    assert publication.note == "The August list." and publication.period.is_closed
    assert publication.size == 2


def test_a_rating_left_to_the_background_says_the_list_is_published_after(
    officer_client, period, settings
):
    settings.RERATE_FOREGROUND_SECONDS = -1  # every re-rate goes to the worker
    close = reverse("ratings:officer-period-close", args=[period.label])
    text = officer_client.get(close).content.decode()
    assert f"Confirm: close {period.name} (publish once rated)" in text
    assert "publish the new list once the run has finished" in text
    assert "Note published with the list" not in text
    response = officer_client.post(close)
    run = RatingRun.objects.latest("pk")
    assert response["Location"] == reverse("ratings:run", args=[run.pk])
    assert not Publication.objects.exists()
