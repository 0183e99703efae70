"""The background tasks moved from ``ratings/tasks.py`` into the services that queue them
(a re-rate's into ``services/runs.py``, a comparison's into ``services/compare.py``, a
mail's into ``services/notifications.py``), so that no service imports a module above it.

django-tasks' database queue stores each task by its import path. Chosen over a thin
``ratings/tasks.py`` left to re-export the old names: the rows are moved once, whatever
their status, so that a task queued before the upgrade still runs (the worker imports the
stored path), a task left RUNNING by a worker stopped for the upgrade is still found and
marked failed when its run is taken over (``runs.tasks_running_fail`` looks its rows up by
the task's path), and no module is kept only for names nothing queues any more.
``make serve`` migrates before it starts the worker, so no worker reads the queue between.
The paths are written out here, not read from the tasks: a migration is history.
"""

from django.db import migrations

MOVED = {
    "ratings.tasks.rerate_in_background": "ratings.services.runs.rerate_in_background",
    "ratings.tasks.compare_in_background": "ratings.services.compare.compare_in_background",
    "ratings.tasks.mail_deliver_in_background": (
        "ratings.services.notifications.mail_deliver_in_background"
    ),
}


def paths_move(apps, schema_editor, moves=MOVED):
    DBTaskResult = apps.get_model("django_tasks_database", "DBTaskResult")
    for old, new in moves.items():
        DBTaskResult.objects.filter(task_path=old).update(task_path=new)


def paths_back(apps, schema_editor):
    paths_move(apps, schema_editor, moves={new: old for old, new in MOVED.items()})


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0046_broughtin_standing"),
        ("django_tasks_database", "0021_conditional_partial_index_ordering"),
    ]

    operations = [migrations.RunPython(paths_move, paths_back)]
