"""A comparison of systems survives its worker: one whose worker died is taken over and
finished by the next, and a run thought dead that finishes after all writes nothing."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from ratings.models import Comparison, ComparisonRating, Game
from ratings.services import compare

from .test_compare import run

pytestmark = pytest.mark.django_db
WIN = Game.Result.WHITE_WIN


@pytest.fixture
def history(rated_event, alice, bob):
    rated_event([(1, alice, bob, WIN)], date=dt.date(2026, 3, 2))


def _running(*, quiet_for: dt.timedelta) -> Comparison:
    """A comparison a worker took up, last heard from ``quiet_for`` ago."""
    since = timezone.now() - quiet_for
    return Comparison.objects.create(
        club_system="nz-club-elo",
        params=compare.comparison_default_params(),
        status=Comparison.Status.RUNNING,
        started=since,
        heartbeat=since,
        progress=40,
    )


def test_a_comparison_whose_worker_died_is_taken_over_and_finished(
    history, django_capture_on_commit_callbacks
):
    dead = _running(quiet_for=Comparison.DEAD_AFTER * 2)
    with django_capture_on_commit_callbacks(execute=True):
        taken = compare.comparisons_take_over()
    assert [c.pk for c in taken] == [dead.pk]
    dead.refresh_from_db()
    assert dead.status == Comparison.Status.DONE
    assert ComparisonRating.objects.filter(comparison=dead).exists()


def test_a_comparison_whose_worker_is_alive_is_left_to_it(history):
    alive = _running(quiet_for=dt.timedelta(seconds=5))
    assert compare.comparisons_take_over() == []
    alive.refresh_from_db()
    assert alive.status == Comparison.Status.RUNNING


def test_its_page_says_a_worker_takes_it_over(history):
    dead = _running(quiet_for=Comparison.DEAD_AFTER * 2)
    shown = compare.comparison_check_alive(comparison=dead)
    assert "takes it over" in shown.message
    dead.refresh_from_db()
    assert dead.status == Comparison.Status.RUNNING  # not failed: it is taken over


def test_a_run_taken_over_while_thought_dead_writes_nothing(history, monkeypatch):
    comparison = compare.comparison_start(params=None)
    real_run = compare._Runner.run

    def taken_over_meanwhile(runner):
        real_run(runner)
        # Taken over, and the next worker has started it again.
        Comparison.objects.filter(pk=comparison.pk).update(
            started=timezone.now() + dt.timedelta(seconds=1)
        )

    monkeypatch.setattr(compare._Runner, "run", taken_over_meanwhile)
    compare.comparison_run(comparison=Comparison.objects.get(pk=comparison.pk))
    comparison.refresh_from_db()
    assert comparison.status == Comparison.Status.RUNNING  # the next worker's to finish
    assert not ComparisonRating.objects.filter(comparison=comparison).exists()


def test_a_failed_comparison_says_so_in_the_clubs_words(history, monkeypatch):
    def broken(runner):
        raise RuntimeError('relation "ratings_game" does not exist')

    monkeypatch.setattr(compare._Runner, "run", broken)
    with pytest.raises(RuntimeError):
        run()
    failed = Comparison.objects.get()
    assert failed.status == Comparison.Status.FAILED
    assert "stopped on an error and saved nothing" in failed.message
    assert "relation" not in failed.message
