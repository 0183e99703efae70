"""No long re-rate in a request: whether a page waits for a re-rate is decided by its
size and the machine's load now, not by how fast the last runs went on a quiet machine."""

from __future__ import annotations

import datetime as dt

import pytest

from ratings import services
from ratings.services import runs

pytestmark = pytest.mark.django_db


@pytest.fixture
def season_of_games(rated_event, alice, bob, carol, dave):  # type: ignore[no-untyped-def]
    """Six weekly nights of two games each, rated."""
    for week in range(6):
        day = dt.date(2026, 2, 2) + dt.timedelta(weeks=week)
        rated_event([(1, alice, bob, "1-0"), (1, carol, dave, "0-1")], date=day, rate=False)
    services.ratings_rerate(services.RerateRequest(reason="season loaded"))


@pytest.fixture
def quick_limit(settings):  # type: ignore[no-untyped-def]
    """A page waits up to 0.1 s: season_of_games' 12 games take 0.05 s at the first pace."""
    settings.RERATE_FOREGROUND_SECONDS = 0.1
    settings.RERATE_FOREGROUND_GAMES = 20_000


def _load(monkeypatch, waiting: float, cores: int = 2) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(runs.os, "getloadavg", lambda: (waiting, waiting, waiting))
    monkeypatch.setattr(runs.os, "cpu_count", lambda: cores)


def test_a_short_re_rate_on_a_quiet_machine_is_rated_in_the_page(
    season_of_games, quick_limit, monkeypatch
):
    _load(monkeypatch, 0.5)
    now, estimate = services.rerate_in_the_page(start=None)
    assert now and estimate == pytest.approx(services.rerate_estimate(start=None))


def test_the_same_re_rate_on_a_machine_loaded_four_times_over_goes_to_the_background(
    season_of_games, quick_limit, monkeypatch
):
    _load(monkeypatch, 8.0)
    now, estimate = services.rerate_in_the_page(start=None)
    assert not now
    assert estimate == pytest.approx(4 * services.rerate_estimate(start=None))


def test_more_games_than_a_page_waits_for_go_to_the_background_however_fast(
    season_of_games, quick_limit, monkeypatch, settings
):
    _load(monkeypatch, 0.0)
    settings.RERATE_FOREGROUND_SECONDS = 1000  # the last runs' pace would say "now"
    settings.RERATE_FOREGROUND_GAMES = 11  # the season has 12 played games
    assert services.rerate_games(start=None) == 12
    assert services.rerate_in_the_page(start=None)[0] is False


def test_a_page_saving_on_a_loaded_machine_queues_its_re_rate(
    season_of_games, quick_limit, monkeypatch
):
    _load(monkeypatch, 8.0)
    queued = []
    monkeypatch.setattr(
        runs, "run_queue", lambda request, **kwargs: queued.append(kwargs) or "queued"
    )
    with services.rerates_for_a_page():
        assert services.ratings_update(services.RerateRequest(reason="a correction")) == "queued"
    assert queued and queued[0]["estimate"] > 0.1


def test_no_load_average_counts_as_a_machine_with_room(monkeypatch):
    def missing() -> tuple[float, float, float]:
        raise OSError

    monkeypatch.setattr(runs.os, "getloadavg", missing)
    assert runs.machine_load() == 1.0
