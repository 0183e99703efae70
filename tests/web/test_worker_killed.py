"""A worker killed mid-run (SIGKILL): another takes its run over and finishes it.

Real `manage.py db_worker` processes on the test database, so PostgreSQL only: SQLite's
test database lives in this process's memory, where no other process can reach it.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django_tasks_db.models import DBTaskResult

from ratings import services
from ratings.models import ClubSettings, RatingRun

from .test_rerate import full_rerate, ratings_now

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="SQLite's test database is in memory: a worker process cannot reach it",
    ),
]


def _worker() -> subprocess.Popen[bytes]:
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DB_POOL_MAX": "0",
        "RERATE_HEARTBEAT_SECONDS": "0.5",
        "RERATE_HEARTBEAT_LAPSE": "3",
    }
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


def test_a_run_whose_worker_is_killed_is_finished_by_the_next_worker(settings):
    settings.RERATE_FOREGROUND_SECONDS = 0
    settings.TASKS = {
        "default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}
    }
    call_command(
        "generate_history", "--members", "500", "--games", "20000", "--seed", "5",
        stdout=io.StringIO(),
    )  # fmt: skip
    with transaction.atomic():
        run = services.rating_system_set(system_id="nz-club-elo", params={"k_new": 28}, soon=True)
    assert run.status == RatingRun.Status.QUEUED
    first = _worker()
    try:
        _until(lambda: _run(run.pk).progress >= 20, 120, "the first worker to be mid-run")
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(10)
    killed = _run(run.pk)
    assert killed.status == RatingRun.Status.RUNNING
    assert ClubSettings.load().system_params == {}  # the switch went with the dead run
    second = _worker()
    try:
        _until(lambda: _run(run.pk).status == RatingRun.Status.DONE, 150, "the run to finish")
    finally:
        second.send_signal(signal.SIGTERM)
        second.wait(30)
    assert not DBTaskResult.objects.filter(status="RUNNING").exists()
    assert DBTaskResult.objects.filter(status="FAILED").count() == 1  # the dead worker's
    assert ClubSettings.load().system_params == {"k_new": 28}
    assert ratings_now() == full_rerate()
