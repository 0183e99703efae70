"""The worker's tasks moved from ``ratings/tasks.py`` into the services that queue them:
a task the queue stored by its old path before the upgrade still runs after it
(migration 0047 moves the stored paths, and back)."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from ratings.services import runs

BEFORE = ("ratings", "0046_broughtin_standing")
AFTER = ("ratings", "0047_tasks_paths_into_services")


def migrate(target: tuple[str, str] | None = None) -> None:
    """The database migrated to ``target`` (None: the app's latest). The queue's table is
    django-tasks' own, the same whichever: its model is read as it is."""
    executor = MigrationExecutor(connection)
    executor.migrate([target] if target else executor.loader.graph.leaf_nodes("ratings"))


@pytest.mark.django_db(transaction=True)
def test_a_task_queued_before_the_tasks_moved_runs_after_and_before_again(settings) -> None:
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    migrate(BEFORE)
    DBTaskResult.objects.create(
        id=uuid.uuid4(),
        args_kwargs={"args": [], "kwargs": {"run_pk": 1, "start": None}},
        task_path="ratings.tasks.rerate_in_background",
        backend_name="default",
        run_after=timezone.now(),
    )
    try:
        migrate(AFTER)
        assert DBTaskResult.objects.get().task.func is runs.rerate_in_background.func
        migrate(BEFORE)
        assert DBTaskResult.objects.get().task_path == "ratings.tasks.rerate_in_background"
    finally:
        migrate()
