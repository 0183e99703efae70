"""A switch of rating system or of a list's keeping decides now or the worker from the games
it will rate, a period system's included (whose periods the switch itself closes), so a
switch too big for a page is queued with its progress page and never lost: the run that
carries it is recorded first and the worker makes the switch."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from ratings import services
from ratings.models import ClubSettings, RatingList, RatingRun

from .test_rerate import admin_form, full_rerate, ratings_now

pytestmark = pytest.mark.django_db

PERIOD_SYSTEMS = ["ecf-2020", "acf-1993"]


@pytest.fixture
def small_club(rated_event, club, alice, bob, carol, dave):  # type: ignore[no-untyped-def]
    """Twelve played games over three months of 2025 (periods long ended), rated nz-club."""
    for week in range(6):
        day = dt.date(2025, 3, 4) + dt.timedelta(weeks=week)
        rated_event([(1, alice, bob, "1-0"), (1, carol, dave, "1/2-1/2")], date=day, rate=False)
    services.ratings_rerate(services.RerateRequest(reason="season loaded"))
    return club


@pytest.fixture
def pages_wait_for_few_games(settings):  # type: ignore[no-untyped-def]
    """A page waits for at most 5 games, however fast the runs go."""
    settings.RERATE_FOREGROUND_SECONDS = 1000
    settings.RERATE_FOREGROUND_GAMES = 5


@pytest.mark.parametrize("system", PERIOD_SYSTEMS)
def test_a_switch_to_a_period_system_counts_the_games_its_closed_periods_will_hold(
    small_club, pages_wait_for_few_games, system
):
    with services.rerates_for_a_page():
        run = services.rating_system_set(system_id=system)
    assert run.status == RatingRun.Status.QUEUED
    assert run.pending == {"rating_system": system, "system_params": {}}


@pytest.mark.parametrize("system", PERIOD_SYSTEMS)
def test_a_queued_switch_leaves_the_system_and_ratings_as_they_were_until_the_worker_runs(
    small_club, pages_wait_for_few_games, system
):
    before = ratings_now()
    with services.rerates_for_a_page():
        services.rating_system_set(system_id=system)
    assert ClubSettings.load().rating_system == "nz-club-elo"
    assert ratings_now() == before


@pytest.mark.parametrize("system", PERIOD_SYSTEMS)
def test_the_admin_s_confirmed_switch_to_a_period_system_answers_with_its_progress_link(
    admin_client, small_club, pages_wait_for_few_games, system
):
    before = ratings_now()
    url = reverse("admin:ratings_clubsettings_change", args=[small_club.pk])
    data = {**admin_form(admin_client.get(url)), "rating_system": system}
    response = admin_client.post(url, {**data, "_confirm_rerate": "1", "_save": "Yes"})
    assert response.status_code == 302
    run = RatingRun.objects.get(status=RatingRun.Status.QUEUED)
    assert run.pending["rating_system"] == system
    shown = admin_client.get(response.url, follow=True)
    assert reverse("ratings:run", args=[run.pk]).encode() in shown.content
    assert ClubSettings.load().rating_system == "nz-club-elo"
    assert ratings_now() == before


@pytest.mark.parametrize("system", PERIOD_SYSTEMS)
def test_the_worker_makes_a_queued_switch_equal_to_a_full_re_rate(
    small_club, pages_wait_for_few_games, system, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True), services.rerates_for_a_page():
        run = services.rating_system_set(system_id=system)
    run.refresh_from_db()
    assert run.status == RatingRun.Status.DONE and run.games_rated == 12
    assert ClubSettings.load().rating_system == system
    assert ratings_now() == full_rerate()


def test_a_switch_within_what_a_page_waits_for_is_still_made_at_once(small_club, settings):
    settings.RERATE_FOREGROUND_SECONDS = 1000
    settings.RERATE_FOREGROUND_GAMES = 12
    with services.rerates_for_a_page():
        run = services.rating_system_set(system_id="ecf-2020")
    assert run.status == RatingRun.Status.DONE and run.games_rated == 12
    assert ClubSettings.load().rating_system == "ecf-2020"


@pytest.mark.parametrize("system", PERIOD_SYSTEMS)
def test_a_list_of_its_own_under_a_period_system_is_queued_by_its_games(
    rated_event, club, alice, bob, pages_wait_for_few_games, system
):
    for week in range(6):
        day = dt.date(2025, 3, 4) + dt.timedelta(weeks=week)
        rated_event([(1, alice, bob, "1-0")], date=day, rate=False, time_class="rapid")
    services.ratings_rerate(services.RerateRequest(reason="season loaded"))
    rapid = RatingList(time_class="rapid", kept=RatingList.Kept.OWN, rating_system=system)
    with services.rerates_for_a_page():
        run = services.rating_list_set(rating_list=rapid)
    assert run.status == RatingRun.Status.QUEUED
