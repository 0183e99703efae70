"""The log of rating runs, and long re-rates run in the background with a progress page."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings import services
from ratings.models import Game, RatingRun, RatingState
from ratings.services import rerate_chain, runs

from ..factories import MemberFactory, paid_up
from .test_rerate import admin_form, full_rerate, ratings_now

pytestmark = pytest.mark.django_db


@pytest.fixture
def slow_club(settings):
    """Every re-rate counts as long, so each goes to the background."""
    settings.RERATE_FOREGROUND_SECONDS = 0


@pytest.fixture
def season_of_games(rated_event, alice, bob, carol, dave):
    events = []
    for week in range(6):
        day = dt.date(2026, 2, 2) + dt.timedelta(weeks=week)
        events.append(
            rated_event([(1, alice, bob, "1-0"), (1, carol, dave, "0-1")], date=day, rate=False)
        )
    services.ratings_rerate(services.RerateRequest(reason="season loaded"))
    return events


def _correct_first_game_in_admin(client, events):
    game = events[0].games.order_by("pk").first()
    url = reverse("admin:ratings_game_change", args=[game.pk])
    data = admin_form(client.get(url))
    data["result"] = "0-1"
    return client.post(url, data, follow=True)


def test_officers_see_the_log_of_rating_runs(officer_client, season_of_games, officer):
    services.ratings_rerate(
        services.RerateRequest(start=season_of_games[2], user=officer, reason="a correction")
    )
    page = officer_client.get(reverse("ratings:runs")).content.decode()
    assert "a correction" in page
    assert "olivia" in page
    assert "season loaded" in page


def test_the_log_is_for_officers_only(client, db):
    response = client.get(reverse("ratings:runs"))
    assert response.status_code == 302
    assert "/accounts/login/" in response.url


def test_the_log_does_not_query_per_run(
    officer_client, season_of_games, django_assert_max_num_queries
):
    for n in range(20):
        services.ratings_rerate(
            services.RerateRequest(start=season_of_games[n % 6], reason=f"run {n}")
        )
    with django_assert_max_num_queries(8):
        assert officer_client.get(reverse("ratings:runs")).status_code == 200


def test_a_run_page_shows_what_it_did(officer_client, season_of_games):
    run = RatingRun.objects.latest("pk")
    page = officer_client.get(reverse("ratings:run", args=[run.pk])).content.decode()
    assert "season loaded" in page
    assert "12</span> games" in page


def test_a_run_page_announces_its_status_to_a_screen_reader(officer_client, season_of_games):
    run = RatingRun.objects.latest("pk")
    page = officer_client.get(reverse("ratings:run", args=[run.pk])).content.decode()
    live = '<p role="status" aria-live="polite" aria-atomic="true" class="mb-3">'
    assert live + '<span data-field="status">' in page


def test_the_status_view_gives_progress_as_json(officer_client, season_of_games):
    run = RatingRun.objects.latest("pk")
    data = officer_client.get(reverse("ratings:run-status", args=[run.pk])).json()
    assert data["status"] == "done" and data["progress"] == 100 and data["finished"] is True


def test_a_short_re_rate_runs_in_the_page(admin_client, season_of_games):
    response = _correct_first_game_in_admin(admin_client, season_of_games)
    assert b"Ratings re-rated: 6 events" in response.content
    assert RatingRun.objects.latest("pk").status == RatingRun.Status.DONE


def test_a_long_re_rate_is_queued_and_the_page_links_to_its_progress(
    admin_client, season_of_games, slow_club, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = _correct_first_game_in_admin(admin_client, season_of_games)
    run = RatingRun.objects.latest("pk")
    assert run.status == RatingRun.Status.QUEUED
    assert len(queued) == 1
    assert reverse("ratings:run", args=[run.pk]).encode() in response.content


def test_the_published_list_keeps_the_last_ratings_until_the_background_run_finishes(
    admin_client,
    season_of_games,
    slow_club,
    django_capture_on_commit_callbacks,
    alice,
    current_season,
):
    paid_up(alice, current_season)
    before = ratings_now()
    listed = RatingState.objects.get(member=alice).display
    with django_capture_on_commit_callbacks(execute=False) as queued:
        _correct_first_game_in_admin(admin_client, season_of_games)
    assert ratings_now() == before
    assert listed in admin_client.get(reverse("ratings:list")).content.decode()
    for callback in queued:
        callback()
    run = RatingRun.objects.latest("pk")
    assert run.status == RatingRun.Status.DONE
    assert run.progress == 100
    assert ratings_now() != before
    assert ratings_now() == full_rerate()


def test_a_background_run_records_its_progress_as_it_goes(season_of_games, monkeypatch):
    run = RatingRun.objects.create(reason="queued", system="nz-club-elo")
    seen: list[int] = []
    original = runs.run_progress

    def spy(*, run, percent, message, using=None):
        original(run=run, percent=percent, message=message, using=using)
        seen.append(percent)

    monkeypatch.setattr(runs, "run_progress", spy)
    services.rerate_run(run=run, start=None)
    assert seen == sorted(seen) and seen[0] < 30 and seen[-1] == 100
    run.refresh_from_db()
    assert run.status == RatingRun.Status.DONE and run.events_rated == 6


def test_a_background_run_reads_the_games_once(season_of_games, monkeypatch):
    run = RatingRun.objects.create(reason="queued", system="nz-club-elo")
    reads: list[list[int]] = []
    read = rerate_chain.engine_events

    def counted(events):
        reads.append([e.pk for e in events])
        return read(events)

    monkeypatch.setattr(rerate_chain, "engine_events", counted)
    services.rerate_run(run=run, start=None)
    assert reads == [[e.pk for e in season_of_games]]
    assert ratings_now() == full_rerate()


def test_a_failed_background_run_says_so_in_the_clubs_words(
    season_of_games, monkeypatch, officer_client
):
    run = RatingRun.objects.create(reason="queued", system="nz-club-elo")

    def broken(*args, **kwargs):
        raise RuntimeError('relation "ratings_ratingchange" violates constraint')

    monkeypatch.setattr(rerate_chain.Chain, "rate", broken)
    with pytest.raises(RuntimeError):
        services.rerate_run(run=run, start=None)
    run.refresh_from_db()
    assert run.status == RatingRun.Status.FAILED
    page = officer_client.get(reverse("ratings:run", args=[run.pk])).content.decode()
    assert "saved nothing: the ratings are as they were before it" in page
    assert "ratings_ratingchange" not in page and "RuntimeError" not in page
    assert "worker is not running" not in page


def test_the_estimate_is_a_fixed_cost_plus_the_games_at_the_pace_of_the_last_runs(
    season_of_games,
):
    MemberFactory()
    RatingRun.objects.create(
        reason="big", system="nz-club-elo", status="done", games_rated=1000, seconds=10
    )
    RatingRun.objects.filter(reason="season loaded").delete()
    pace = 1000 / (10 - runs.FIXED_SECONDS)
    assert services.rerate_estimate(start=None) == pytest.approx(runs.FIXED_SECONDS + 12 / pace)


# -- the officer's pages: saving results re-rates now, or in the background ---------------


def _post_first_round_reversed(client, event, alice, bob, carol, dave):
    data = {"g-TOTAL_FORMS": "2", "g-INITIAL_FORMS": "0", "change_reason": "colours misread"}
    for i, (white, black) in enumerate([(alice, bob), (carol, dave)]):
        data.update({f"g-{i}-white": white.pk, f"g-{i}-black": black.pk, f"g-{i}-result": "0-1"})
    return client.post(reverse("ratings:officer-round", args=[event.pk, 1]), data)


def test_results_saved_with_a_short_re_rate_are_rated_in_the_page(
    officer_client, season_of_games, alice, bob, carol, dave
):
    first = season_of_games[0]
    response = _post_first_round_reversed(officer_client, first, alice, bob, carol, dave)
    assert response["Location"] == reverse("ratings:officer-event", args=[first.pk])
    assert RatingRun.objects.latest("pk").status == RatingRun.Status.DONE
    assert ratings_now() == full_rerate()


def test_results_saved_with_a_long_re_rate_queue_it_and_go_to_its_progress_page(
    officer_client,
    season_of_games,
    slow_club,
    django_capture_on_commit_callbacks,
    alice,
    bob,
    carol,
    dave,
):
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = _post_first_round_reversed(
            officer_client, season_of_games[0], alice, bob, carol, dave
        )
    run = RatingRun.objects.latest("pk")
    assert run.status == RatingRun.Status.QUEUED and len(queued) == 1
    assert response["Location"] == reverse("ratings:run", args=[run.pk])


def test_a_queued_re_rate_of_saved_results_brings_the_ratings_up_to_date(
    officer_client,
    season_of_games,
    slow_club,
    django_capture_on_commit_callbacks,
    alice,
    bob,
    carol,
    dave,
):
    with django_capture_on_commit_callbacks(execute=True):
        _post_first_round_reversed(officer_client, season_of_games[0], alice, bob, carol, dave)
    assert RatingRun.objects.latest("pk").status == RatingRun.Status.DONE
    assert ratings_now() == full_rerate()


def test_completing_an_event_with_a_long_re_rate_goes_to_its_progress_page(
    officer_client, season_of_games, slow_club, rated_event, alice, bob
):
    later = rated_event([(1, alice, bob, "1-0")], date=dt.date(2026, 4, 1), rate=False)
    later.status = later.Status.DRAFT
    later.save()
    response = officer_client.post(reverse("ratings:officer-event-complete", args=[later.pk]))
    run = RatingRun.objects.latest("pk")
    assert run.status == RatingRun.Status.QUEUED
    assert response["Location"] == reverse("ratings:run", args=[run.pk])


def test_a_run_no_worker_has_taken_for_a_minute_says_the_worker_is_not_running(officer_client, db):
    run = RatingRun.objects.create(
        reason="a correction",
        system="nz-club-elo",
        started=timezone.now() - dt.timedelta(minutes=2),
    )
    data = officer_client.get(reverse("ratings:run-status", args=[run.pk])).json()
    assert data["stalled"] is True
    page = officer_client.get(reverse("ratings:run", args=[run.pk])).content.decode()
    assert "the background worker is not running" in page


def test_a_run_queued_a_moment_ago_is_not_called_stalled(officer_client, db):
    run = RatingRun.objects.create(reason="a correction", system="nz-club-elo")
    assert (
        officer_client.get(reverse("ratings:run-status", args=[run.pk])).json()["stalled"] is False
    )


# -- a worker that died mid-run ---------------------------------------------------------------


def _run_whose_worker_died(**fields):
    quiet = timezone.now() - dt.timedelta(minutes=10)
    values = {
        "reason": "Club night 1: results changed",
        "system": "nz-club-elo",
        "status": RatingRun.Status.RUNNING,
        "progress": 5,
        "started": quiet,
        "heartbeat": quiet,
        "estimate": 3.0,
        "start": None,
    }
    return RatingRun.objects.create(**{**values, **fields})


def test_a_run_whose_worker_went_quiet_says_a_worker_takes_it_over(officer_client, db):
    run = _run_whose_worker_died()
    status = officer_client.get(reverse("ratings:run-status", args=[run.pk])).json()
    assert (status["status"], status["finished"]) == ("running", False)
    assert "A worker takes it over" in status["message"]
    assert status["stalled"] is False  # a worker ran it: none is said to be missing


def test_a_run_whose_worker_is_alive_is_not_failed(officer_client, db):
    run = _run_whose_worker_died()
    RatingRun.objects.filter(pk=run.pk).update(heartbeat=timezone.now())
    status = officer_client.get(reverse("ratings:run-status", args=[run.pk])).json()
    assert status["status"] == "running"


def test_a_long_run_gets_three_times_its_estimate_before_it_counts_as_dead(officer_client, db):
    run = _run_whose_worker_died()
    RatingRun.objects.filter(pk=run.pk).update(estimate=400.0)  # 20 minutes allowed
    status = officer_client.get(reverse("ratings:run-status", args=[run.pk])).json()
    assert status["status"] == "running"


def test_a_dead_run_taken_over_re_rates_from_where_it_was_to_start(
    season_of_games, django_capture_on_commit_callbacks
):
    game = Game.objects.filter(event=season_of_games[2]).first()
    Game.objects.filter(pk=game.pk).update(result="0-1")  # corrected, never re-rated
    run = _run_whose_worker_died(
        start=services.position_json(season_of_games[2]), from_event=season_of_games[2]
    )
    with django_capture_on_commit_callbacks(execute=True):
        taken = services.runs_take_over()
    assert [r.pk for r in taken] == [run.pk]
    run.refresh_from_db()
    assert run.status == RatingRun.Status.DONE and run.from_event == season_of_games[2]
    assert ratings_now() == full_rerate()


def test_a_run_whose_worker_is_alive_is_not_taken_over(season_of_games):
    run = _run_whose_worker_died()
    RatingRun.objects.filter(pk=run.pk).update(heartbeat=timezone.now())
    assert services.runs_take_over() == []
    run.refresh_from_db()
    assert run.status == RatingRun.Status.RUNNING


def test_a_run_queued_behind_a_busy_worker_is_not_called_stalled(officer_client, db):
    _run_whose_worker_died(heartbeat=timezone.now())
    run = RatingRun.objects.create(
        reason="a correction",
        system="nz-club-elo",
        started=timezone.now() - dt.timedelta(minutes=5),
    )
    data = officer_client.get(reverse("ratings:run-status", args=[run.pk])).json()
    assert data["stalled"] is False


def test_a_run_queued_behind_a_dead_one_with_no_worker_says_the_worker_is_not_running(
    officer_client, db
):
    _run_whose_worker_died()
    run = RatingRun.objects.create(
        reason="a correction",
        system="nz-club-elo",
        started=timezone.now() - dt.timedelta(minutes=5),
    )
    data = officer_client.get(reverse("ratings:run-status", args=[run.pk])).json()
    assert data["stalled"] is True


def test_retrying_a_failed_run_re_rates_from_where_it_was_to_start(
    officer_client, season_of_games, django_capture_on_commit_callbacks
):
    game = Game.objects.filter(event=season_of_games[2]).first()
    Game.objects.filter(pk=game.pk).update(result="0-1")  # corrected, never re-rated
    run = _run_whose_worker_died(
        start=services.position_json(season_of_games[2]),
        from_event=season_of_games[2],
        status=RatingRun.Status.FAILED,
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = officer_client.post(reverse("ratings:run-retry", args=[run.pk]))
    again = RatingRun.objects.latest("pk")
    assert response["Location"] == reverse("ratings:run", args=[again.pk])
    assert again.status == RatingRun.Status.DONE and again.from_event == season_of_games[2]
    assert ratings_now() == full_rerate()


def test_a_run_that_has_not_failed_cannot_be_retried(officer_client, season_of_games):
    run = RatingRun.objects.latest("pk")
    assert run.status == RatingRun.Status.DONE
    response = officer_client.post(reverse("ratings:run-retry", args=[run.pk]))
    assert response.status_code == 404
