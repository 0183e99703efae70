"""A worker killed mid-run (SIGKILL): another takes its run over and finishes it.

Real `manage.py db_worker` processes: on PostgreSQL on the test database; on SQLite on a
database file of its own (the test database lives in this process's memory).
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django_tasks_db.models import DBTaskResult

from ratings import services
from ratings.models import ClubSettings, RatingRun, RatingState

from .test_rerate import full_rerate, ratings_now

ROOT = Path(__file__).resolve().parents[2]


def _test_database_url() -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def _env(url: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": url,
        "DB_POOL_MAX": "0",
        "RERATE_HEARTBEAT_SECONDS": "0.5",
        "RERATE_HEARTBEAT_LAPSE": "3",
        "RERATE_FOREGROUND_SECONDS": "0",
        "TASKS_BACKEND": "database",
    }


def _worker(url: str | None = None) -> subprocess.Popen[bytes]:
    env = _env(url or _test_database_url())
    return subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "db_worker",
            "--no-reload",
            "--no-startup-delay",
            "--interval",
            "0.2",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _until(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"waited {seconds}s for {what}"
        time.sleep(0.1)


def _run(pk: int) -> RatingRun:
    return RatingRun.objects.get(pk=pk)


def _a_worker_waits_for_a_lock() -> bool:
    """Whether another connection to this test database waits for a lock (PostgreSQL):
    ``pg_locks`` is read afresh by every statement, where ``pg_stat_activity`` keeps one
    snapshot a transaction (each statement is one here: the test runs in autocommit). Only
    this database's connections count: the other xdist worker's tests, and anyone else's
    on the same server, wait for locks of their own."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
            " WHERE NOT l.granted AND a.datname = current_database()"
        )
        return bool(cursor.fetchone()[0])


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="SQLite's test database is in memory: a worker process cannot reach it "
    "(test_on_sqlite_... below uses a database file of its own)",
)
def test_a_run_whose_worker_is_killed_is_finished_by_the_next_worker(settings):
    settings.RERATE_FOREGROUND_SECONDS = 0
    settings.TASKS = {
        "default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}
    }
    call_command(
        "generate_history", "--members", "500", "--games", "20000", "--seed", "5",
        stdout=io.StringIO(),
    )  # fmt: skip
    with services.rerates_for_a_page(), transaction.atomic():
        run = services.rating_system_set(system_id="nz-club-elo", params={"k_new": 28})
    assert run.status == RatingRun.Status.QUEUED
    first = _worker()
    # The run ends by writing every member's current state: one of them held here, the
    # run waits there, mid-run for certain. A kill when its progress showed mid-run could
    # land after its commit (its 20,000 games rate in half a second).
    with transaction.atomic():
        assert list(RatingState.objects.select_for_update().order_by("pk")[:1])
        try:
            _until(_a_worker_waits_for_a_lock, 120, "the first worker to wait at its last step")
            assert _run(run.pk).progress >= 20
        finally:
            first.send_signal(signal.SIGKILL)
            first.wait(10)
    # The dead worker's transaction takes the row, finds its client gone and rolls back.
    killed = _run(run.pk)
    assert killed.status == RatingRun.Status.RUNNING
    assert ClubSettings.load().system_params == {}  # the switch went with the dead run
    second = _worker()
    try:
        _until(lambda: _run(run.pk).status == RatingRun.Status.DONE, 150, "the run to finish")
        # The run is DONE a moment before the worker records its task done: wait for that,
        # or the stop below could land between the two.
        _until(
            lambda: DBTaskResult.objects.filter(status="SUCCESSFUL").exists(),
            30,
            "the second worker to record its task done",
        )
    finally:
        second.send_signal(signal.SIGTERM)
        second.wait(30)
    assert not DBTaskResult.objects.filter(status="RUNNING").exists()
    assert DBTaskResult.objects.filter(status="FAILED").count() == 1  # the dead worker's
    assert ClubSettings.load().system_params == {"k_new": 28}
    assert ratings_now() == full_rerate()


def _manage(url: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=_env(url),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


#: Run in a shell of the SQLite club: the stored ratings, then those of a full re-rate.
_COMPARE = """
from tests.web.test_rerate import full_rerate, ratings_now
from ratings.models import ClubSettings
stored = ratings_now()
same = "equal" if stored == full_rerate() else "differ"
print("stored:", same, ClubSettings.load().system_params)
"""


@pytest.mark.skipif(
    connection.vendor != "sqlite",
    reason="its club is a SQLite file whatever the tests' database: CI's SQLite run ran it",
)
def test_on_sqlite_a_run_whose_worker_is_killed_is_finished_by_the_next_worker(
    migrated_sqlite_file,
):
    path = migrated_sqlite_file
    url = f"sqlite:///{path}"
    # A history whose re-rate lasts seconds even on a quiet machine, so the kill lands mid-run.
    _manage(url, "generate_history", "--members", "1000", "--games", "100000", "--seed", "5")
    switch = (  # as the admin's page switches it: a run too long for the page is queued
        "from ratings import services\n"
        "with services.rerates_for_a_page():\n"
        "    print('run', services.rating_system_set(system_id='nz-club-elo', "
        "params={'k_new': 28}).pk)\n"
    )
    said = _manage(url, "shell", "-c", switch)
    run_pk = int(said.split("run ")[-1].split()[0])

    def row(sql: str) -> tuple:
        with contextlib.closing(sqlite3.connect(path, timeout=30)) as db:
            return db.execute(sql, [run_pk] if "?" in sql else []).fetchone()

    def writing() -> bool:
        """Whether another connection holds the write lock: the worker saving its run
        (its progress does not move while it writes, the database being busy)."""
        with contextlib.closing(sqlite3.connect(path, timeout=0, isolation_level=None)) as db:
            try:
                db.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError:
                return True
            db.execute("ROLLBACK")
            return False

    status = "SELECT status FROM ratings_ratingrun WHERE id = ?"
    first = _worker(url)
    try:
        _until(
            lambda: row(status) == ("running",) and writing(),
            120,
            "the first worker to take the run and write it",
        )
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    assert row(status) == ("running",)
    second = _worker(url)
    try:
        _until(lambda: row(status) == ("done",), 150, "the run to finish")
        succeeded = (
            "SELECT count(*) FROM django_tasks_database_dbtaskresult WHERE status = 'SUCCESSFUL'"
        )
        _until(lambda: row(succeeded) == (1,), 30, "the second worker to record its task done")
    finally:
        second.send_signal(signal.SIGTERM)
        second.wait(30)
    tasks = "SELECT count(*) FROM django_tasks_database_dbtaskresult WHERE status = 'RUNNING'"
    assert row(tasks) == (0,)
    said = _manage(url, "shell", "-c", _COMPARE)
    assert "stored: equal {'k_new': 28}" in said, said
