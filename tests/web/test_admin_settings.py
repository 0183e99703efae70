"""Changing the rating system in the admin warns first, then re-rates everything."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from ratings import services
from ratings.models import ClubSettings, RatingRun, RatingState

from .test_rerate import admin_form, full_rerate, ratings_now

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated_club(rated_event, club, alice, bob, carol):
    rated_event([(1, alice, bob, "1-0")], date=dt.date(2025, 3, 4))
    rated_event([(1, bob, carol, "1/2-1/2")], date=dt.date(2025, 3, 11))
    rated_event([(1, carol, alice, "0-1")], date=dt.date(2025, 3, 18))
    return club


def _post_system(client, club, **changes):  # type: ignore[no-untyped-def]
    url = reverse("admin:ratings_clubsettings_change", args=[club.pk])
    data = admin_form(client.get(url))
    data.update(changes)
    return url, data, client.post(url, data)


def test_changing_the_system_asks_first_saying_how_many_events_it_re_rates(
    admin_client, rated_club
):
    _, _, response = _post_system(admin_client, rated_club, rating_system="st-charles")
    assert response.status_code == 200
    assert b"re-rates everything: 3 events" in response.content
    assert ClubSettings.load().rating_system != "st-charles"


def test_confirming_changes_the_system_and_re_rates_everything(admin_client, rated_club):
    url, data, _ = _post_system(admin_client, rated_club, rating_system="st-charles")
    response = admin_client.post(url, {**data, "_confirm_rerate": "1", "_save": "Yes"})
    assert response.status_code == 302
    assert ClubSettings.load().rating_system == "st-charles"
    run = RatingRun.objects.latest("pk")
    assert run.system == "st-charles" and run.events_rated == 3
    assert ratings_now() == full_rerate()


def test_new_parameters_also_ask_first_and_then_re_rate(admin_client, rated_club):
    before = dict(RatingState.objects.values_list("member_id", "rating"))
    url, data, response = _post_system(admin_client, rated_club, system_params='{"k_new": 60}')
    assert b"re-rates everything" in response.content
    admin_client.post(url, {**data, "_confirm_rerate": "1", "_save": "Yes"})
    assert ClubSettings.load().system_params == {"k_new": 60}
    assert dict(RatingState.objects.values_list("member_id", "rating")) != before


def test_bad_parameters_are_refused_beside_the_field_and_nothing_changes(admin_client, rated_club):
    _, _, response = _post_system(admin_client, rated_club, system_params='{"k_new": "lots"}')
    assert response.status_code == 200
    assert "k_new: must be a number" in str(response.context["adminform"].form.errors)
    assert ClubSettings.load().system_params == {}


def test_renaming_the_club_saves_without_asking_or_re_rating(admin_client, rated_club):
    runs = RatingRun.objects.count()
    _, _, response = _post_system(admin_client, rated_club, name="Kagan Chess Club")
    assert response.status_code == 302
    assert ClubSettings.load().name == "Kagan Chess Club"
    assert RatingRun.objects.count() == runs


def test_the_services_switch_is_what_the_admin_uses(rated_club):
    services.rating_system_set(system_id="nscl", soon=True)
    assert RatingRun.objects.latest("pk").status == RatingRun.Status.DONE


def test_a_switch_to_a_period_system_counts_the_current_periods_events_as_waiting(
    admin_client, rated_club, rated_event, alice, carol
):
    from django.utils import timezone

    rated_event([(1, alice, carol, "1-0")], date=timezone.localdate())
    _, _, response = _post_system(admin_client, rated_club, rating_system="acf-1993")
    page = response.content.decode()
    assert "re-rates everything: 3 events" in page
    assert "The current rating period's 1 event waits for you to close it." in page
