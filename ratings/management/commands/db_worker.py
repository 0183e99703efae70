"""db_worker: django-tasks' database worker, which also takes over runs whose worker died.

Beside the queue, a thread looks every heartbeat (``RERATE_HEARTBEAT_SECONDS``) for a
rating run whose worker has stopped (``services.runs_take_over``): a worker killed
mid-run, or its machine restarted; for a comparison of systems whose worker stopped
(``compare.comparisons_take_over``); and for a members file it was reading or saving
(``member_import_jobs.member_imports_take_over``). Such a run saved nothing; it is queued
again and this worker (or another) carries it out from the start. A worker started after
the old one died does the same at once. And it counts the published lists' figures when
they are not current (``services.list_figures_refresh``): on the morning a season starts
or ends, or after a write whose own count failed, so that the list's readers do not each
count them.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from django.db import connection
from django_tasks_db.management.commands import db_worker

from ratings.services.compare import comparisons_take_over
from ratings.services.list_figures import list_figures_refresh
from ratings.services.member_import_jobs import member_imports_take_over
from ratings.services.runs import heartbeat_seconds, runs_take_over

log = logging.getLogger("ratings")


def _watch(stop: threading.Event) -> None:
    """Take dead workers' runs over, now and every heartbeat, until ``stop`` is set."""
    while True:
        try:
            runs_take_over()
            comparisons_take_over()
            member_imports_take_over()
        except Exception:  # a database gone for a moment: try again at the next heartbeat
            log.exception("looking for runs whose worker stopped")
        try:
            list_figures_refresh()
        except Exception:  # SQLite busy with a long writer: that write counts them
            log.warning("the published lists' figures were not counted", exc_info=True)
        finally:
            connection.close()
        if stop.wait(heartbeat_seconds()):
            return


class Command(db_worker.Command):
    help = db_worker.Command.help + ", taking over rating runs whose worker died"

    def handle(self, *args: Any, **options: Any) -> None:
        stop = threading.Event()
        watcher = threading.Thread(target=_watch, args=(stop,), name="run-takeover", daemon=True)
        watcher.start()
        try:
            super().handle(*args, **options)
        finally:
            stop.set()
