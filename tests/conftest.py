"""Shared fixtures: the club's people by name, an officer, a season, a rated event."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import hypothesis
import pytest

from ratings import services
from ratings.models import ClubSettings, Event, Game, Member, Season

from .factories import EventFactory, GameFactory, MemberFactory, SeasonFactory, officer_user
from .savepoints import rolled_back

#: Real files written by pairing programs (tests/data/trf/README.md says where each is from).
TRF_FILES = __import__("pathlib").Path(__file__).resolve().parent / "data" / "trf"

# CI explores the same examples on every run, so a submission's result does not depend
# on the draw: derandomized, nothing kept between runs, no deadline (a loaded runner is
# slow, not wrong), and the number of examples bounded (each test's own, else 100).
# A developer's runs ("dev") draw afresh and keep what failed in .hypothesis/, to try it
# first next time. HYPOTHESIS_PROFILE chooses one; CI=1 means "ci".
hypothesis.settings.register_profile(
    "ci", max_examples=100, derandomize=True, database=None, deadline=None, print_blob=True
)
hypothesis.settings.register_profile("dev", print_blob=True)
hypothesis.settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
)


@pytest.fixture(autouse=True, scope="session")
def _static_files_found_once() -> Iterator[None]:
    """WhiteNoise lists and stats every static file each time its middleware is made, and
    the test client makes the middleware afresh for each client: a fifth of a page test's
    time went on it (the permission matrix made it 3,000 times). The files found are the
    same for the same settings, so they are found once per settings in each process."""
    from django.conf import settings as django_settings
    from whitenoise.middleware import WhiteNoiseMiddleware

    found: dict[str, dict[str, object]] = {}
    find_afresh = WhiteNoiseMiddleware.add_files_from_finders

    def add_files_from_finders(self: WhiteNoiseMiddleware) -> None:
        names = ("DEBUG", "STATIC_URL", "STATIC_ROOT", "FORCE_SCRIPT_NAME", "STATICFILES_DIRS")
        names += ("STATICFILES_FINDERS", "INSTALLED_APPS", "STORAGES")
        names += tuple(name for name in dir(django_settings) if name.startswith("WHITENOISE_"))
        key = repr([(name, getattr(django_settings, name, None)) for name in names])
        if key not in found:
            before = dict(self.files)
            find_afresh(self)
            found[key] = {url: f for url, f in self.files.items() if before.get(url) is not f}
        self.files.update(found[key])

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(WhiteNoiseMiddleware, "add_files_from_finders", add_files_from_finders)
        yield


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    django_db_modify_db_settings_parallel_suffix,
    request,
    django_db_use_migrations,
    django_db_keepdb,
    django_db_createdb,
):
    """The SQLite test database migrated once and copied into each process
    (tests/migrated_once.py): each xdist worker migrated its own, 8 s of CPU or more."""
    from django.db import connections

    from . import migrated_once

    connection = connections["default"]
    reused = django_db_keepdb and not django_db_createdb
    cache = getattr(request.config, "cache", None)  # None under -p no:cacheprovider
    own_way = not django_db_use_migrations or reused or cache is None
    if own_way or not migrated_once.applies(connection):
        yield
        return
    folder = Path(str(cache.mkdir(migrated_once.FOLDER)))
    create = migrated_once.create_from_copy(connection, connection.creation.create_test_db, folder)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(connection.creation, "create_test_db", create)
        yield


@pytest.fixture
def migrated_sqlite_file(request, tmp_path) -> Path:
    """A SQLite club file of its own, migrated, for a test whose child processes (a
    server, a worker, a command) open it by its URL: a copy of the migrated test database
    the run keeps (tests/migrated_once.py), else ``manage.py migrate`` on an empty file
    (7 s of CPU or more, what each such test spent before)."""
    from . import migrated_once

    path = tmp_path / "club.sqlite3"
    cache = getattr(request.config, "cache", None)
    if cache is not None and migrated_once.kept_copy(
        Path(str(cache.mkdir(migrated_once.FOLDER))), path
    ):
        return path
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=Path(__file__).resolve().parents[1],
        env={**os.environ, "DATABASE_URL": f"sqlite:///{path}"},
        check=True,
    )
    return path


#: What every test runs under (``_fast_and_in_process``).
FAST_AND_IN_PROCESS = {
    "TASKS": {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}},
    "PASSWORD_HASHERS": ["django.contrib.auth.hashers.MD5PasswordHasher"],
}


def _quiet_load() -> tuple[float, float, float]:
    return (0.0, 0.0, 0.0)


@pytest.fixture(autouse=True)
def _fast_and_in_process(settings):
    """Background runs execute at once (no worker in tests); passwords hash cheaply."""
    for name, value in FAST_AND_IN_PROCESS.items():
        setattr(settings, name, value)


@pytest.fixture(autouse=True)
def _a_quiet_machine(monkeypatch):
    """The re-rate policy weighs the machine's load (``runs.machine_load``): beside other
    tests (pytest-xdist's workers, a browser, the next engineer's run) a page's re-rate
    would go to the background by chance. A test of the policy sets the load it means."""
    from ratings.services import runs

    monkeypatch.setattr(runs.os, "getloadavg", _quiet_load)


@contextlib.contextmanager
def made_once_for_the_class(django_db_blocker) -> Iterator[None]:
    """For a class-scoped fixture making data its tests only read (Django's
    ``setUpTestData``): what is made in the block stays for the class's tests and is
    rolled back after the last. Each test's own transaction is a savepoint inside it, so
    what a test writes is still undone after that test. The block runs as a test does
    (``_fast_and_in_process``, ``_a_quiet_machine``): those autouse fixtures are a
    test's, made after a class's fixtures."""
    from django.test import override_settings

    from ratings.services import runs

    with (
        django_db_blocker.unblock(),
        override_settings(**FAST_AND_IN_PROCESS),
        pytest.MonkeyPatch.context() as patch,
        rolled_back(),
    ):
        patch.setattr(runs.os, "getloadavg", _quiet_load)
        yield


@pytest.fixture(autouse=True)
def _no_pages_kept_from_another_test():
    """Each test's public pages rendered afresh: the cache (each process's memory) outlives
    the test's database, whose rollback may give the pages' version again."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def club() -> ClubSettings:
    return ClubSettings.load()


@pytest.fixture
def season():
    return SeasonFactory(name="2026", start=dt.date(2026, 1, 1), end=dt.date(2026, 12, 31))


@pytest.fixture
def current_season():
    """The season covering today, whatever day the tests run."""
    from django.utils import timezone

    from ratings.models import Season

    return Season.for_day(timezone.localdate())


@pytest.fixture
def seasons_2026_and_today(season, current_season) -> tuple[Season, ...]:
    """For a test that publishes lists on days of 2026 (a March list, an April one) and
    reads today's too: a member paid up for these is on both. One season while the tests
    run in 2026; from 1 January 2027 two, 2026's for the lists of its spring (paid up for
    today's alone, no one was on them) and today's for the live list."""
    return (season,) if season == current_season else (season, current_season)


@pytest.fixture
def seasons_of_the_last(current_season) -> Callable[[int], tuple[Season, ...]]:
    """For a test that published a list ``days`` ago (a month ago, say) and another today:
    the seasons covering that day and today, for its members to be paid up on both. One
    season most of the year; two in the first ``days`` days of the club's season (1 to 30
    January for a month), when members paid for today's alone were on no earlier list."""

    def seasons(days: int) -> tuple[Season, ...]:
        from django.utils import timezone

        then = Season.for_day(timezone.localdate() - dt.timedelta(days=days))
        return (current_season,) if then == current_season else (then, current_season)

    return seasons


@pytest.fixture
def alice() -> Member:
    return MemberFactory(member_number="A1", name="Alice Archer", gender="F", region="North")


@pytest.fixture
def bob() -> Member:
    return MemberFactory(member_number="B2", name="Bob Brown", gender="M", region="South")


@pytest.fixture
def carol() -> Member:
    return MemberFactory(member_number="C3", name="Carol Chen", gender="F", region="North")


@pytest.fixture
def dave() -> Member:
    return MemberFactory(member_number="D4", name="Dave Dunn", gender="M", region="South")


@pytest.fixture
def officer(db):
    return officer_user()


@pytest.fixture
def officer_client(client, officer):
    client.force_login(officer)
    return client


Pairing = tuple[Member, Member | None, str]


@pytest.fixture
def rated_event() -> Callable[..., Event]:
    """Make a complete event from (round, white, black, result) rows and rate it."""

    def make(
        games: Sequence[tuple[int, Member, Member | None, str]],
        *,
        date: dt.date = dt.date(2026, 3, 2),
        name: str = "Club night",
        rounds: int | None = None,
        rate: bool = True,
        time_class: str = "standard",
    ) -> Event:
        event = EventFactory(
            name=name,
            time_class=time_class,
            start_date=date,
            end_date=date,
            rounds=rounds or max((g[0] for g in games), default=1),
            status=Event.Status.COMPLETE,
        )
        for round_, white, black, result in games:
            GameFactory(event=event, round=round_, white=white, black=black, result=result)
            event.entries.get_or_create(member=white)
            if black is not None:
                event.entries.get_or_create(member=black)
        if rate:
            services.ratings_rerate(services.RerateRequest(start=event, reason=f"{name} rated"))
        return event

    return make


__all__ = ["TRF_FILES", "Game", "Pairing"]
